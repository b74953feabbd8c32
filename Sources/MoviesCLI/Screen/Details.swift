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
        let summary = [movie.rated, movie.runtime, movie.genre].compactMap { $0 }.map(safe)
        if !summary.isEmpty { lines.append(summary.joined(separator: " · ")) }
        let indent = "  "
        func field(_ label: String, _ value: String?) {
            guard let value else { return }
            let wrapped = wrap(safe(value), width: console.width - indent.count - label.count - 2, indent: "")
            for (index, line) in wrapped.enumerated() {
                lines.append(index == 0 ? indent + style.cyan(label + ":") + " " + line : indent + String(repeating: " ", count: label.count + 2) + line)
            }
        }
        field("Director", movie.director)
        field("Writer", movie.writer)
        field("Actors", movie.actors)
        field("Released", movie.released)
        if let seasons = movie.totalSeasons {
            field("Seasons", seasons + (number.map { " (episodes \($0) SEASON lists a season's episodes)" } ?? ""))
        }
        field("Language", movie.language)
        field("Country", movie.country)
        field("Awards", movie.awards)
        var ratings = movie.ratings.map { "\(safe($0.source)) \(safe($0.value))" }
        if ratings.isEmpty, let imdb = movie.imdbRating { ratings.append("IMDb \(safe(imdb))/10") }
        if let votes = movie.imdbVotes { ratings.append("\(safe(votes)) votes") }
        if let metascore = movie.metascore { ratings.append("Metascore \(safe(metascore))") }
        field("Ratings", ratings.isEmpty ? nil : ratings.joined(separator: " · "))
        field("Box office", movie.boxOffice)
        lines.append(indent + style.cyan("Plot:"))
        lines += wrap(safe(movie.plot ?? "OMDb has no plot for this title."), width: console.width, indent: indent + "  ")
        if let poster { field("Poster", display(poster.file)) }
        field("IMDb", "https://www.imdb.com/title/\(movie.imdbID)/")
        return lines
    }
}
