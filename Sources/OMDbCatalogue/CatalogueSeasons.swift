import Files
import Foundation
import OMDbKit

/// The seasons the offline catalogue knows, read from `episodes.json` beside `catalogue.json`:
/// `{"tt…": {"totalSeasons": "5", "seasons": {"1": [{"Episode", "Title", "Released",
/// "imdbRating", "imdbID", "Plot", "Runtime"}…]}}}`.
///
/// It answers like OMDb: `i=ID&Season=N` lists a season's episodes in the order the file has
/// them (gaps and an "Episode 0" included), and an episode's imdbID is a record of its own.
struct CatalogueSeasons: Sendable {
    private struct Series: Decodable {
        let totalSeasons: String?
        let seasons: [String: [[String: String]]]
    }

    private let series: [String: Series]
    /// Episode imdbID → (series ID, season number, the episode's fields).
    private let episodes: [String: (seriesID: String, season: String, fields: [String: String])]

    /// Reads `episodes.json` in `folder` as every file that steers the tool is (``FileTrust``);
    /// no file means no seasons.
    /// - Throws: when the file is there but is not the shape above, or is one the rule refuses
    ///   (``AtomicFile/Problem``: someone else could have planted it).
    init(folder: URL) throws {
        guard let data = try AtomicFile(folder.appendingPathComponent("episodes.json")).contents(upTo: Catalogue.maximumFileBytes) else {
            series = [:]
            episodes = [:]
            return
        }
        series = try JSONDecoder().decode([String: Series].self, from: data)
        var index: [String: (seriesID: String, season: String, fields: [String: String])] = [:]
        for (id, entry) in series {
            for (season, rows) in entry.seasons {
                for row in rows { if let episodeID = row["imdbID"] { index[episodeID] = (id, season, row) } }
            }
        }
        episodes = index
    }

    /// The season numbers listed for `seriesID`, in order; empty when the file has none.
    func listedSeasons(of seriesID: String) -> [Int] {
        (series[seriesID]?.seasons.keys.compactMap { Int($0) } ?? []).sorted()
    }

    func totalSeasons(of seriesID: String) -> String? { series[seriesID]?.totalSeasons }

    /// OMDb's answer to `i=seriesID&Season=season`, in its shape; `nil` for `Series or season not found!`.
    func season(_ season: String, of seriesID: String, title: String) -> [String: Any]? {
        guard let entry = series[seriesID], let number = Int(season), let rows = entry.seasons[String(number)] else { return nil }
        let listed: [[String: String]] = rows.map { row in
            ["Title": row["Title"] ?? "N/A", "Released": row["Released"] ?? "N/A", "Episode": row["Episode"] ?? "N/A",
             "imdbRating": row["imdbRating"] ?? "N/A", "imdbID": row["imdbID"] ?? "N/A"]
        }
        return ["Title": title, "Season": String(number), "totalSeasons": entry.totalSeasons ?? "N/A", "Episodes": listed, "Response": "True"]
    }

    /// The by-ID record of an episode, in OMDb's shape (`Type` episode, `Season`, `Episode`, `seriesID`).
    func episodeRecord(_ imdbID: String) -> [String: String]? {
        guard let (seriesID, season, row) = episodes[imdbID] else { return nil }
        var record = row
        record["Type"] = "episode"
        record["Season"] = season
        record["seriesID"] = seriesID
        record["Year"] = row["Released"].map { String($0.prefix(4)) } ?? "N/A"
        record["Poster"] = "N/A"
        return record
    }
}
