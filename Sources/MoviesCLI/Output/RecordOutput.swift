import Foundation
import OMDbKit

/// One title as every output writes it: a `search --json` line, `show --json`, an object of
/// `save FILE.json`, and the fields `save`'s CSV and Markdown read. One set of names and types
/// (README, "Output fields"): OMDb's `N/A` is null, what OMDb writes as a number in text is a
/// number, `year` stays text (`2011–`). Written by ``OutputJSON``.
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
    var rated, released: String?
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
    /// Where the title was in its search: its page, and its number in the list. Only for a title
    /// that came from a search (not `show ID`).
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
        released = movie?.released
        runtimeMinutes = movie?.runtime.flatMap(RecordJSON.minutes).flatMap { Int($0) }
        genre = movie?.genre
        director = movie?.director
        writer = movie?.writer
        actors = movie?.actors
        language = movie?.language
        country = movie?.country
        awards = movie?.awards
        posterURL = movie?.posterURL?.absoluteString
        ratings = movie.map { $0.ratings.map { RatingOutput(source: $0.source, value: $0.value) } }
        metascore = movie?.metascore.flatMap(RecordJSON.wholeNumber).flatMap { Int($0) }
        imdbRating = movie?.imdbRating.flatMap(RecordJSON.decimal).flatMap { Double($0) }
        imdbVotes = movie?.imdbVotes.flatMap(RecordJSON.wholeNumber).flatMap { Int($0) }
        totalSeasons = movie?.totalSeasons.flatMap(RecordJSON.wholeNumber).flatMap { Int($0) }
        dvd = movie?.dvd
        boxOffice = movie?.boxOffice.flatMap(RecordJSON.wholeNumber).flatMap { Int($0) }
        production = movie?.production
        website = movie?.website
        self.page = page
        self.rank = rank
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case imdbID, title, year, type, plot, poster, rated, released, runtimeMinutes, genre, director, writer, actors,
             language, country, awards, posterURL, ratings, metascore, imdbRating, imdbVotes, totalSeasons, dvd, boxOffice,
             production, website, page, rank, plotError, posterError, posterFallback
    }

    /// Every field, null when unknown; `page`, `rank` and the three error fields only when set.
    func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: CodingKeys.self)
        try out.encode(imdbID, forKey: .imdbID)
        try out.encode(title, forKey: .title)
        try out.encode(year, forKey: .year)
        try out.encode(type, forKey: .type)
        try out.encode(plot, forKey: .plot)
        try out.encode(poster, forKey: .poster)
        for (key, value) in [(CodingKeys.rated, rated), (.released, released), (.genre, genre), (.director, director),
                             (.writer, writer), (.actors, actors), (.language, language), (.country, country), (.awards, awards),
                             (.posterURL, posterURL), (.dvd, dvd), (.production, production), (.website, website)] {
            try out.encode(value, forKey: key)
        }
        for (key, value) in [(CodingKeys.runtimeMinutes, runtimeMinutes), (.metascore, metascore), (.imdbVotes, imdbVotes),
                             (.totalSeasons, totalSeasons), (.boxOffice, boxOffice)] {
            try out.encode(value, forKey: key)
        }
        try out.encode(ratings, forKey: .ratings)
        try out.encode(imdbRating, forKey: .imdbRating)
        try out.encodeIfPresent(page, forKey: .page)
        try out.encodeIfPresent(rank, forKey: .rank)
        try out.encodeIfPresent(plotError, forKey: .plotError)
        try out.encodeIfPresent(posterError, forKey: .posterError)
        try out.encodeIfPresent(posterFallback, forKey: .posterFallback)
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
        released = episode.released
        imdbRating = episode.imdbRating.flatMap(RecordJSON.decimal).flatMap { Double($0) }
    }

    func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: CodingKeys.self)
        try out.encode(seriesID, forKey: .seriesID)
        try out.encode(series, forKey: .series)
        try out.encode(season, forKey: .season)
        try out.encode(episode, forKey: .episode)
        try out.encode(imdbID, forKey: .imdbID)
        try out.encode(title, forKey: .title)
        try out.encode(released, forKey: .released)
        try out.encode(imdbRating, forKey: .imdbRating)
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case seriesID, series, season, episode, imdbID, title, released, imdbRating
    }
}
