import Foundation
import OMDbKit

/// One title as every output writes it (`--json` lines, `save`'s files; docs/scripting.md lists the
/// fields): OMDb's `N/A` is null, numbers are numbers, dates ISO 8601 (`1986-04-11`), lists text
/// (`Action, Comedy`), `year` text (`2011–`).
struct RecordOutput: Codable, Equatable {
    /// One of OMDb's ratings, as it gives it (`8.6/10`, `93%`).
    struct RatingOutput: Codable, Equatable {
        var source: String
        var value: String
    }

    var imdbID: String
    var title: String
    var year: String?
    var type: String
    var plot: String?
    /// The saved poster's path; null when none was saved.
    var poster: String?
    var rated: String?
    /// The day of release, ISO 8601 (`1986-04-11`), as ``dvd``.
    var released: String?
    var runtimeMinutes: Int?
    var genre, director, writer, actors, language, country, awards: String?
    var posterURL: String?
    /// Null when there is no record (its lookup failed or never came); `[]` when it has none.
    var ratings: [RatingOutput]?
    var metascore: Int?
    var imdbRating: Double?
    var imdbVotes: Int?
    var totalSeasons: Int?
    var dvd: String?
    /// US dollars.
    var boxOffice: Int?
    var production, website: String?
    /// Where the title was in its search: its page and number (not for `show ID`).
    var page, rank: Int?
    /// Why the record or the poster could not be had, and why a wider poster gave way. Written only when set.
    var plotError, posterError, posterFallback: String?

    /// `item`, with what its record says when it came.
    init(item: SearchItem, movie: Movie?, poster: String? = nil, page: Int? = nil, rank: Int? = nil) {
        imdbID = item.imdbID
        title = item.title
        year = item.year?.text
        type = item.type.description
        plot = movie?.plot
        self.poster = poster
        rated = movie?.rated
        released = movie?.released?.description
        runtimeMinutes = movie?.runtimeMinutes
        genre = Self.text(movie?.genres)
        director = Self.text(movie?.directors)
        writer = Self.text(movie?.writers)
        actors = Self.text(movie?.actors)
        language = Self.text(movie?.languages)
        country = Self.text(movie?.countries)
        awards = movie?.awards
        posterURL = movie?.posterURL?.absoluteString
        ratings = movie.map { $0.ratings.map { RatingOutput(source: $0.source, value: $0.text) } }
        metascore = movie?.metascore
        imdbRating = movie?.imdbRating
        imdbVotes = movie?.imdbVotes
        totalSeasons = movie?.totalSeasons
        dvd = movie?.dvd?.description
        boxOffice = movie?.boxOffice.flatMap { $0.currency == "$" ? $0.amount : nil }
        production = movie?.production
        website = movie?.website?.absoluteString
        self.page = page
        self.rank = rank
    }

    /// A list as one text (`Action, Comedy`); null when empty.
    private static func text(_ list: [String]?) -> String? {
        guard let list, !list.isEmpty else { return nil }
        return list.joined(separator: ", ")
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case imdbID, title, year, type, plot, poster, rated, released, runtimeMinutes, genre, director, writer, actors,
             language, country, awards, posterURL, ratings, metascore, imdbRating, imdbVotes, totalSeasons, dvd, boxOffice,
             production, website, page, rank, plotError, posterError, posterFallback
    }

    /// Every field, null when unknown; `page`, `rank` and the three error fields only when set.
    func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: CodingKeys.self)
        let texts: [(CodingKeys, String?)] = [
            (.imdbID, imdbID), (.title, title), (.year, year), (.type, type), (.plot, plot), (.poster, poster), (.rated, rated),
            (.released, released), (.genre, genre), (.director, director), (.writer, writer), (.actors, actors), (.language, language),
            (.country, country), (.awards, awards), (.posterURL, posterURL), (.dvd, dvd), (.production, production), (.website, website),
        ]
        for (key, value) in texts { try out.encode(value, forKey: key) }
        let numbers: [(CodingKeys, Int?)] = [(.runtimeMinutes, runtimeMinutes), (.metascore, metascore), (.imdbVotes, imdbVotes),
                                             (.totalSeasons, totalSeasons), (.boxOffice, boxOffice)]
        for (key, value) in numbers { try out.encode(value, forKey: key) }
        try out.encode(ratings, forKey: .ratings)
        try out.encode(imdbRating, forKey: .imdbRating)
        for (key, value) in [(CodingKeys.page, page), (.rank, rank)] { try out.encodeIfPresent(value, forKey: key) }
        for (key, value) in [(CodingKeys.plotError, plotError), (.posterError, posterError), (.posterFallback, posterFallback)] {
            try out.encodeIfPresent(value, forKey: key)
        }
    }
}

/// One episode of a season list, as `episodes --json` writes it: the same rules as ``RecordOutput``.
struct EpisodeOutput: Codable, Equatable {
    var seriesID: String
    var series: String
    var season: Int
    /// OMDb's episode number; null when it sent something that is not one.
    var episode: Int?
    var imdbID: String
    var title: String
    var released: String?
    var imdbRating: Double?

    init(_ episode: Episode, in season: Season) {
        seriesID = season.seriesID
        series = season.seriesTitle
        self.season = season.number
        self.episode = episode.number
        imdbID = episode.imdbID
        title = episode.title
        released = episode.released?.description
        imdbRating = episode.imdbRating
    }

    /// Every field, null when unknown.
    func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: CodingKeys.self)
        let texts: [(CodingKeys, String?)] = [(.seriesID, seriesID), (.series, series), (.imdbID, imdbID), (.title, title),
                                              (.released, released)]
        for (key, value) in texts { try out.encode(value, forKey: key) }
        for (key, value) in [(CodingKeys.season, season), (.episode, episode)] { try out.encode(value, forKey: key) }
        try out.encode(imdbRating, forKey: .imdbRating)
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case seriesID, series, season, episode, imdbID, title, released, imdbRating
    }
}
