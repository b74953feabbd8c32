import Foundation

/// Removes the API key from anything on its way to text: URLs, error messages, log lines;
/// and the credentials a URL may carry (`https://user:password@host/`), whoever's they are.
///
/// The key is masked wherever it appears, whatever its length: a short key may also mask
/// ordinary letters of a message, which is the lesser harm. The redactor itself never shows
/// the key: its description, debug description and mirror (so `dump`) print `***`.
public struct Redactor: Sendable {
    private let secret: String

    /// A redactor that masks `apiKey` besides every `apikey=` value and URL credentials.
    public init(apiKey: String) { secret = apiKey }

    /// The text with every `apikey=` value and every URL's user and password masked, and the key
    /// itself masked wherever else it appears (as it is, and percent-encoded as a URL would carry it).
    public func redact(_ text: String) -> String {
        let masked = Redactor.maskAPIKeyParameters(Redactor.maskURLCredentials(text))
        guard !secret.isEmpty else { return masked }
        // The `apikey=***` just written stays readable even when a short key is a piece of it.
        let marker = "apikey=***"
        var output = ""
        var rest = Substring(masked)
        while let range = rest.range(of: marker, options: .caseInsensitive) {
            output += maskSecret(in: rest[..<range.lowerBound]) + rest[range]
            rest = rest[range.upperBound...]
        }
        return output + maskSecret(in: rest)
    }

    private func maskSecret(in text: Substring) -> String {
        var result = String(text)
        for form in Self.forms(of: secret) {
            result = result.replacingOccurrences(of: form, with: "***")
        }
        return result
    }

    /// The URL as text, key masked.
    public func redact(_ url: URL) -> String { redact(url.absoluteString) }

    /// The key as text may carry it: as it is, percent-encoded (strictly, and as a query
    /// would), and with `+` for spaces; the longest first, so none leaves a piece of another.
    private static func forms(of secret: String) -> [String] {
        var forms = [secret]
        for allowed in [CharacterSet.alphanumerics, .urlQueryAllowed] {
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: allowed) { forms.append(encoded) }
        }
        forms.append(secret.replacingOccurrences(of: " ", with: "+"))
        var seen = Set<String>()
        return forms.filter { !$0.isEmpty && seen.insert($0).inserted }.sorted { $0.count > $1.count }
    }

    /// `scheme://user:password@host…` → `scheme://***@host…`: a base URL with credentials
    /// (`--base-url https://alice:pw@proxy/`) is in every URL an error shows.
    static func maskURLCredentials(_ text: String) -> String {
        var output = ""
        var rest = Substring(text)
        while let range = rest.range(of: "://") {
            output += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let end = rest.firstIndex { "/?#\"' <>\n".contains($0) } ?? rest.endIndex
            if let at = rest[..<end].lastIndex(of: "@") {
                output += "***"
                rest = rest[at...]
            }
        }
        return output + rest
    }

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

// MARK: - Descriptions that never show the key

extension Redactor: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Names no key: `Redactor(apiKey: ***)`.
    public var description: String { "Redactor(apiKey: ***)" }
    /// As ``description``: no key.
    public var debugDescription: String { description }
    /// A mirror whose only child is the masked key, so `dump` shows no secret.
    public var customMirror: Mirror { Mirror(self, children: ["apiKey": "***"], displayStyle: .struct) }
}
