import Foundation
import OMDbKit

/// Every movie shown in this session, in the order first shown, for `save FILE --session`.
/// One entry per imdbID; later news (a record, a poster, `show`'s full plot) updates it in place.
struct ExportLog {
    /// One movie as saved.
    struct Entry: Equatable {
        var item: SearchItem
        var movie: Movie?
        var poster: URL?
        /// For an episode listed by `episodes`: its row in the season list.
        var episode: Episode?
    }

    private(set) var entries: [Entry] = []
    private var index: [String: Int] = [:]

    /// What is known of `imdbID`, when it was shown.
    func entry(for imdbID: String) -> Entry? { index[imdbID].map { entries[$0] } }

    /// Adds `item`, or updates what is known of it; `nil` arguments keep what was known.
    mutating func note(_ item: SearchItem, movie: Movie? = nil, poster: URL? = nil, episode: Episode? = nil) {
        guard let position = index[item.imdbID] else {
            index[item.imdbID] = entries.count
            entries.append(Entry(item: item, movie: movie, poster: poster, episode: episode))
            return
        }
        if let episode { entries[position].episode = episode }
        if let movie { entries[position].movie = movie }
        if let poster { entries[position].poster = poster }
    }
}

/// The file formats `save` writes, chosen by the file's extension. Pure: entries in, bytes out.
enum ExportFormat: String, CaseIterable {
    case json, csv, markdown

    /// `.json`, `.csv`, `.md` or `.markdown` (any case); `nil` for anything else.
    init?(file: URL) {
        switch file.pathExtension.lowercased() {
        case "json": self = .json
        case "csv": self = .csv
        case "md", "markdown": self = .markdown
        default: return nil
        }
    }

    /// The columns, in order: what a person wants in a list of films, plot and poster path included.
    /// The other ratings come last, so that the columns files had before keep their places.
    static let columns = ["imdbID", "title", "year", "type", "released", "runtime", "genre", "director", "imdbRating", "plot", "poster",
                          "rottenTomatoes", "metacritic"]

    static func values(_ entry: ExportLog.Entry) -> [String?] {
        let movie = entry.movie
        let ratings = movie.map(RatingsSummary.init)
        return [entry.item.imdbID, movie?.title ?? entry.item.title, (movie?.year ?? entry.item.year)?.text,
                (movie?.type ?? entry.item.type).description, movie?.released ?? entry.episode?.released, movie?.runtime, movie?.genre,
                movie?.director, ratings?.imdb ?? entry.episode?.imdbRating, movie?.plot, entry.poster?.path,
                ratings?.rottenTomatoes, ratings?.metacritic]
    }

    /// The file's bytes for `entries`.
    func render(_ entries: [ExportLog.Entry]) -> Data {
        let rows = entries.map(Self.values)
        switch self {
        case .json:
            let objects = rows.map { row in
                Dictionary(uniqueKeysWithValues: zip(Self.columns, row.map { $0.map { $0 as Any } ?? NSNull() }))
            }
            let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
            return data + Data("\n".utf8)
        case .csv:
            // RFC 4180 with CRLF line ends; every cell made safe by ExportCell.
            let lines = ([Self.columns] + rows.map { $0.map { $0 ?? "" } }).map { $0.map(ExportCell.csv).joined(separator: ",") }
            return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
        case .markdown:
            var lines = ["| " + Self.columns.joined(separator: " | ") + " |",
                         "|" + Array(repeating: " --- |", count: Self.columns.count).joined()]
            lines += rows.map { "| " + $0.map(ExportCell.markdown).joined(separator: " | ") + " |" }
            return Data((lines.joined(separator: "\n") + "\n").utf8)
        }
    }
}
