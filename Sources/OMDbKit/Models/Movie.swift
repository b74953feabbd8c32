import Foundation

/// A full record from a by-ID lookup, its values typed: numbers, ``CalendarDate``, arrays, `URL`.
///
/// A field OMDb sent as `N/A`, empty, missing or malformed is `nil` (an empty array for a list), and
/// what OMDb sent stays in ``raw``. `Decodable` reads OMDb's JSON for a title (`i=` or `t=`) this way.
public struct Movie: Sendable, Hashable {
    /// The title's IMDb ID (`tt0090190`).
    public let imdbID: String
    /// The title as OMDb spells it.
    public let title: String
    /// `nil` when OMDb sent no year or `N/A`.
    public let year: ReleaseYear?
    /// Movie, series, episode or game.
    public let type: MediaType
    /// The certificate (`PG-13`, `R`, `TV-14`).
    public let rated: String?
    /// The day of release (OMDb's `Released`, `11 Apr 1986`).
    public let released: CalendarDate?
    /// The running time in minutes (OMDb's `Runtime`, `82 min`).
    public let runtimeMinutes: Int?
    /// Genres (OMDb's `Genre`, `Action, Comedy, Horror`); empty when OMDb lists none.
    public let genres: [String]
    /// Directors (OMDb's `Director`); empty when OMDb lists none.
    public let directors: [String]
    /// Writers with their credits, as OMDb lists them (`Lloyd Kaufman (story)`); empty when none.
    public let writers: [String]
    /// The leading actors; empty when OMDb lists none.
    public let actors: [String]
    /// `nil` when OMDb has no plot (`N/A`).
    public let plot: String?
    /// Languages (OMDb's `Language`); empty when OMDb lists none.
    public let languages: [String]
    /// Countries of production (OMDb's `Country`); empty when OMDb lists none.
    public let countries: [String]
    /// Awards in a sentence (`Won 1 Oscar. 19 wins & 22 nominations total`).
    public let awards: String?
    /// Absolute poster URL; `nil` for `N/A` or a value that is not a URL.
    public let posterURL: URL?
    /// Ratings by source, in OMDb's order; empty when OMDb has none.
    public let ratings: [Rating]
    /// Metacritic's score, from 0 to 100.
    public let metascore: Int?
    /// IMDb's rating, from 0 to 10 (`8.4`).
    public let imdbRating: Double?
    /// How many voted on IMDb (OMDb's `415,681`).
    public let imdbVotes: Int?
    /// How many seasons a series has.
    public let totalSeasons: Int?
    /// The US box office (OMDb's `BoxOffice`, `$81,900,459`; movies only).
    public let boxOffice: CurrencyAmount?
    /// The day of the DVD release (OMDb's `DVD`; movies only).
    public let dvd: CalendarDate?
    /// The studio (movies only).
    public let production: String?
    /// The official site (OMDb's `Website`; movies only); `nil` for a value that is not a URL.
    public let website: URL?
    /// Every field of the record exactly as OMDb sent it, under OMDb's names (`Released`,
    /// `imdbVotes`, `BoxOffice`), `N/A` included: where a typed value is `nil`, here is why.
    /// A JSON number is written out as text (`8.2` → `"8.2"`); `Ratings` is in ``ratings``,
    /// and `Response`, which says only that the answer is a record, is left out.
    public let raw: [String: String]
}
