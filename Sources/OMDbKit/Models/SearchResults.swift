import Foundation

/// What kind of title a result is. OMDb documents `movie`, `series` and `episode`;
/// it also answers `game`, and anything else is kept as it came.
public enum MediaType: Sendable, Hashable, CustomStringConvertible {
    /// The four types OMDb answers.
    case movie, series, episode, game
    /// Any other type OMDb sends, kept as it came.
    case other(String)

    /// Reads OMDb's `Type` string; never fails.
    package init(omdb raw: String) {
        let name = raw.lowercased()
        self = [MediaType.movie, .series, .episode, .game].first { $0.description == name } ?? .other(raw)
    }

    /// The string OMDb uses for this type.
    public var description: String {
        switch self {
        case .movie: "movie"
        case .series: "series"
        case .episode: "episode"
        case .game: "game"
        case .other(let raw): raw
        }
    }
}

/// The types a search can be narrowed to (OMDb's `type=` parameter).
public enum SearchType: String, Sendable, CaseIterable {
    /// The types OMDb can narrow a search to.
    case movie, series, episode
}

/// How much plot a by-ID lookup asks for (OMDb's `plot=` parameter).
/// OMDb falls back to the short plot when a title has no full one.
public enum PlotLength: String, Sendable, CaseIterable {
    /// A few sentences, or the whole plot.
    case short, full
}

/// One row of a search page: all that OMDb's search gives (it carries no plot).
public struct SearchItem: Sendable, Hashable {
    /// The title's IMDb ID (`tt0078748`): what a by-ID lookup takes.
    public let imdbID: String
    /// The title as OMDb spells it.
    public let title: String
    /// `nil` when OMDb sent no year or `N/A`.
    public let year: ReleaseYear?
    /// Movie, series, episode or game.
    public let type: MediaType
    /// Absolute poster URL; `nil` for `N/A` or a value that is not a URL.
    public let posterURL: URL?

    /// A row as a search would give it: for tests and for rows made from other answers.
    package init(imdbID: String, title: String, year: ReleaseYear?, type: MediaType, posterURL: URL?) {
        self.imdbID = imdbID
        self.title = title
        self.year = year
        self.type = type
        self.posterURL = posterURL
    }

    /// The search row a full record stands for.
    public init(_ movie: Movie) {
        self.init(imdbID: movie.imdbID, title: movie.title, year: movie.year, type: movie.type, posterURL: movie.posterURL)
    }
}

/// One page of a search, after de-duplication against the earlier pages of the same search.
public struct SearchPage: Sendable {
    /// The search this page belongs to.
    public let query: SearchQuery
    /// 1-based page number.
    public let number: Int
    /// OMDb's `totalResults` for the whole search; never fewer than the results its pages have
    /// returned so far, nor negative.
    public let totalResults: Int
    /// The page's results, duplicates removed, in OMDb's order.
    public let items: [SearchItem]
    /// How many results of this search have been returned so far, this page included.
    package let shownSoFar: Int
    /// How many of the page's results were left out because an earlier page had them:
    /// an empty page with none was empty as OMDb sent it.
    package let repeatedCount: Int

    /// A page; numbers out of range are clamped (a total never below what was shown).
    package init(query: SearchQuery, number: Int, totalResults: Int, items: [SearchItem], shownSoFar: Int, repeatedCount: Int = 0) {
        self.query = query
        self.number = max(1, number)
        // A server that undercounts must not make "page 3 of 2" or "12 of 5 shown".
        self.totalResults = max(0, totalResults, shownSoFar)
        self.items = items
        self.shownSoFar = max(0, shownSoFar)
        self.repeatedCount = max(0, repeatedCount)
    }

    /// The last page OMDb has for this search: `ceil(totalResults / 10)`, and never before this page.
    public var lastPage: Int { max(number, SearchPage.lastPage(forTotal: totalResults)) }
    /// True when OMDb has a page after this one (``Search/next()`` gives it).
    public var hasMore: Bool { number < lastPage }

    /// OMDb's page size is fixed at 10.
    public static let size = 10
    /// The largest `totalResults` believed: more is a broken answer, refused with an error naming it.
    /// (IMDb lists some ten million titles; a billion leaves room and keeps page arithmetic far from overflow.)
    package static let maxTotalResults = 1_000_000_000

    /// `ceil(total / 10)`, 0 for a negative total; cannot overflow whatever `total` is.
    static func lastPage(forTotal total: Int) -> Int {
        guard total > 0 else { return 0 }
        return total / size + (total % size == 0 ? 0 : 1)
    }
}

/// What was searched for: the text and its filters.
public struct SearchQuery: Sendable, Hashable {
    /// The words searched for, trimmed.
    public let text: String
    /// The type the search is narrowed to; `nil` for any.
    public let type: SearchType?
    /// The year the search is narrowed to; `nil` for any.
    public let year: Int?

    /// A search for `text`, narrowed by `type` and `year` when given.
    public init(text: String, type: SearchType? = nil, year: Int? = nil) {
        self.text = text
        self.type = type
        self.year = year
    }
}
