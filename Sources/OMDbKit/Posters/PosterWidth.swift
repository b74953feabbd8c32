import Foundation

/// The poster width to ask Amazon's image server for. OMDb's poster URLs end in
/// `…@._V1_SX300.jpg`: `SX300` is the width in pixels, and the server scales to any other.
public enum PosterWidth: Sendable, Hashable, CustomStringConvertible {
    /// `SX300`, `SX600`…: that many pixels wide.
    case pixels(Int)
    /// No size at all (`._V1_.jpg`): the image as it was uploaded, often 1000-2000 px wide.
    case original

    /// OMDb's own: 300 px. With it, URLs are used as OMDb gave them (older hosts aside).
    public static let standard = PosterWidth.pixels(300)
    /// The widths the options accept.
    package static let choices = ["300", "600", "1000", "original"]

    /// Reads `300`, `600`, `1000` or `original`; `nil` for anything else.
    package init?(_ text: String) {
        let text = text.lowercased().trimmingCharacters(in: .whitespaces)
        guard Self.choices.contains(text) else { return nil }
        self = Int(text).map(PosterWidth.pixels) ?? .original
    }

    /// `300`, `600`… or `original`: as the options take it.
    public var description: String {
        switch self {
        case .pixels(let width): String(width)
        case .original: "original"
        }
    }

    /// The narrowest file that satisfies this width; `original` wants more than the widest choice.
    var minimumPixels: Int {
        switch self {
        case .pixels(let width): width
        case .original: 1001
        }
    }

    /// `url` asking for this width: `_SX300` becomes `_SX<width>`, or goes for `original`; old
    /// `ia.media-imdb.com` URLs (403 now) move to `m.media-amazon.com`.
    package func rewrite(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        if components.host?.lowercased() == "ia.media-imdb.com" { components.host = "m.media-amazon.com" }
        let path = components.percentEncodedPath
        if let marker = path.range(of: "._V1_", options: .backwards), let dot = path.lastIndex(of: "."), dot >= marker.upperBound {
            let sizes = path[marker.upperBound..<dot]
            switch self {
            case .original:
                components.percentEncodedPath = String(path[..<marker.upperBound] + path[dot...])
            case .pixels(let width):
                let resized = sizes.replacing(/SX\d+/, with: "SX\(width)")
                components.percentEncodedPath = String(path[..<marker.upperBound] + resized + path[dot...])
            }
        }
        return components.url ?? url
    }
}
