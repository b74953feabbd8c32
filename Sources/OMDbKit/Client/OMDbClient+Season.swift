import Foundation

extension OMDbClient {
    struct SeasonKey: Hashable, Sendable {
        let imdbID: String
        let number: Int
    }

    /// Season `number` of the series `imdbID`: its episodes as OMDb lists them (at most 100,
    /// gaps and an "Episode 0" included), in episode order. Sent like every other API request
    /// (key at the edge, counted, retried), one request however many ask at once, and
    /// remembered for the session, "not found" included.
    /// - Throws: ``OMDbError/seasonNotFound(imdbID:season:)`` when OMDb answers
    ///   `Series or season not found!`, any other ``OMDbError``, or `CancellationError`.
    public nonisolated func season(imdbID: String, number: Int) async throws -> Season {
        // Not found is an answer, not an accident: asking again costs quota for the same.
        try await seasons.value(for: SeasonKey(imdbID: imdbID, number: number)) { [sender] in
            try await sender.api(.season(imdbID: imdbID, number: number)) { response, shown in
                try OMDbDecoding.season(response, imdbID: imdbID, number: number, url: shown, key: sender.key)
            }
        }
    }
}
