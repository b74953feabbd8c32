import Foundation

/// Safe poster file names, `Title (Year) [imdbID].ext`, whatever the network sent: no `/` or `\`,
/// no control characters, no leading dot, at most 200 bytes of UTF-8.
package enum PosterName {
    /// The longest name written, in UTF-8 bytes (ext4 allows 255; this leaves room for other tools).
    package static let maxBytes = 200
    /// The longest imdbID kept as it is (real ones are 9 or 10 bytes).
    static let maxIDBytes = 48
    /// The longest year kept (`"1991–1993"` is 11 bytes); a longer one is cut.
    static let maxYearBytes = 24

    /// The file name for a poster of `title` released in `year`, with the extension of `format`.
    package static func fileName(title: String, year: String?, imdbID: String, format: ImageFormat) -> String {
        let yearText = year.map { truncated(clean($0), toBytes: maxYearBytes) } ?? ""
        let yearPart = yearText.isEmpty ? "" : " (\(yearText))"
        let suffix = "\(yearPart) \(marker(for: imdbID))\(format.fileExtension)"
        var name = truncated(clean(title), toBytes: max(0, maxBytes - suffix.utf8.count))
        if name.isEmpty { name = "Untitled" }
        return name + suffix
    }

    /// The part of every poster name that marks `imdbID`: `[tt0090190].`
    package static func marker(for imdbID: String) -> String {
        "[\(idPart(imdbID))]."
    }

    /// The imdbID as names carry it; an empty or very long one becomes a prefix and a hash of the whole.
    static func idPart(_ imdbID: String) -> String {
        let id = clean(imdbID).replacingOccurrences(of: " ", with: "")
        if !id.isEmpty, id.utf8.count <= maxIDBytes { return id }
        let hash = String(PosterNameTable.fnv1a(imdbID.utf8), radix: 16)
        let head = truncated(id, toBytes: maxIDBytes - 17, byScalars: true)
        return (head.isEmpty ? "id" : head) + "~" + hash
    }

    /// Without control characters, separators (`-` instead) or leading dots, dashes and spaces.
    static func clean(_ text: String) -> String {
        var result = Substring(PrintableText.clean(text.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: "\\", with: "-")))
        while let first = result.first, first == "." || first == "-" || first == " " { result.removeFirst() }
        return String(result)
    }

    /// The longest start of `text` within `limit` UTF-8 bytes, trimmed, cut between characters (or scalars).
    static func truncated(_ text: String, toBytes limit: Int, byScalars: Bool = false) -> String {
        guard text.utf8.count > limit else { return text }
        var used = 0
        func fits(_ bytes: Int) -> Bool {
            used += bytes
            return used <= limit
        }
        let kept = byScalars ? String(String.UnicodeScalarView(text.unicodeScalars.prefix { fits($0.utf8.count) }))
            : String(text.prefix { fits($0.utf8.count) })
        return kept.trimmingCharacters(in: .whitespaces)
    }
}
