import Foundation
import OMDbKit

/// A record's ratings in a few columns, for a row's title line and `save`: IMDb's out of 10,
/// Rotten Tomatoes' percentage, Metacritic's out of 100. Pure.
struct RatingsSummary: Equatable {
    /// `8.6` (from `imdbRating`, else the `Internet Movie Database` rating without its `/10`).
    var imdb: String?
    /// `93%`.
    var rottenTomatoes: String?
    /// `90` (from the `Metacritic` rating without its `/100`, else `Metascore`).
    var metacritic: String?

    init(imdb: String? = nil, rottenTomatoes: String? = nil, metacritic: String? = nil) {
        self.imdb = imdb
        self.rottenTomatoes = rottenTomatoes
        self.metacritic = metacritic
    }

    init(_ movie: Movie) {
        func rating(_ source: String) -> String? { movie.ratings.first { $0.source.caseInsensitiveCompare(source) == .orderedSame }?.value }
        func without(_ suffix: String, _ text: String?) -> String? {
            guard let text else { return nil }
            return text.hasSuffix(suffix) ? String(text.dropLast(suffix.count)) : text
        }
        // Shown only when they read as what they claim to be: 0-10, 0-100 %, 0-100.
        imdb = (movie.imdbRating ?? without("/10", rating("Internet Movie Database"))).flatMap { Self.within($0, 10) }
        rottenTomatoes = without("%", rating("Rotten Tomatoes")).flatMap { Self.within($0, 100) }.map { $0 + "%" }
        metacritic = (without("/100", rating("Metacritic")) ?? movie.metascore).flatMap { Self.within($0, 100) }
    }

    /// `text` when it is a plain decimal from 0 to `limit` (`8.6`, `93`), else nil (`1e309`, `-5`, `NaN`).
    static func within(_ text: String, _ limit: Double) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.wholeMatch(of: /[0-9]{1,3}(\.[0-9]{1,2})?/) != nil, let value = Double(trimmed), value <= limit else { return nil }
        return trimmed
    }

    /// The parts a title line shows, most telling first: `IMDb 8.6`, `RT 93%`, `MC 90`.
    /// A line short of room drops them from the end.
    var parts: [String] {
        [imdb.map { "IMDb \(safe($0))" }, rottenTomatoes.map { "RT \(safe($0))" }, metacritic.map { "MC \(safe($0))" }].compactMap { $0 }
    }

    /// `IMDb 8.6 · RT 93% · MC 90` with the first `count` parts; empty when there are none.
    func text(parts count: Int) -> String { parts.prefix(count).joined(separator: " · ") }
}
