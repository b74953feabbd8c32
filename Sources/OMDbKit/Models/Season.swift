import Foundation

/// One season of a series, as OMDb's `i=ID&Season=N` lists it.
///
/// OMDb answers at most 100 episodes, skips some, and can list an "Episode 0" (a pilot or a
/// special): ``episodes`` holds exactly what it answered, sorted into episode order, with
/// nothing invented for the gaps.
public struct Season: Sendable, Hashable {
    /// The series' imdbID, as asked for.
    public let seriesID: String
    /// The series' title (OMDb's `Title`).
    public let seriesTitle: String
    /// The season's number.
    public let number: Int
    /// How many seasons the series has, when OMDb says (`totalSeasons`).
    public let totalSeasons: Int?
    /// The episodes OMDb listed, in episode order.
    public let episodes: [Episode]
}

/// One row of a season list: what OMDb gives per episode, typed as ``Movie``'s fields are. The
/// full record is a by-ID lookup of ``imdbID``.
public struct Episode: Sendable, Hashable {
    /// The episode's IMDb ID.
    public let imdbID: String
    /// The episode's title.
    public let title: String
    /// OMDb's `Episode`, from 0 (a pilot or a special); `nil` when it sent something else,
    /// kept in ``raw``.
    public let number: Int?
    /// The day it was first shown (OMDb's `Released`, `2008-01-20`).
    public let released: CalendarDate?
    /// IMDb's rating, from 0 to 10 (`8.7`).
    public let imdbRating: Double?
    /// The row's fields exactly as OMDb sent them, under OMDb's names (`Episode`, `Released`,
    /// `imdbRating`), `N/A` included: where a typed value is `nil`, here is why.
    public let raw: [String: String]

    /// By episode number (Episode 0 first); rows without a number keep their place after them.
    /// Stable, so two rows with the same number stay as OMDb listed them.
    static func inOrder(_ episodes: [Episode]) -> [Episode] {
        // No episode number reaches Int.max (WireValue.count reads 18 digits at most).
        episodes.enumerated().sorted { ($0.element.number ?? .max, $0.offset) < ($1.element.number ?? .max, $1.offset) }
            .map(\.element)
    }

    /// This episode as a row that `show` and the poster path accept (episodes have no poster in season lists).
    package var searchItem: SearchItem {
        SearchItem(imdbID: imdbID, title: title, year: released.map { ReleaseYear(String($0.year)) }, type: .episode, posterURL: nil)
    }
}
