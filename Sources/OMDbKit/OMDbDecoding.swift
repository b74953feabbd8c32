import Foundation

/// Turns OMDb's bodies into models or errors. Pure: no state, no I/O.
///
/// The envelope comes first, whatever the HTTP status: OMDb sends `{"Response":"False","Error":…}`
/// with 200 for lookups that found nothing and 401 for key problems.
enum OMDbDecoding {
    static func searchPage(_ response: HTTPResponse, query: SearchQuery, url: String, redactor: Redactor? = nil) throws(OMDbError) -> (items: [SearchItem], total: Int) {
        let payload = try decode(SearchPayload.self, response, query: query.text, url: url, redactor: redactor)
        guard let total = Int(payload.totalResults ?? "") else {
            throw .invalidResponse(url: url, reason: "totalResults is missing or not a number")
        }
        return (payload.Search?.compactMap(\.item) ?? [], total)
    }

    static func movie(_ response: HTTPResponse, imdbID: String, url: String, redactor: Redactor? = nil) throws(OMDbError) -> Movie {
        let payload = try decode(MoviePayload.self, response, query: imdbID, url: url, redactor: redactor)
        guard let movie = payload.movie else {
            throw .invalidResponse(url: url, reason: "the record has no imdbID or Title")
        }
        return movie
    }

    /// Decode the payload, else OMDb's error envelope, else say what was wrong.
    /// - Parameter redactor: masks the key in error text the server wrote (it may echo the request).
    static func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse, query: String, url: String,
                                     redactor: Redactor? = nil) throws(OMDbError) -> T {
        let decoder = JSONDecoder()
        if let envelope = try? decoder.decode(Envelope.self, from: response.body),
           envelope.Response?.lowercased() == "false" {
            let message = envelope.Error ?? ""
            throw error(forMessage: redactor?.redact(message) ?? Redactor.maskAPIKeyParameters(message), status: response.statusCode, query: query)
        }
        guard (200..<300).contains(response.statusCode) else {
            throw .httpStatus(response.statusCode, url: url)
        }
        do {
            return try decoder.decode(T.self, from: response.body)
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
        default: .server(message: message, status: status)
        }
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

// MARK: - Wire shapes (OMDb's spelling)

private struct Envelope: Decodable {
    let Response: String?
    let Error: String?
}

private struct SearchPayload: Decodable {
    let Search: [SearchRow]?
    let totalResults: String?
}

private struct SearchRow: Decodable {
    let Title: String?
    let Year: String?
    let imdbID: String?
    let `Type`: String?
    let Poster: String?

    var item: SearchItem? {
        guard let id = present(imdbID) else { return nil }
        return SearchItem(imdbID: id, title: present(Title) ?? id, year: present(Year).map(ReleaseYear.init),
                          type: MediaType(omdb: present(Type) ?? "movie"), posterURL: posterURL(Poster))
    }
}

private struct RatingRow: Decodable {
    let Source: String?
    let Value: String?
}

private struct MoviePayload: Decodable {
    let Title, Year, Rated, Released, Runtime, Genre, Director, Writer, Actors, Plot: String?
    let Language, Country, Awards, Poster, Metascore, imdbRating, imdbVotes, imdbID, `Type`: String?
    let totalSeasons, BoxOffice: String?
    let Ratings: [RatingRow]?

    var movie: Movie? {
        guard let id = present(imdbID), let title = present(Title) else { return nil }
        return Movie(
            imdbID: id, title: title, year: present(Year).map(ReleaseYear.init), type: MediaType(omdb: present(Type) ?? "movie"),
            rated: present(Rated), released: present(Released), runtime: present(Runtime), genre: present(Genre),
            director: present(Director), writer: present(Writer), actors: present(Actors), plot: present(Plot),
            language: present(Language), country: present(Country), awards: present(Awards), posterURL: posterURL(Poster),
            ratings: (Ratings ?? []).compactMap { row in
                guard let source = present(row.Source), let value = present(row.Value) else { return nil }
                return Rating(source: source, value: value)
            },
            metascore: present(Metascore), imdbRating: present(imdbRating), imdbVotes: present(imdbVotes),
            totalSeasons: present(totalSeasons), boxOffice: present(BoxOffice))
    }
}

/// OMDb's `N/A`, an empty string and a missing field all mean "absent".
func present(_ value: String?) -> String? {
    guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty,
          trimmed.uppercased() != "N/A" else { return nil }
    return trimmed
}

private func posterURL(_ value: String?) -> URL? {
    guard let text = present(value), let url = URL(string: text), url.scheme != nil, url.host != nil
    else { return nil }
    return url
}
