import Foundation
import OMDbKit

/// What `show N` prints: everything OMDb knows of a title.
enum Details {
    @MainActor
    static func lines(for movie: Movie, poster: SavedPoster?, console: Console, display: (URL) -> String, number: Int? = nil) -> [String] {
        let style = console.style
        var lines: [String] = []
        let year = movie.year.map { " (\(safe($0.text)))" } ?? ""
        lines.append(style.bold(safe(movie.title) + year) + "  " + style.dim("\(safe(movie.type.description))  \(safe(movie.imdbID))"))
        let genres = movie.genres.isEmpty ? nil : movie.genres.joined(separator: ", ")
        let summary = [movie.rated, movie.runtimeMinutes.map { "\($0) min" }, genres].compactMap { $0 }.map(safe)
        if !summary.isEmpty { lines.append(summary.joined(separator: " · ")) }
        let indent = "  "
        /// `label: value`, the value wrapped between words beside the label (between `phrases`,
        /// kept whole, when it is a list of them).
        func field(_ label: String, _ value: String?, phrases: [String]? = nil) {
            guard let value else { return }
            let width = console.width - indent.count - label.count - 2
            let wrapped = phrases.map { wrap(phrases: $0, width: width, indent: "") } ?? wrap(safe(value), width: width, indent: "")
            for (index, line) in wrapped.enumerated() {
                lines.append(index == 0 ? indent + style.cyan(label + ":") + " " + line : indent + String(repeating: " ", count: label.count + 2) + line)
            }
        }
        func listField(_ label: String, _ list: [String]) {
            field(label, list.isEmpty ? nil : list.joined(separator: ", "))
        }
        listField("Director", movie.directors)
        listField("Writer", movie.writers)
        listField("Actors", movie.actors)
        field("Released", movie.released?.description)
        if let seasons = movie.totalSeasons {
            field("Seasons", "\(seasons)" + (number.map { " (episodes \($0) SEASON lists a season's episodes)" } ?? ""))
        }
        listField("Language", movie.languages)
        listField("Country", movie.countries)
        field("Awards", movie.awards)
        var ratings = movie.ratings.map { "\(safe($0.source)) \(safe($0.text))" }
        if ratings.isEmpty, let imdb = movie.imdbRating { ratings.append("IMDb \(imdb)/10") }
        if let votes = movie.imdbVotes { ratings.append("\(QuotaUsage.grouped(votes)) votes") }
        // The Metascore is Metacritic's rating: said once, as the list has it when it does.
        let hasMetacritic = movie.ratings.contains { $0.source.caseInsensitiveCompare("Metacritic") == .orderedSame }
        if let metascore = movie.metascore, !hasMetacritic { ratings.append("Metascore \(metascore)") }
        field("Ratings", ratings.isEmpty ? nil : ratings.joined(separator: " · "), phrases: ratings)
        field("Box office", movie.boxOffice?.description)
        lines.append(indent + style.cyan("Plot:"))
        lines += wrap(safe(movie.plot ?? "OMDb has no plot for this title."), width: console.width, indent: indent + "  ")
        if let poster { field("Poster", display(poster.file)) }
        field("IMDb", "https://www.imdb.com/title/\(movie.imdbID)/")
        return lines
    }
}
