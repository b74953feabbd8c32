import FakeOMDb
import Foundation
import OMDbKit
import Testing
import TestSupport

/// Issue 18 in the built `movies` (its own process): `movies show` by ID, link or exact title
/// over the fake OMDb server on 127.0.0.1 and the offline catalogue, and an ID typed at the prompt.
@Suite struct ShowEndToEndProcessTests {
    private func run(_ arguments: [String], lines: [String] = [], server: FakeOMDbServer, in folder: URL) async throws -> MoviesProcess.Outcome {
        try await MoviesProcess.run(arguments + ["--base-url", server.baseURL.absoluteString], lines: lines, directory: folder,
                                    environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
    }

    private func asked(_ server: FakeOMDbServer) -> [[String: String]] {
        server.apiRequests.map { Dictionary($0.queryItems.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 }) }
    }

    /// At the prompt, `show N` and an ID typed, with posters on, say why a poster was not saved, as
    /// `movies show` does (they said nothing: no `Poster:` line, and no reason).
    @Test func showAtThePromptSaysWhyThePosterWasNotSaved() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.always(.failure(404), where: FaultPlan.posters))
            defer { server.shutdown() }
            let outcome = try await run([], lines: ["alien", "posters p", "show 2", "tt0078748", "quit"], server: server, in: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let reasons = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("No poster saved: The server answered HTTP 404") }
            #expect(reasons.count == 2, "\(outcome.stderr)")
        }
    }

    /// Every field OMDb gives, read back as JSON: numbers as numbers, N/A as null, ratings as a list.
    @Test func showByLinkPrintsOneObjectWithEveryFieldAndNumbersAsNumbers() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await run(["show", "https://www.imdb.com/title/tt0076759/?ref_=fn_al_tt_1", "--json", "--posters", "p"],
                                        server: server, in: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let lines = outcome.stdout.split(separator: "\n")
            #expect(lines.count == 1)
            let line = try #require(lines.first)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["imdbID"] as? String == "tt0076759")
            #expect(object["title"] as? String == "Star Wars: Episode IV - A New Hope")
            #expect(object["year"] as? String == "1977")
            #expect(object["director"] as? String == "George Lucas")
            #expect(object["genre"] as? String == "Action, Adventure, Fantasy")
            #expect((object["runtimeMinutes"] as? NSNumber)?.intValue == 121)
            #expect((object["imdbVotes"] as? NSNumber)?.intValue == 1_469_339)
            #expect((object["boxOffice"] as? NSNumber)?.intValue == 460_998_507)
            #expect((object["metascore"] as? NSNumber)?.intValue == 90)
            #expect((object["imdbRating"] as? NSNumber)?.doubleValue == 8.6)
            #expect(object["writer"] is NSNull && object["totalSeasons"] is NSNull)
            let ratings = try #require(object["ratings"] as? [[String: String]])
            #expect(ratings == [["source": "Internet Movie Database", "value": "8.6/10"], ["source": "Rotten Tomatoes", "value": "93%"],
                                ["source": "Metacritic", "value": "90/100"]])
            let poster = try #require(object["poster"] as? String)
            #expect(poster.hasSuffix("[tt0076759].jpg") && FileManager.default.fileExists(atPath: poster))
            #expect(asked(server).map { $0["i"] } == ["tt0076759"])
        }
    }

    /// A title goes through OMDb's exact-title lookup (`t=`) with its year and type.
    @Test func showByTitleWithAYearAsksForThatExactTitle() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await run(["show", "Star", "Wars:", "Episode", "V", "-", "The", "Empire", "Strikes", "Back", "--year", "1980", "--type", "movie"],
                                        server: server, in: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix("Star Wars: Episode V - The Empire Strikes Back (1980)  movie  tt0080684\n"))
            #expect(outcome.stdout.contains("Director: Irvin Kershner"))
            let query = try #require(asked(server).first)
            #expect(asked(server).count == 1)
            #expect(query["t"] == "Star Wars: Episode V - The Empire Strikes Back" && query["y"] == "1980" && query["type"] == "movie")
        }
    }

    @Test func notFoundFailsWithTheReason() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let byID = try await run(["show", "tt9999999", "--json"], server: server, in: folder)
            #expect(byID.status == 1)
            #expect(byID.stdout.isEmpty)
            #expect(byID.stderr.contains("OMDb has no title with the IMDb ID tt9999999"), "\(byID.stderr)")
            let byTitle = try await run(["show", "star", "wars", "--year", "1977"], server: server, in: folder)
            #expect(byTitle.status == 1)
            #expect(byTitle.stderr.contains("no title that is exactly \"star wars\" (year 1977): movies search star wars"), "\(byTitle.stderr)")
        }
    }

    @Test func noKeyIsAUsageErrorAndANamePageIsNotATitle() async throws {
        try await withTemporaryFolder { folder in
            let noKey = try await MoviesProcess.run(["show", "tt0076759", "--base-url", "http://127.0.0.1:9/"], directory: folder)
            #expect(noKey.status == 2)
            #expect(noKey.stderr.contains("OMDB_API_KEY") && noKey.stdout.isEmpty)
            // No base URL chosen either: the offline catalogue answers, and says so.
            let catalogue = try await MoviesProcess.run(["show", "tt0133093"], directory: folder)
            #expect(catalogue.status == 0)
            #expect(catalogue.stdout.hasPrefix("The Matrix (1999)  movie  tt0133093\n"))
            #expect(catalogue.stderr.contains("offline catalogue"))
            let name = try await MoviesProcess.run(["show", "https://m.imdb.com/name/nm0000148/", "--offline"], directory: folder)
            #expect(name.status == 2)
            #expect(name.stderr.contains("is a person's page on IMDb, not a title's"), "\(name.stderr)")
            let offline = try await MoviesProcess.run(["show", "imdb.com/title/tt0133093", "--offline"], directory: folder)
            #expect(offline.status == 0)
            #expect(offline.stdout.hasPrefix("The Matrix (1999)  movie  tt0133093\n"))
        }
    }

    /// At the prompt, an ID and then links to it (with and without `www.`, `m.`, a trailing path)
    /// show the title, for one request. Before, each was searched as text: "No results".
    @Test func idsAndLinksAtThePromptCostOneRequest() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await run([], lines: ["tt0076759", "https://imdb.com/title/tt0076759", "https://www.imdb.com/title/tt0076759/",
                                                     "m.imdb.com/title/tt0076759/reviews", "https://www.imdb.com/name/nm0000148/", "quit"],
                                        server: server, in: folder)
            #expect(outcome.status == 0)
            #expect(outcome.stdout.components(separatedBy: "Star Wars: Episode IV - A New Hope (1977)  movie  tt0076759\n").count == 5, "\(outcome.stdout)")
            #expect(!outcome.stderr.contains("No results"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("https://www.imdb.com/name/nm0000148/ is a person's page on IMDb, not a title's"))
            #expect(asked(server).map { $0["i"] } == ["tt0076759"])
        }
    }
}
