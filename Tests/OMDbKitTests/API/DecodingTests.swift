import Foundation
import OMDbTestSupport
import Testing
@testable import OMDbKit
import TestSupport

/// Every recorded OMDb response (copied from ../shared/omdb-samples into Fixtures/omdb-samples).
let sampleFiles: [String] = files(in: fixtures.appendingPathComponent("omdb-samples"))

@Suite struct DecodingTests {
    private func sample(_ name: String) throws -> HTTPResponse {
        json(try String(contentsOf: fixtures.appendingPathComponent("omdb-samples/\(name)"), encoding: .utf8))
    }

    @Test func samplesAreThere() {
        #expect(sampleFiles.count >= 8)
    }

    @Test(arguments: sampleFiles)
    func everySampleDecodesToAValueOrATypedError(file: String) throws {
        let response = try sample(file)
        if file.hasPrefix("search") {
            let page = try OMDbDecoding.searchPage(response, query: SearchQuery(text: "toxic"), url: "u")
            #expect(page.items.count == 10)
        } else if file.hasPrefix("id") {
            let movie = try OMDbDecoding.decode(Movie.self, response, query: "x", url: "u")
            #expect(movie.imdbID.hasPrefix("tt"))
        } else {
            #expect(throws: OMDbError.self) { try OMDbDecoding.decode(Movie.self, response, query: "tt1", url: "u") }
        }
    }

    @Test func searchPageKeepsYearRangesAndTypes() throws {
        let page = try OMDbDecoding.searchPage(try sample("search-toxic-page1.json"), query: SearchQuery(text: "toxic"), url: "u")
        #expect(page.total == 98)
        let crusaders = try #require(page.items.first { $0.imdbID == "tt0173344" })
        #expect(crusaders.year?.text == "1991–1993")
        #expect(crusaders.year?.start == 1991 && crusaders.year?.end == 1993)
        #expect(crusaders.type == .series)
        #expect(page.items[0].posterURL?.host == "images-na.ssl-images-amazon.com")
    }

    @Test func notApplicableFieldsBecomeNil() throws {
        let movie = try OMDbDecoding.decode(Movie.self, try sample("id-tt4896340-poster-na.json"), query: "tt4896340", url: "u")
        #expect(movie.posterURL == nil)
        #expect(movie.rated == nil)
        #expect(movie.awards == nil)
        #expect(movie.metascore == nil)
        #expect(movie.plot?.hasPrefix("Nani") == true)
        #expect(movie.ratings.isEmpty)
    }

    @Test func missingFieldsAreAbsentNotFatal() throws {
        // The series sample has no Plot, Actors, Poster, Language… at all.
        let movie = try OMDbDecoding.decode(Movie.self, try sample("id-tt0411008-series-partial.json"), query: "tt0411008", url: "u")
        #expect(movie.title == "Lost")
        #expect(movie.plot == nil)
        #expect(movie.actors.isEmpty)
        #expect(movie.directors.isEmpty)
        #expect(movie.totalSeasons == 6)
        #expect(movie.year?.start == 2004 && movie.year?.end == 2010)
        #expect(movie.ratings == [Rating(source: "Internet Movie Database", text: "8.4/10", percent: 84), Rating(source: "Rotten Tomatoes", text: "80%", percent: 80)])
    }

    @Test(arguments: [
        ("1984", 1984, nil, false), ("1991–1993", 1991, 1993, false), ("2011–", 2011, nil, true),
        ("1991-1993", 1991, 1993, false), ("N/A-ish", nil, nil, false),
    ] as [(String, Int?, Int?, Bool)])
    func yearsAreReadWithoutBeingForcedToInt(text: String, start: Int?, end: Int?, open: Bool) {
        let year = ReleaseYear(text)
        #expect(year.text == text)
        #expect(year.start == start)
        #expect(year.end == end)
        #expect(year.isOpenRange == open)
    }

    @Test func searchWithoutTotalResultsIsAnInvalidResponse() {
        #expect(throws: OMDbError.invalidResponse(url: "u", reason: "totalResults is missing or not a number")) {
            try OMDbDecoding.searchPage(json(#"{"Search":[],"Response":"True"}"#), query: SearchQuery(text: "x"), url: "u")
        }
    }

    @Test func htmlInsteadOfJSONIsAnInvalidResponse() {
        #expect(throws: OMDbError.self) {
            try OMDbDecoding.decode(Movie.self, HTTPResponse(statusCode: 200, body: Data("<html>".utf8)), query: "tt1", url: "u")
        }
    }

    @Test func serverErrorWithoutEnvelopeIsAnHTTPStatus() {
        #expect(throws: OMDbError.httpStatus(503, url: "u")) {
            try OMDbDecoding.decode(Movie.self, HTTPResponse(statusCode: 503, body: Data("Service Unavailable".utf8)), query: "tt1", url: "u")
        }
    }

    @Test func searchRowsWithoutIDAreDropped() throws {
        let body = #"{"Search":[{"Title":"A","Year":"2000","imdbID":"N/A","Type":"movie","Poster":"N/A"},{"Title":"B","imdbID":"tt0000002"}],"totalResults":"2","Response":"True"}"#
        let page = try OMDbDecoding.searchPage(json(body), query: SearchQuery(text: "x"), url: "u")
        #expect(page.items.map(\.imdbID) == ["tt0000002"])
        #expect(page.items[0].year == nil)
        #expect(page.items[0].type == .movie)
    }
}

@Suite struct ErrorTableTests {
    static let table: [(String, OMDbError)] = [
        ("Movie not found!", .notFound(query: "q")),
        ("Too many results.", .tooManyResults(query: "q")),
        ("Incorrect IMDb ID.", .incorrectIMDbID("q")),
        ("Error getting data.", .dataUnavailable),
        ("Something went wrong.", .malformedRequest),
        ("Invalid API key!", .invalidAPIKey),
        ("No API key provided.", .missingAPIKey),
        ("Request limit reached!", .quotaExhausted),
        ("Daily request limit reached!", .quotaExhausted),
    ]

    @Test(arguments: table, [200, 401])
    func everyEnvelopeMapsWhateverTheStatus(row: (String, OMDbError), status: Int) throws {
        let body = #"{"Response":"False","Error":"\#(row.0)"}"#
        #expect(throws: row.1) {
            try OMDbDecoding.decode([String: String].self, json(body, status: status), query: "q", url: "u")
        }
    }

    @Test func unknownMessagesAreKeptAsTheyCame() {
        #expect(throws: OMDbError.server(message: "The moon is down.", status: 500)) {
            try OMDbDecoding.decode([String: String].self, json(#"{"Response":"False","Error":"The moon is down."}"#, status: 500), query: "q", url: "u")
        }
    }

    @Test(arguments: table)
    func everyErrorIsDescribedForAPerson(row: (String, OMDbError)) {
        let text = row.1.description
        #expect(!text.isEmpty)
        #expect(!text.contains("OMDbError"))
        #expect(text.count < 160)
    }
}

/// One field of odd text costs its bad characters (shown as U+FFFD), never the record.
@Suite struct OddTextDecodingTests {
    private let record = #"{"Title":"TITLE","Year":"1984","imdbID":"tt0090190","Type":"movie","Plot":"PLOT","Response":"True"}"#

    @Test(arguments: [#"\ud83d"#, #"\udc00 tail"#, #"a\ud800\u0041"#, #"\ud800\ud800"#])
    func aLoneSurrogateInOneFieldKeepsTheRecord(escape: String) throws {
        let body = record.replacingOccurrences(of: "PLOT", with: "plot " + escape).replacingOccurrences(of: "TITLE", with: "Alien")
        let movie = try OMDbDecoding.decode(Movie.self, json(body), query: "tt0090190", url: "u")
        #expect(movie.title == "Alien")
        #expect(movie.plot?.contains("\u{FFFD}") == true)
    }

    @Test func aPairedSurrogateStaysTheCharacterItSpells() throws {
        let body = record.replacingOccurrences(of: "PLOT", with: #"rocket \ud83d\ude80"#).replacingOccurrences(of: "TITLE", with: "Alien")
        let movie = try OMDbDecoding.decode(Movie.self, json(body), query: "tt0090190", url: "u")
        #expect(movie.plot == "rocket 🚀")
    }

    @Test func invalidUTF8InOneFieldKeepsTheRecord() throws {
        var body = Data(record.replacingOccurrences(of: "PLOT", with: "ok").utf8)
        let title = try #require(body.range(of: Data("TITLE".utf8)))
        body.replaceSubrange(title, with: Data([0x41, 0xC3, 0x28, 0xFF, 0x42]))
        let movie = try OMDbDecoding.decode(Movie.self, HTTPResponse(statusCode: 200, body: body, contentType: "application/json"), query: "tt0090190", url: "u")
        #expect(movie.title == "A\u{FFFD}(\u{FFFD}B")
        #expect(movie.plot == "ok")
    }

    @Test func aSearchRowWithALoneSurrogateIsKept() throws {
        let body = #"{"Search":[{"Title":"Bad \udfff title","Year":"1984","imdbID":"tt0090190","Type":"movie","Poster":"N/A"}],"totalResults":"1","Response":"True"}"#
        let page = try OMDbDecoding.searchPage(json(body), query: SearchQuery(text: "bad"), url: "u")
        #expect(page.items.map(\.title) == ["Bad \u{FFFD} title"])
    }
}
