import Foundation
import OMDbTestSupport
import Testing
@testable import OMDbKit

/// Typed records: every field of every recorded sample decodes to its value, and a field sent as
/// `N/A`, empty or malformed is `nil` (an empty list) with what OMDb sent kept in `raw`.
@Suite struct RecordTests {
    /// A sample's text fields as JSONSerialization reads them (not the decoder under test).
    static func fields(_ file: String) -> [String: String] {
        let data = (try? Data(contentsOf: fixtures.appendingPathComponent("omdb-samples/\(file)"))) ?? Data()
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return object.compactMapValues { $0 as? String }.filter { $0.key != "Response" }
    }

    static let toxic = Movie(
        imdbID: "tt0090190", title: "The Toxic Avenger", year: ReleaseYear("1984"), type: .movie, rated: "R",
        released: CalendarDate(year: 1986, month: 4, day: 11), runtimeMinutes: 82, genres: ["Action", "Comedy", "Horror"],
        directors: ["Michael Herz", "Lloyd Kaufman"],
        writers: ["Lloyd Kaufman (story)", "Joe Ritter (screenplay)", "Lloyd Kaufman (additional material)",
                  "Gay Partington Terry (additional material)", "Stuart Strutin (additional material)"],
        actors: ["Andree Maranda", "Mitch Cohen", "Jennifer Babtist", "Cindy Manion"], plot: fields("id-tt0090190-short.json")["Plot"],
        languages: ["English"], countries: ["USA"], awards: "1 nomination.",
        posterURL: URL(string: "http://ia.media-imdb.com/images/M/MV5BNzViNmQ5MTYtMmI4Yy00N2Y2LTg4NWUtYWU3MThkMTVjNjk3XkEyXkFqcGdeQXVyMTQxNzMzNDI@._V1_SX300.jpg"),
        ratings: [], metascore: nil, imdbRating: 6.2, imdbVotes: 19_306, totalSeasons: nil, boxOffice: nil, dvd: nil, production: nil,
        website: nil, raw: fields("id-tt0090190-short.json"))

    static let lost = Movie(
        imdbID: "tt0411008", title: "Lost", year: ReleaseYear("2004–2010"), type: .series, rated: "TV-14",
        released: CalendarDate(year: 2004, month: 9, day: 22), runtimeMinutes: 44, genres: ["Adventure", "Drama", "Fantasy"],
        directors: [], writers: ["J.J. Abrams", "Jeffrey Lieber", "Damon Lindelof"], actors: [], plot: nil, languages: [], countries: [],
        awards: nil, posterURL: nil,
        ratings: [Rating(source: "Internet Movie Database", text: "8.4/10", percent: 84), Rating(source: "Rotten Tomatoes", text: "80%", percent: 80)],
        metascore: nil, imdbRating: 8.4, imdbVotes: 415_681, totalSeasons: 6, boxOffice: nil, dvd: nil, production: nil, website: nil,
        raw: fields("id-tt0411008-series-partial.json"))

    static let bond = Movie(
        imdbID: "tt4896340", title: "James Bond", year: ReleaseYear("2015"), type: .movie, rated: nil,
        released: CalendarDate(year: 2015, month: 7, day: 24), runtimeMinutes: 142, genres: ["Action", "Comedy"],
        directors: ["Sai Kishore Macha"], writers: ["Gopimohan (thanks)", "Sai Kishore Macha"],
        actors: ["Allari Naresh", "Sakshi Choudhary", "Banerji", "Krishna Bhagavan"], plot: fields("id-tt4896340-poster-na.json")["Plot"],
        languages: ["Telugu"], countries: ["India"], awards: nil, posterURL: nil, ratings: [], metascore: nil, imdbRating: 5.5,
        imdbVotes: 107, totalSeasons: nil, boxOffice: nil, dvd: nil, production: nil, website: nil, raw: fields("id-tt4896340-poster-na.json"))

    @Test(arguments: [("id-tt0090190-short.json", toxic), ("id-tt0411008-series-partial.json", lost), ("id-tt4896340-poster-na.json", bond)])
    func everySampleDecodesToItsWholeRecord(file: String, expected: Movie) throws {
        let body = try Data(contentsOf: fixtures.appendingPathComponent("omdb-samples/\(file)"))
        let movie = try OMDbDecoding.decode(Movie.self, HTTPResponse(statusCode: 200, body: body), query: expected.imdbID, url: "u")
        #expect(movie == expected)
        // A library user decoding OMDb's JSON alone gets the same record.
        #expect(try JSONDecoder().decode(Movie.self, from: body) == expected)
    }

    @Test func theSearchSampleDecodesEveryRow() throws {
        let body = try Data(contentsOf: fixtures.appendingPathComponent("omdb-samples/search-toxic-page1.json"))
        let rows = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["Search"] as? [[String: String]] ?? []
        let expected = rows.map { row in
            SearchItem(imdbID: row["imdbID"] ?? "", title: row["Title"] ?? "", year: row["Year"].map(ReleaseYear.init),
                       type: MediaType(omdb: row["Type"] ?? ""), posterURL: row["Poster"].flatMap { URL(string: $0) })
        }
        let page = try OMDbDecoding.searchPage(HTTPResponse(statusCode: 200, body: body), query: SearchQuery(text: "toxic"), url: "u")
        #expect(page.total == 98 && page.items == expected && expected.count == 10)
    }

    // MARK: N/A, absent and malformed fields

    /// A record with its ID, its title and `extra`, decoded; `extra` is sent as JSON text.
    static func record(_ extra: [String: Any] = [:]) throws -> Movie {
        let fields = extra.merging(["imdbID": "tt0000001", "Title": "T", "Response": "True"]) { $1 }
        let body = try JSONSerialization.data(withJSONObject: fields)
        return try OMDbDecoding.decode(Movie.self, HTTPResponse(statusCode: 200, body: body), query: "tt0000001", url: "u")
    }

    /// That record with nothing but its ID and title known, and `raw` holding what was sent.
    static func bare(_ raw: [String: String] = [:]) -> Movie {
        Movie(imdbID: "tt0000001", title: "T", year: nil, type: .movie, rated: nil, released: nil, runtimeMinutes: nil, genres: [],
              directors: [], writers: [], actors: [], plot: nil, languages: [], countries: [], awards: nil, posterURL: nil, ratings: [],
              metascore: nil, imdbRating: nil, imdbVotes: nil, totalSeasons: nil, boxOffice: nil, dvd: nil, production: nil,
              website: nil, raw: raw.merging(["imdbID": "tt0000001", "Title": "T"]) { $1 })
    }

    static let valueFields = ["Released", "DVD", "Runtime", "Metascore", "imdbRating", "imdbVotes", "totalSeasons", "BoxOffice", "Poster", "Website"]
    static let textFields = ["Year", "Type", "Rated", "Plot", "Awards", "Production", "Genre", "Director", "Writer", "Actors", "Language", "Country"]

    @Test func absentFieldsAreNil() throws {
        #expect(try Self.record() == Self.bare())
    }

    @Test(arguments: valueFields + textFields, ["N/A", "", "  ", "n/a", " N/A "])
    func notApplicableIsNilWithItsTextKept(field: String, value: String) throws {
        #expect(try Self.record([field: value]) == Self.bare([field: value]))
    }

    @Test(arguments: valueFields, ["garbage", "-1", "1e309", "NaN", "١٢١", "１２", "12,34", "0x10", "+5"])
    func garbageIsNilWithItsTextKept(field: String, value: String) throws {
        #expect(try Self.record([field: value]) == Self.bare([field: value]))
    }

    /// Values that look right and are not.
    @Test(arguments: [
        ("Released", "31 Apr 2000"), ("Released", "29 Feb 2023"), ("Released", "2000-13-01"), ("Released", "11 Apx 1986"),
        ("Released", "1986"), ("DVD", "Apr 1986"), ("Runtime", "1h 99min"), ("Runtime", "١٢١ min"), ("Runtime", "82 minutes long"),
        ("imdbRating", "10.1"), ("imdbRating", "８.４"), ("imdbRating", "8.4/10"), ("Metascore", "101"), ("Metascore", "64.5"),
        ("imdbVotes", "1,2,3"), ("imdbVotes", "1.5"), ("totalSeasons", "6 seasons"), ("BoxOffice", "$"), ("BoxOffice", "about $5"),
        ("BoxOffice", "$-5"), ("BoxOffice", "1,000"), ("BoxOffice", "$1,00"), ("Website", "javascript:alert(1)"), ("Poster", "/a.jpg"),
        ("Genre", ", ,"), ("Director", "N/A, "), ("Country", " , N/A"),
    ])
    func nearMissesAreNilWithTheirTextKept(field: String, value: String) throws {
        #expect(try Self.record([field: value]) == Self.bare([field: value]))
    }

    @Test func aNumberSentAsAJSONNumberIsReadAndKeptAsText() throws {
        let movie = try Self.record(["imdbRating": 8.2, "Metascore": 78, "totalSeasons": 3])
        #expect((movie.imdbRating, movie.metascore, movie.totalSeasons) == (8.2, 78, 3))
        #expect(movie.raw == ["imdbID": "tt0000001", "Title": "T", "imdbRating": "8.2", "Metascore": "78", "totalSeasons": "3"])
    }

    /// Each rating keeps its text, and reads out of 100 only when its text is a score.
    @Test(arguments: [
        ("8.4/10", 84), ("80%", 80), ("77/100", 77), ("4/5", 80), ("0/10", 0), ("100%", 100), (" 85% ", 85),
        ("11/10", nil), ("101%", nil), ("-5%", nil), ("NaN/100", nil), ("8.2", nil), ("8/0", nil), ("1e3/10", nil), ("Fresh", nil),
    ] as [(String, Double?)])
    func ratingsReadOutOf100BesideTheirText(text: String, percent: Double?) throws {
        let movie = try Self.record(["Ratings": [["Source": "S", "Value": text]]])
        #expect(movie.ratings == [Rating(source: "S", text: text.trimmingCharacters(in: .whitespaces), percent: percent)])
    }

    @Test func episodesAreTypedWithTheirTextKept() throws {
        let rows = #"[{"Title":"Pilot","Released":"2004-09-22","Episode":"1","imdbRating":"8.9","imdbID":"tt0636289"},"#
            + #"{"Title":"N/A","Released":"N/A","Episode":"Special","imdbRating":"N/A","imdbID":"tt0636290"},"junk","#
            + #"{"Title":"Odd","Released":"31 Apr 2005","Episode":"-2","imdbRating":"11","imdbID":"tt0636291"}]"#
        let body = #"{"Title":"Lost","Season":"1","totalSeasons":"6","Episodes":\#(rows),"Response":"True"}"#
        let season = try OMDbDecoding.season(HTTPResponse(statusCode: 200, body: Data(body.utf8)), imdbID: "tt0411008", number: 1, url: "u")
        #expect(season.episodes == [
            Episode(imdbID: "tt0636289", title: "Pilot", number: 1, released: CalendarDate(year: 2004, month: 9, day: 22), imdbRating: 8.9,
                    raw: ["Title": "Pilot", "Released": "2004-09-22", "Episode": "1", "imdbRating": "8.9", "imdbID": "tt0636289"]),
            Episode(imdbID: "tt0636290", title: "tt0636290", number: nil, released: nil, imdbRating: nil,
                    raw: ["Title": "N/A", "Released": "N/A", "Episode": "Special", "imdbRating": "N/A", "imdbID": "tt0636290"]),
            Episode(imdbID: "tt0636291", title: "Odd", number: nil, released: nil, imdbRating: nil,
                    raw: ["Title": "Odd", "Released": "31 Apr 2005", "Episode": "-2", "imdbRating": "11", "imdbID": "tt0636291"]),
        ])
    }
}
