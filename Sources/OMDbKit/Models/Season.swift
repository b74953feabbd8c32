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

    /// A season; the episodes are sorted into episode order.
    public init(seriesID: String, seriesTitle: String, number: Int, totalSeasons: Int?, episodes: [Episode]) {
        self.seriesID = seriesID
        self.seriesTitle = seriesTitle
        self.number = number
        self.totalSeasons = totalSeasons
        self.episodes = Episode.inOrder(episodes)
    }
}

/// One row of a season list: what OMDb gives per episode. The full record is a by-ID lookup
/// of ``imdbID``.
public struct Episode: Sendable, Hashable {
    /// The episode's IMDb ID.
    public let imdbID: String
    /// The episode's title.
    public let title: String
    /// OMDb's `Episode`, as a number; `nil` when it sent something else (kept in ``episodeText``).
    public let number: Int?
    /// OMDb's `Episode` as it came.
    public let episodeText: String
    /// OMDb's `Released` (`2008-01-20` in season lists); `nil` for `N/A`.
    public let released: String?
    /// OMDb's `imdbRating` (`8.7`); `nil` for `N/A`.
    public let imdbRating: String?

    /// An episode; ``number`` is read from `episodeText`.
    public init(imdbID: String, title: String, episodeText: String, released: String?, imdbRating: String?) {
        self.imdbID = imdbID
        self.title = title
        self.episodeText = episodeText
        number = Int(episodeText.trimmingCharacters(in: .whitespaces))
        self.released = released
        self.imdbRating = imdbRating
    }

    /// By episode number (Episode 0 first); rows without a number keep their place after them.
    /// Stable, so two rows with the same number stay as OMDb listed them.
    static func inOrder(_ episodes: [Episode]) -> [Episode] {
        episodes.enumerated().sorted { lhs, rhs in
            switch (lhs.element.number, rhs.element.number) {
            case let (left?, right?) where left != right: left < right
            case (_?, nil): true
            case (nil, _?): false
            default: lhs.offset < rhs.offset
            }
        }.map(\.element)
    }

    /// This episode as a row that `show` and the poster path accept (episodes have no poster in season lists).
    public var searchItem: SearchItem {
        SearchItem(imdbID: imdbID, title: title, year: released.flatMap { $0.count >= 4 ? ReleaseYear(String($0.prefix(4))) : nil },
                   type: .episode, posterURL: nil)
    }
}
