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

    /// `?t=…&type=…&y=…&plot=…&apikey=…`: OMDb's one best match for a title.
    static func exactTitle(_ query: SearchQuery, plot: PlotLength, apiKey: String, baseURL: URL) -> URL {
        var items = [URLQueryItem(name: "t", value: query.text)]
        if let type = query.type { items.append(URLQueryItem(name: "type", value: type.rawValue)) }
        if let year = query.year { items.append(URLQueryItem(name: "y", value: String(year))) }
        items.append(URLQueryItem(name: "plot", value: plot.rawValue))
        return url(baseURL, items, apiKey: apiKey)
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

/// Removes the API key from anything on its way to text: URLs, error messages, log lines.
public struct Redactor: Sendable {
    private let secret: String

    public init(apiKey: String) { secret = apiKey }

    /// The text with every `apikey=` value masked, and the key itself masked wherever else it appears.
    public func redact(_ text: String) -> String {
        var result = Redactor.maskAPIKeyParameters(text)
        // Masking a very short key everywhere would mangle ordinary words; the parameter is masked anyway.
        if secret.count >= 6 {
            result = result.replacingOccurrences(of: secret, with: "***")
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
                result = result.replacingOccurrences(of: encoded, with: "***")
            }
        }
        return result
    }

    /// The URL as text, key masked.
    public func redact(_ url: URL) -> String { redact(url.absoluteString) }

    /// Masks the value of every `apikey=` parameter, whatever the key is.
    static func maskAPIKeyParameters(_ text: String) -> String {
        var output = ""
        var rest = Substring(text)
        while let range = rest.range(of: "apikey=", options: .caseInsensitive) {
            output += rest[..<range.upperBound]
            output += "***"
            rest = rest[range.upperBound...]
            let end = rest.firstIndex { "&#\" '\n)>".contains($0) } ?? rest.endIndex
            rest = rest[end...]
        }
        return output + rest
    }
}
