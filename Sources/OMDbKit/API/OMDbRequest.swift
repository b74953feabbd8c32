import Foundation

/// One OMDb API request, built without the key: ``url(base:key:)`` adds it only at the edge, so
/// nothing upstream (cache keys, URLs shown, dumps) can carry it. Query items keep any text intact.
struct OMDbRequest: Sendable, Hashable {
    /// The query items, in order, without `apikey`.
    let items: [URLQueryItem]

    /// `?s=…&type=…&y=…&page=…`
    static func search(_ query: SearchQuery, page: Int) -> OMDbRequest {
        OMDbRequest(items: [URLQueryItem(name: "s", value: query.text)] + filters(query) + [URLQueryItem(name: "page", value: String(page))])
    }

    /// `?i=tt…&plot=short|full`
    static func title(imdbID: String, plot: PlotLength) -> OMDbRequest {
        OMDbRequest(items: [URLQueryItem(name: "i", value: imdbID), URLQueryItem(name: "plot", value: plot.rawValue)])
    }

    /// `?i=tt…&Season=N`: one season's episode list.
    static func season(imdbID: String, number: Int) -> OMDbRequest {
        OMDbRequest(items: [URLQueryItem(name: "i", value: imdbID), URLQueryItem(name: "Season", value: String(number))])
    }

    /// `?t=…&type=…&y=…&plot=…`: OMDb's one best match for a title.
    static func exactTitle(_ query: SearchQuery, plot: PlotLength) -> OMDbRequest {
        OMDbRequest(items: [URLQueryItem(name: "t", value: query.text)] + filters(query) + [URLQueryItem(name: "plot", value: plot.rawValue)])
    }

    /// `type=` and `y=`, when the query is narrowed by them.
    private static func filters(_ query: SearchQuery) -> [URLQueryItem] {
        [query.type.map { URLQueryItem(name: "type", value: $0.rawValue) }, query.year.map { URLQueryItem(name: "y", value: String($0)) }]
            .compactMap { $0 }
    }

    /// The URL under `base`; with `key` only at the edge where the request is sent.
    func url(base: URL, key: APIKey? = nil) -> URL {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
        var all = (components.queryItems ?? []) + items
        if let key { all.append(URLQueryItem(name: OMDbClient.keyQueryItem, value: key.value)) }
        components.queryItems = all
        // URLComponents leaves `+` alone, but a literal `+` would read as a space on the server;
        // encode it so "C++" stays "C++".
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url ?? base
    }
}

extension OMDbClient {
    /// The query item the key goes in: OMDb's rule, kept by the client.
    static let keyQueryItem = "apikey"

    /// The query items that carry a secret, handed to the transport with each request
    /// (``TransportRequest/secretQueryItems``), which needs to know nothing of OMDb.
    static let secretQueryItems: Set<String> = [keyQueryItem]
}
