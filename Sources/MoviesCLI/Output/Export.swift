import Foundation
import OMDbKit

/// Every movie shown in this session, in the order first shown, for `save FILE --session`: one entry
/// per imdbID, updated in place by later news (a record, a poster, `show`'s full plot).
struct ExportLog {
    struct Entry: Equatable {
        var item: SearchItem
        var movie: Movie?
        var poster: URL?
        /// For an episode listed by `episodes`: its row in the season list.
        var episode: Episode?
        /// Where it was first shown in a search: its page and its number (`rank`, as `search --json`).
        var page: Int?
        var rank: Int?

        /// The entry as every output writes it.
        var output: RecordOutput {
            var output = RecordOutput(item: item, movie: movie, poster: poster?.path, page: page, rank: rank)
            if movie == nil, let episode {
                output.released = episode.released?.description
                output.imdbRating = episode.imdbRating
            }
            return output
        }
    }

    private(set) var entries: [Entry] = []
    private var index: [String: Int] = [:]

    /// What is known of `imdbID`, when it was shown.
    func entry(for imdbID: String) -> Entry? { index[imdbID].map { entries[$0] } }

    /// Adds `item`, or updates what is known of it (`nil` keeps it; `page` and `rank` stay from the first showing).
    mutating func note(_ item: SearchItem, movie: Movie? = nil, poster: URL? = nil, episode: Episode? = nil, page: Int? = nil, rank: Int? = nil) {
        guard let position = index[item.imdbID] else {
            index[item.imdbID] = entries.count
            entries.append(Entry(item: item, movie: movie, poster: poster, episode: episode, page: page, rank: rank))
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
        guard let format = ["json": Self.json, "csv": .csv, "md": .markdown, "markdown": .markdown][file.pathExtension.lowercased()]
        else { return nil }
        self = format
    }

    /// The CSV and Markdown columns: fields of ``RecordOutput`` under its names. `ratings` reads
    /// `Internet Movie Database 8.6/10; Rotten Tomatoes 93%`.
    static let columns: [RecordOutput.CodingKeys] = [.imdbID, .title, .year, .type, .released, .runtimeMinutes, .genre, .director,
                                                     .imdbRating, .plot, .poster, .metascore, .ratings, .page, .rank]

    /// The entry's cells for ``columns``, as its JSON has them: null is an empty cell, a number its JSON text.
    static func values(_ entry: ExportLog.Entry) -> [String?] {
        let output = entry.output
        let object = JSONValue.object(of: output)
        return columns.map { column in
            switch object[column.rawValue] ?? .null {
            case .string(let text): text
            case .array: output.ratings?.map { "\($0.source) \($0.value)" }.joined(separator: "; ")
            case .int(let number): String(number)
            case .double(let number): Int(exactly: number).map(String.init) ?? String(number)
            case .null, .bool, .object: nil
            }
        }
    }

    func render(_ entries: [ExportLog.Entry]) -> Data {
        let rows = entries.map(Self.values)
        let header = Self.columns.map(\.rawValue)
        switch self {
        case .json:
            return Data((OutputJSON.text(entries.map(\.output), pretty: true) + "\n").utf8)
        case .csv:
            // RFC 4180 with CRLF line ends; every cell made safe by ExportCell.
            let lines = ([header] + rows.map { $0.map { $0 ?? "" } }).map { $0.map(ExportCell.csv).joined(separator: ",") }
            return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
        case .markdown:
            var lines = ["| " + header.joined(separator: " | ") + " |",
                         "|" + Array(repeating: " --- |", count: Self.columns.count).joined()]
            lines += rows.map { "| " + $0.map(ExportCell.markdown).joined(separator: " | ") + " |" }
            return Data((lines.joined(separator: "\n") + "\n").utf8)
        }
    }
}
