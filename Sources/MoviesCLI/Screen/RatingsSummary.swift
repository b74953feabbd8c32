import Foundation
import OMDbKit

/// A record's ratings in a few columns for a row's title line: IMDb's out of 10, Rotten Tomatoes' percentage,
/// Metacritic's out of 100.
struct RatingsSummary: Equatable {
    /// `8.6` (from `imdbRating`, else the `Internet Movie Database` rating).
    var imdb: String?
    /// `93%`.
    var rottenTomatoes: String?
    /// `90` (from the `Metacritic` rating, else `Metascore`).
    var metacritic: String?

    /// `IMDb 8.6 · RT 93% · MC 90` with the first `count` parts; empty when there are none.
    func text(parts count: Int) -> String { parts.prefix(count).joined(separator: " · ") }

    /// The parts a title line shows, most telling first (`IMDb 8.6`, `RT 93%`, `MC 90`).
    var parts: [String] {
        [imdb.map { "IMDb \(safe($0))" }, rottenTomatoes.map { "RT \(safe($0))" }, metacritic.map { "MC \(safe($0))" }].compactMap { $0 }
    }
}

// An extension, so that the memberwise initialiser stays.
extension RatingsSummary {
    init(_ movie: Movie) {
        func percent(_ source: String) -> Double? {
            movie.ratings.first { $0.source.caseInsensitiveCompare(source) == .orderedSame }?.percent
        }
        imdb = (movie.imdbRating ?? percent("Internet Movie Database").map { $0 / 10 }).map { String($0) }
        rottenTomatoes = percent("Rotten Tomatoes").map { Self.whole($0) + "%" }
        metacritic = (percent("Metacritic") ?? movie.metascore.map(Double.init)).map(Self.whole)
    }

    /// A score out of 100 as people write it: `93.0` → `93`, `92.5` → `92.5`.
    static func whole(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
