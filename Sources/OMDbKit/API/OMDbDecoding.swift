import Foundation

/// Turns OMDb's bodies into models or errors, the envelope first whatever the HTTP status. Pure.
enum OMDbDecoding {
    static func searchPage(_ response: HTTPResponse, query: SearchQuery, url: String, key: APIKey? = nil) throws(OMDbError) -> (items: [SearchItem], total: Int) {
        let payload = try decode(SearchPayload.self, response, query: query.text, url: url, key: key)
        let total = try totalResults(payload.totalResults?.value, url: url)
        // A row OMDb got wrong (no imdbID, not an object) is dropped alone; its page stands.
        // A page is at most OMDb's 10 rows: each row costs a record request, so a server sending
        // thousands would spend the key's daily quota on one page.
        return (Array((payload.Search?.compactMap { $0.value?.item } ?? []).prefix(SearchPage.size)), total)
    }

    /// OMDb's `totalResults` as a count from 0 to ``SearchPage/maxTotalResults``.
    /// - Throws: ``OMDbError/invalidResponse(url:reason:)`` naming what the server sent otherwise.
    static func totalResults(_ text: String?, url: String) throws(OMDbError) -> Int {
        guard let text else { throw .invalidResponse(url: url, reason: "totalResults is missing or not a number") }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = "totalResults \"\(PrintableText.clean(String(trimmed.prefix(40))))\(trimmed.count > 40 ? "…" : "")\""
        guard trimmed.utf8.count <= 40, let total = Int(trimmed) else {
            throw .invalidResponse(url: url, reason: "\(shown) is not a whole number")
        }
        guard total >= 0 else { throw .invalidResponse(url: url, reason: "\(shown) is negative") }
        guard total <= SearchPage.maxTotalResults else {
            throw .invalidResponse(url: url, reason: "\(shown) is more results than OMDb can have")
        }
        return total
    }

    /// Decode the payload, else OMDb's error envelope, else say what was wrong.
    /// - Parameter key: masked in error text the server wrote (it may echo the request).
    static func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse, query: String, url: String,
                                     key: APIKey? = nil) throws(OMDbError) -> T {
        let payload: Result<T, any Error>
        do {
            payload = .success(try OMDbAnswer.decode(T.self, from: response.body))
        } catch let envelope as OMDbEnvelope {
            // Kept as the server wrote it, but never a screenful: it ends up in one line of text.
            let full = envelope.message
            let message = full.count > 200 ? String(full.prefix(200)) + "…" : full
            // Known texts are mapped as sent (a short key masked first could mangle them); only
            // unknown ones, shown as they came, are masked: the server may echo the request.
            let mapped = error(forMessage: message, status: response.statusCode, query: query)
            guard case .server(let text, let status) = mapped else { throw mapped }
            throw .server(message: key?.redact(text) ?? APIKey.maskAPIKeyParameters(text), status: status)
        } catch {
            payload = .failure(error)
        }
        guard (200..<300).contains(response.statusCode) else {
            throw .httpStatus(response.statusCode, url: url)
        }
        do {
            return try payload.get()
        } catch {
            throw .invalidResponse(url: url, reason: describe(error))
        }
    }

    /// Maps every row of OMDb's error table; unknown texts are kept as they came.
    static func error(forMessage message: String, status: Int, query: String) -> OMDbError {
        switch message.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
        case "movie not found!", "series not found!", "episode not found!": .notFound(query: query)
        case "too many results.": .tooManyResults(query: query)
        case "incorrect imdb id.": .incorrectIMDbID(query)
        case "error getting data.": .dataUnavailable
        case "something went wrong.": .malformedRequest
        case "invalid api key!": .invalidAPIKey
        case "no api key provided.": .missingAPIKey
        case "request limit reached!", "daily request limit reached!": .quotaExhausted
        case "": .noReason(status: status)
        default: .server(message: message, status: status)
        }
    }

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
                      totalSeasons: WireValue.count(payload.totalSeasons?.value), episodes: Episode.inOrder(episodes))
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context): "unexpected type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.valueNotFound(_, let context): "null at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "\(error)"
        }
    }
}
