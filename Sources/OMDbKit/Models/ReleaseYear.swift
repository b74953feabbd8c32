import Foundation

/// OMDb's `Year`: `"1984"`, a range `"1991–1993"` (en dash, sometimes a hyphen) or open `"2011–"`.
/// Kept as text, with the years read out of it where they can be.
public struct ReleaseYear: Sendable, Hashable, CustomStringConvertible {
    /// The text exactly as OMDb sent it.
    public let text: String
    /// The first year, when the text starts with one.
    public let start: Int?
    /// The last year of a closed range; `nil` for a single year or an open range.
    public let end: Int?
    /// True for a range that is still running, such as `"2011–"`.
    public let isOpenRange: Bool

    /// Reads the years out of `text`; keeps the text whatever it holds.
    public init(_ text: String) {
        self.text = text
        let parts = text.split(omittingEmptySubsequences: false) { $0 == "–" || $0 == "-" || $0 == "—" }
        start = parts.first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let last = parts.count > 1 ? parts.last?.trimmingCharacters(in: .whitespaces) : nil
        end = last.flatMap { Int($0) }
        isOpenRange = last?.isEmpty == true
    }

    /// The text as OMDb sent it.
    public var description: String { text }
}
