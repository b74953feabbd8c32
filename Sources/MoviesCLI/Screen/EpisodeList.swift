import Foundation
import OMDbKit

/// How a season's episodes read: a heading, a numbered row per episode OMDb listed, and the numbers it skipped.
@MainActor
enum EpisodeList {
    static func lines(_ season: Season, first: Int, style: Style) -> [String] {
        var heading = "\(safe(season.seriesTitle)), season \(season.number)"
        if let total = season.totalSeasons { heading += " of \(total)" }
        heading += ": \(season.episodes.count) episode\(season.episodes.count == 1 ? "" : "s")"
        var lines = [style.bold(heading)]
        // `  12. E03  Tabula Rasa  2004-10-06  IMDb 8.3  tt0636293`
        for (offset, episode) in season.episodes.enumerated() {
            // An episode number OMDb wrote otherwise (`Special`) is shown as it wrote it.
            let written = safe(episode.raw["Episode"] ?? "").trimmingCharacters(in: .whitespaces)
            let label = episode.number.map { String(format: "E%02d", $0) }
                ?? (written.isEmpty || written.uppercased() == "N/A" ? "E?" : written)
            var text = "\(TextPresenter.numberLabel(first + offset)) \(label)  \(style.bold(safe(episode.title)))"
            text += "  " + (episode.released?.description ?? "release date unknown")
            text += "  " + (episode.imdbRating.map { "IMDb \($0)" } ?? "no rating")
            lines.append(text + "  " + style.dim(safe(episode.imdbID)))
        }
        if season.episodes.isEmpty { lines.append(style.dim("  (OMDb lists no episodes for this season)")) }
        // Numbers between the first and the last listed episode (from 1) that OMDb did not list.
        let numbers = Set(season.episodes.compactMap(\.number))
        let missing = numbers.max().map { last in (1...max(1, last)).filter { !numbers.contains($0) } } ?? []
        if !missing.isEmpty {
            lines.append(style.dim("  OMDb lists no episode \(missing.map(String.init).joined(separator: ", "))."))
        }
        if season.episodes.count >= 100 { lines.append(style.dim("  OMDb lists at most 100 episodes a season; there may be more.")) }
        return lines
    }
}
