import Files
import Foundation
import OMDbKit

/// The seasons the offline catalogue knows, from `episodes.json` (`{"tt…": {"totalSeasons": "5",
/// "seasons": {"1": [{"Episode", "Title", "Released", "imdbRating", "imdbID", "Plot", "Runtime"}…]}}}`),
/// answered as OMDb does: a season's episodes in the file's order, and each episode a record of its own.
struct CatalogueSeasons: Sendable {
    private struct Series: Decodable {
        let totalSeasons: String?
        let seasons: [String: [[String: String]]]
    }

    private let series: [String: Series]
    /// Episode imdbID → (series ID, season number, the episode's fields).
    private let episodes: [String: (seriesID: String, season: String, fields: [String: String])]

    /// Reads `episodes.json` in `folder` as ``FileTrust`` allows; no file means no seasons.
    /// - Throws: when the file is not the shape above, or one the rule refuses.
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
