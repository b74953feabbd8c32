import Foundation

/// An OMDb API key that never shows itself.
///
/// Its `description`, `debugDescription`, mirror (so `dump` and string interpolation) and
/// encoding all say `***`; the key's text is read only where a request is handed to the
/// transport. Every redaction of the key goes through it: ``redact(_:)-(String)`` masks it in
/// any text, with every `apikey=` value and the credentials a URL may carry, whoever's they are.
///
/// ```swift
/// let key = APIKey(ProcessInfo.processInfo.environment["OMDB_API_KEY"] ?? "")
/// print("using \(key)")   // using ***
/// ```
public struct APIKey: Sendable, Equatable, Codable, ExpressibleByStringLiteral {
    /// The key as OMDb reads it.
    package let value: String

    /// The key `value`, trimmed of white space.
    public init(_ value: String) { self.value = value.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// A key written in the source (tests, examples).
    public init(stringLiteral value: String) { self.init(value) }

    /// Reads the key from a string (a configuration file).
    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }

    /// Writes `***`: the key never leaves in encoded output.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("***")
    }

    /// True for an empty key.
    public var isEmpty: Bool { value.isEmpty }

    /// `text` with every `apikey=` value and every URL's user and password masked, and this key
    /// masked wherever else it appears (as it is, and percent-encoded as a URL would carry it).
    /// A short key may also mask ordinary letters of a message, which is the lesser harm.
    public func redact(_ text: String) -> String {
        let masked = Self.maskAPIKeyParameters(Self.maskURLCredentials(text))
        guard !value.isEmpty else { return masked }
        // The `apikey=***` just written stays readable even when a short key is a piece of it.
        let marker = "apikey=***"
        var output = ""
        var rest = Substring(masked)
        while let range = rest.range(of: marker, options: .caseInsensitive) {
            output += maskKey(in: rest[..<range.lowerBound]) + rest[range]
            rest = rest[range.upperBound...]
        }
        return output + maskKey(in: rest)
    }

    /// The URL as text, redacted as ``redact(_:)-(String)``.
    public func redact(_ url: URL) -> String { redact(url.absoluteString) }

    private func maskKey(in text: Substring) -> String {
        var result = String(text)
        for form in Self.forms(of: value) {
            result = result.replacingOccurrences(of: form, with: "***")
        }
        return result
    }

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

extension APIKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `***`.
    public var description: String { "***" }
    /// `***`.
    public var debugDescription: String { "***" }
    /// No children, so `dump` shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
