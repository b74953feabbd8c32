import FakeOMDb
import Foundation
import OMDbKit
import Testing
import TestSupport

/// The built `movies` (its own process, piped stdin) with episodes, wider posters, inline images,
/// save and open, over the offline catalogue or the fake OMDb server on 127.0.0.1.
@Suite struct MoreEndToEndProcessTests {
    @Test func episodesOneShotPrintsJSONInEpisodeOrder() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(["episodes", "tt0098936", "--json", "--offline"], directory: folder)
            #expect(outcome.status == 0)
            let objects = try outcome.stdout.split(separator: "\n").map {
                try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(objects.map { $0["episode"] as? Int } == [0, 1, 2, 3])
            #expect(objects.first?["title"] as? String == "Pilot")
            #expect(objects.allSatisfy { $0["series"] as? String == "Twin Peaks" && $0["season"] as? Int == 1 })
        }
    }

    @Test func episodesOneShotTakesAQueryAndASeasonFromTheFakeServer() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["episodes", "breaking", "bad", "--season", "2", "--base-url", server.baseURL.absoluteString],
                                                      directory: folder, environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
            #expect(outcome.status == 0)
            #expect(outcome.stdout.hasPrefix("Breaking Bad, season 2 of 5: 2 episodes\n"))
            #expect(outcome.stdout.contains("  1. E01  Seven Thirty-Seven  2009-03-08  IMDb 8.7  tt1232244"))
            let asked = server.apiRequests.map { Dictionary($0.queryItems.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 }) }
            #expect(asked.count == 2)
            #expect(asked[0]["s"] == "breaking bad" && asked[0]["type"] == "series")
            #expect(asked[1]["i"] == "tt0903747" && asked[1]["Season"] == "2")
        }
    }

    @Test func episodesOfAMissingSeasonSaySo() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(["episodes", "tt0411008", "--season", "7", "--offline"], directory: folder)
            // Nothing to list is a failure, as `show` of a missing title (issue 23).
            #expect(outcome.status == 1)
            #expect(outcome.stdout == "")
            // Offline, the catalogue says what it lists, not OMDb's "show N says how many" (issue 16).
            #expect(outcome.stderr == "The offline catalogue lists the episodes of Lost for season 1 only, not season 7.\n")
        }
    }

    @Test func widerPosterFallsBackAndTheRowSaysSo() async throws {
        try await withTemporaryFolder { folder in
            var amazon = catalogue
            amazon.amazonStylePosters = true
            let server = try FakeOMDbServer(catalogue: amazon) { request in
                request.path.contains("_SX1000") ? ServerResponse(status: 404, body: Data("<html>no</html>".utf8)) : nil
            }
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "toxic", "avenger", "--posters", "p", "--base-url", server.baseURL.absoluteString],
                                                      directory: folder, environment: ["OMDB_API_KEY": FakeOMDbServer.validKey, "MOVIES_POSTER_WIDTH": "1000"])
            #expect(outcome.status == 0)
            #expect(outcome.stdout.contains("(width 1000 failed (HTTP 404), saved OMDb's)"))
            let paths = server.posterRequests.map(\.path)
            #expect(paths.contains("/posters/tt0090190._V1_SX1000.jpg"))
            #expect(paths.contains("/posters/tt0090190._V1_SX300.jpg"))
        }
    }

    /// Over a pipe, `open` of more than five rows asks, and the next line answers: `n` opens
    /// nothing (and is not searched for), `y` opens them.
    @Test func openOfManyRowsOverAPipeIsAnsweredByTheNextLine() async throws {
        try await withTemporaryFolder { folder in
            let (opener, record) = try makeRecordingOpener(in: folder)
            let outcome = try await MoviesProcess.run(["--offline"], lines: ["star trek", "open 1-6", "n", "open 2-7", "y", "quit"],
                                                      directory: folder, environment: ["MOVIES_OPENER": opener.path])
            #expect(outcome.status == 0)
            #expect(outcome.stderr.contains("Open 6 pages in the browser? (y/N) n\nNothing opened: answer y to open 6 pages"), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("Too many results"), "\(outcome.stderr)")
            let opened = try String(contentsOf: record, encoding: .utf8).split(separator: "\n")
            #expect(opened.count == 6 && opened.first == "https://www.imdb.com/title/tt0084726/", "\(opened)")
        }
    }

    @Test func sessionSavesOpensAndNeverDrawsIntoAPipe() async throws {
        try await withTemporaryFolder { folder in
            let (opener, record) = try makeRecordingOpener(in: folder)
            try Data("old".utf8).write(to: folder.appendingPathComponent("taken.csv"))
            let outcome = try await MoviesProcess.run(
                ["--posters", "p", "--inline-images", "iterm"],
                lines: ["toxic avenger", "show 1", "open 1", "save out.json", "save taken.csv", "save! taken.csv", "quit"],
                directory: folder, environment: ["MOVIES_OPENER": opener.path, "TERM_PROGRAM": "iTerm.app"])
            #expect(outcome.status == 0)
            #expect(!outcome.stdout.contains("\u{1B}"), "an escape sequence went into a pipe")
            #expect(try String(contentsOf: record, encoding: .utf8) == "https://www.imdb.com/title/tt0090190/\n")
            let saved = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("out.json"))) as? [[String: Any]])
            #expect(saved.first?["imdbID"] as? String == "tt0090190")
            #expect((saved.first?["plot"] as? String)?.isEmpty == false)
            #expect(outcome.stderr.contains("taken.csv exists, so nothing was saved: save! taken.csv (or save taken.csv --force) replaces it."))
            let csv = try String(contentsOf: folder.appendingPathComponent("taken.csv"), encoding: .utf8)
            #expect(csv.hasPrefix("imdbID,title,"))
        }
    }
}
