import Foundation

/// Builds OMDb request URLs. Pure: no state, no I/O.
///
/// Always through `URLComponents` and `URLQueryItem`, so `tom & jerry`, `Amélie`
/// and `千と千尋` arrive intact.
enum OMDbRequest {
    /// `?s=…&type=…&y=…&page=…&apikey=…`
    static func search(_ query: SearchQuery, page: Int, apiKey: String, baseURL: URL) -> URL {
        var items = [URLQueryItem(name: "s", value: query.text)]
        if let type = query.type { items.append(URLQueryItem(name: "type", value: type.rawValue)) }
        if let year = query.year { items.append(URLQueryItem(name: "y", value: String(year))) }
        items.append(URLQueryItem(name: "page", value: String(page)))
        return url(baseURL, items, apiKey: apiKey)
    }

    /// `?i=tt…&plot=short|full&apikey=…`
    static func title(imdbID: String, plot: PlotLength, apiKey: String, baseURL: URL) -> URL {
        url(baseURL, [URLQueryItem(name: "i", value: imdbID), URLQueryItem(name: "plot", value: plot.rawValue)], apiKey: apiKey)
    }

    private static func url(_ base: URL, _ items: [URLQueryItem], apiKey: String) -> URL {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.queryItems = (components.queryItems ?? []) + items + [URLQueryItem(name: "apikey", value: apiKey)]
        // URLComponents leaves `+` and `&`-free text alone but a literal `+` would read as a space
        // on the server; encode it so "C++" stays "C++".
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url ?? base
    }
}
