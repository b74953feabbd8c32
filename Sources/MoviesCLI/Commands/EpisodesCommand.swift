import Foundation
import OMDbKit
import OMDbCatalogue

/// `episodes N [SEASON]` and `movies episodes`: one season of a series, as new numbered rows.
extension Session {
    /// Lists season `season` (default 1) of result `number`, a series, as new numbered rows.
    func episodes(_ number: Int, season: Int?) async -> ExitStatus {
        guard let row = searchController.row(number) else { return .success }
        if row.item.type != .series {
            let type = safe(row.item.type.description)
            let article = type.first.map { "aeiou".contains($0.lowercased()) ? "an " : "a " } ?? ""
            console.err("Result \(number) is \(article)\(type), not a series: episodes takes the number of a series.")
            return .success
        }
        return await listSeason(of: row.item.imdbID, season: season ?? 1, title: row.item.title)
    }

    /// Shows a season's episodes, numbered after every place of the search so no later page takes their numbers.
    /// - Returns: `.failure` when that failed (already reported).
    func listSeason(of seriesID: String, season: Int, title: String? = nil) async -> ExitStatus {
        do {
            let list = try await presenter.waiting("Asking \(source) for season \(season) of \(safe(title ?? seriesID))…") {
                try await client.season(imdbID: seriesID, number: season)
            }
            // After every row and every place of the search, loaded or not.
            let first = max(searchController.rows.last?.number ?? 0, searchController.lastPage?.totalResults ?? 0) + 1
            for (offset, episode) in list.episodes.enumerated() {
                searchController.rows.append(LivePage.Row(item: episode.searchItem, number: first + offset, isEpisode: true))
                context.exportLog.note(episode.searchItem, episode: episode)
            }
            console.out(EpisodeList.lines(list, first: first, style: console.style))
            return .success
        } catch {
            return report(error)
        }
    }
}
