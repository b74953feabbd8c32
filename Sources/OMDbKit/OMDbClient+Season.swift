import Foundation

extension OMDbClient {
    /// Season `number` of the series `imdbID`: its episodes as OMDb lists them (at most 100,
    /// gaps and an "Episode 0" included), in episode order. Goes through the same fetch as
    /// every other API request and is remembered for the session, "not found" included.
    /// - Throws: ``OMDbError/seasonNotFound(imdbID:season:)`` when OMDb answers
    ///   `Series or season not found!`, any other ``OMDbError``, or `CancellationError`.
    public func season(imdbID: String, number: Int) async throws -> Season {
        let key = "\(imdbID)|\(number)"
        if let cached = seasons[key] { return try cached.get() }
        let url = OMDbRequest.season(imdbID: imdbID, number: number, apiKey: configuration.apiKey, baseURL: configuration.baseURL)
        let (response, shown) = try await fetch(url, countsTowardQuota: true)
        let result = Result { () throws(OMDbError) -> Season in
            try OMDbDecoding.season(response, imdbID: imdbID, number: number, url: shown, redactor: redactor)
        }
        if case .failure(let error) = result, !error.isNoResults { throw error }
        seasons[key] = result
        return try result.get()
    }
}
