import Foundation

extension OMDbDecoding {
    /// A season list (`i=ID&Season=N`). OMDb's `Series or season not found!` becomes
    /// ``OMDbError/seasonNotFound(imdbID:season:)``.
    static func season(_ response: HTTPResponse, imdbID: String, number: Int, url: String, key: APIKey? = nil) throws(OMDbError) -> Season {
        let payload: SeasonPayload
        do {
            payload = try decode(SeasonPayload.self, response, query: imdbID, url: url, key: key)
        } catch {
            if case .server(let message, _) = error, message.lowercased().hasPrefix("series or season not found") {
                throw .seasonNotFound(imdbID: imdbID, season: number)
            }
            if case .notFound = error { throw .seasonNotFound(imdbID: imdbID, season: number) }
            throw error
        }
        // A row that is not an object is dropped alone, as a search page's are.
        let episodes = (payload.Episodes ?? []).compactMap { row -> Episode? in
            guard let fields = row.value?.values, let id = present(fields["imdbID"]) else { return nil }
            return Episode(imdbID: id, title: present(fields["Title"]) ?? id, number: WireValue.count(fields["Episode"]),
                           released: WireValue.date(fields["Released"]), imdbRating: WireValue.decimal(fields["imdbRating"], upTo: 10), raw: fields)
        }
        return Season(seriesID: imdbID, seriesTitle: present(payload.Title?.value) ?? imdbID,
                      number: WireValue.count(payload.Season?.value) ?? number,
                      totalSeasons: WireValue.count(payload.totalSeasons?.value), episodes: episodes)
    }
}

// MARK: - Wire shapes (OMDb's spelling)

private struct SeasonPayload: Decodable {
    let Title, Season, totalSeasons: WireText?
    let Episodes: [Lossy<WireFields>]?
}
