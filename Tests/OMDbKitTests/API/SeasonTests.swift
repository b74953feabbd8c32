import FakeOMDb
import Foundation
@testable import OMDbKit
import OMDbTestSupport
import Testing

/// Season lists: decoding, order, gaps, "Episode 0", the not-found error, and the offline
/// catalogue and fake server answering `i=ID&Season=N`.
@Suite struct SeasonTests {
    private func season(_ episodes: String, title: String = "Lost") throws -> Season {
        let body = #"{"Title":"\#(title)","Season":"1","totalSeasons":"6","Episodes":[\#(episodes)],"Response":"True"}"#
        return try OMDbDecoding.season(json(body), imdbID: "tt0411008", number: 1, url: "u")
    }

    private func row(_ number: String, _ id: String, released: String = "2004-09-22", rating: String = "8.0") -> String {
        #"{"Title":"E\#(number)","Released":"\#(released)","Episode":"\#(number)","imdbRating":"\#(rating)","imdbID":"\#(id)"}"#
    }

    @Test func episodesComeInEpisodeOrderWithEpisodeZeroFirstAndGapsLeftOpen() throws {
        let list = try season([row("3", "tt0000003"), row("1", "tt0000001"), row("0", "tt0000000"), row("7", "tt0000007")].joined(separator: ","))
        #expect(list.episodes.map(\.number) == [0, 1, 3, 7])
        #expect(list.episodes.map(\.imdbID) == ["tt0000000", "tt0000001", "tt0000003", "tt0000007"])
        #expect(list.totalSeasons == 6)
        #expect(list.seriesTitle == "Lost")
    }

    @Test func notApplicableFieldsAreAbsentAndOddNumbersKeepTheirPlaceLast() throws {
        let list = try season([row("N/A", "tt0000009"), row("2", "tt0000002", released: "N/A", rating: "N/A"), row("1", "tt0000001")].joined(separator: ","))
        #expect(list.episodes.map(\.imdbID) == ["tt0000001", "tt0000002", "tt0000009"])
        #expect(list.episodes[1].released == nil)
        #expect(list.episodes[1].imdbRating == nil)
        #expect(list.episodes[2].number == nil)
    }

    @Test func seriesOrSeasonNotFoundHasItsOwnError() {
        let body = #"{"Response":"False","Error":"Series or season not found!"}"#
        #expect(throws: OMDbError.seasonNotFound(imdbID: "tt0411008", season: 9)) {
            try OMDbDecoding.season(json(body), imdbID: "tt0411008", number: 9, url: "u")
        }
        #expect(OMDbError.seasonNotFound(imdbID: "tt0411008", season: 9).description.contains("no season 9 of tt0411008"))
    }

    @Test func requestAsksForTheSeasonByID() {
        let url = OMDbRequest.season(imdbID: "tt0411008", number: 2).url(base: URL(string: "https://www.omdbapi.com/")!)
        #expect(url.query("i") == "tt0411008")
        #expect(url.query("Season") == "2")
        #expect(url.query("apikey") == nil)   // the key joins at the edge, not here
    }

    @Test(arguments: [
        // series, season, episode numbers the catalogue lists, in order
        ("tt0903747", 1, [1, 2, 3, 4, 5, 6, 7]),
        ("tt8111088", 1, [1, 2, 3, 4, 6, 7, 8]),   // a gap: no episode 5
        ("tt0098936", 1, [0, 1, 2, 3]),            // an "Episode 0"
        ("tt0411008", 1, [1, 2, 3, 4]),            // listed out of order in the fixture
    ])
    func catalogueListsSeasons(series: String, season: Int, numbers: [Int]) async throws {
        let log = RequestLog()
        let client = catalogueClient(log: log)
        let list = try await client.season(imdbID: series, number: season)
        #expect(list.episodes.map(\.number) == numbers)
        // Asked twice, sent once.
        _ = try await client.season(imdbID: series, number: season)
        #expect(log.all.count == 1)
        // Every episode is a record of its own.
        let first = try await client.movie(imdbID: list.episodes[0].imdbID)
        #expect(first.type == .episode)
        #expect(first.plot != nil)
    }

    @Test func catalogueSaysHowManySeasonsASeriesHas() async throws {
        let movie = try await catalogueClient().movie(imdbID: "tt0903747")
        #expect(movie.totalSeasons == 5)
    }

    @Test(arguments: [("tt0903747", 9), ("tt0076759", 1), ("tt9999999", 1)])
    func missingSeasonIsSeasonNotFoundAndRemembered(series: String, season: Int) async throws {
        let log = RequestLog()
        let client = catalogueClient(log: log)
        for _ in 0..<2 {
            await #expect(throws: OMDbError.seasonNotFound(imdbID: series, season: season)) {
                try await client.season(imdbID: series, number: season)
            }
        }
        #expect(log.all.count == 1)
    }

    @Test func fakeServerAnswersSeasonsOverHTTP() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        let client = OMDbClient.live(.init(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: server.baseURL, timeout: 5))
        let list = try await client.season(imdbID: "tt0098936", number: 1)
        #expect(list.episodes.first?.number == 0)
        #expect(list.episodes.first?.title == "Pilot")
        #expect(server.apiRequests.count == 1)
        #expect(server.apiRequests[0].queryItems.contains(URLQueryItem(name: "Season", value: "1")))
    }
}
