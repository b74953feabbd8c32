import Foundation

/// Safe poster file names: `Title (Year) [imdbID].ext`. Pure.
///
/// Titles come from the network, so the name is made safe for any folder: no `/` or `\`,
/// no NUL or control characters, no leading dot, trimmed, and at most 200 bytes of UTF-8.
public enum PosterName {
    /// The longest name written, in UTF-8 bytes (ext4 allows 255; this leaves room for other tools).
    public static let maxBytes = 200

    /// The file name for a poster of `title` released in `year`, with the extension of `format`.
    public static func fileName(title: String, year: String?, imdbID: String, format: ImageFormat) -> String {
        let id = clean(imdbID).replacingOccurrences(of: " ", with: "")
        let yearPart = year.map(clean).flatMap { $0.isEmpty ? nil : " (\($0))" } ?? ""
        let suffix = "\(yearPart) [\(id.isEmpty ? "unknown" : id)].\(format.fileExtension)"
        var name = clean(title)
        let room = maxBytes - suffix.utf8.count
        while name.utf8.count > room { name.removeLast() }
        name = name.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { name = "Untitled" }
        return name + suffix
    }

    /// The part of every poster name that marks `imdbID`: `[tt0090190].`
    public static func marker(for imdbID: String) -> String {
        "[\(clean(imdbID).replacingOccurrences(of: " ", with: ""))]."
    }

    /// Control characters and bidirectional overrides go, separators become `-`, and dots,
    /// dashes and spaces at the start go (no hidden files, no `..`).
    static func clean(_ text: String) -> String {
        var result = PrintableText.clean(text.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: "\\", with: "-"))
        while let first = result.first, first == "." || first == "-" || first == " " { result.removeFirst() }
        return result
    }
}
