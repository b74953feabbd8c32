import Foundation

extension OMDbDecoding {
    /// A season list (`i=ID&Season=N`). OMDb's `Series or season not found!` becomes
    /// ``OMDbError/seasonNotFound(imdbID:season:)``.
    static func season(_ response: HTTPResponse, imdbID: String, number: Int, url: String, redactor: Redactor? = nil) throws(OMDbError) -> Season {
        let payload: SeasonPayload
        do {
            payload = try decode(SeasonPayload.self, response, query: imdbID, url: url, redactor: redactor)
        } catch {
            if case .server(let message, _) = error, message.lowercased().hasPrefix("series or season not found") {
                throw .seasonNotFound(imdbID: imdbID, season: number)
            }
            if case .notFound = error { throw .seasonNotFound(imdbID: imdbID, season: number) }
            throw error
        }
        let episodes = (payload.Episodes ?? []).compactMap { row -> Episode? in
            guard let id = present(row.imdbID) else { return nil }
            return Episode(imdbID: id, title: present(row.Title) ?? id, episodeText: present(row.Episode) ?? "",
                           released: present(row.Released), imdbRating: present(row.imdbRating))
        }
        return Season(seriesID: imdbID, seriesTitle: present(payload.Title) ?? imdbID,
                      number: present(payload.Season).flatMap { Int($0) } ?? number,
                      totalSeasons: present(payload.totalSeasons).flatMap { Int($0) }, episodes: episodes)
    }
}

// MARK: - Wire shapes (OMDb's spelling)

private struct SeasonPayload: Decodable {
    let Title: String?
    let Season: String?
    let totalSeasons: String?
    let Episodes: [EpisodeRow]?
}

private struct EpisodeRow: Decodable {
    let Title, Released, Episode, imdbRating, imdbID: String?
}
