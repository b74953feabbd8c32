import FakeOMDb
import Foundation
import OMDbKit
import Testing
@testable import OMDbCatalogue
import TestSupport

let catalogue: Catalogue = try! Catalogue(folder: MoviesProcess.catalogueFolder)

/// Runs the built `movies` in its own process with piped stdin, over the offline catalogue or the
/// fake OMDb server on 127.0.0.1.
@Suite struct EndToEndProcessTests {
    @Test func offlineSessionSearchMoreShowQuitSavesPosters() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(["--posters", "shots"], lines: ["star wars", "more", "show 1", "quit"], directory: folder)
            #expect(outcome.status == 0)
            #expect(outcome.stderr.contains("Offline catalogue (no API key)"))
            #expect(outcome.stderr.contains("OMDB_API_KEY"))
            let out = outcome.stdout
            #expect(out.contains("Results for \"star wars\": page 1 of 2, 16 in all"))
            #expect(out.contains("  1. Star Wars: Episode IV - A New Hope (1977)  movie  tt0076759"))
            #expect(out.contains("Results for \"star wars\": page 2 of 2"))
            #expect(out.contains(" 16. "))
            #expect(out.contains("Showing 16 of 16: that is all."))
            // show 1: the full record.
            #expect(out.contains("Director: George Lucas"))
            #expect(out.contains("IMDb: https://www.imdb.com/title/tt0076759/"))
            #expect(!out.contains("\u{1B}"))
            let saved = files(in: folder.appendingPathComponent("shots"))
            #expect(saved.contains("Star Wars: Episode IV - A New Hope (1977) [tt0076759].jpg"))
            let postersSaid: Int = out.components(separatedBy: "poster saved: ").count - 1   // outside #expect: slow inside
            #expect(saved.count == postersSaid)
            #expect(saved.allSatisfy { !$0.hasPrefix(".") })
        }
    }

    @Test func sessionAgainstTheFakeServerAsksForNothingTwice() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(
                ["--base-url", server.baseURL.absoluteString, "--posters", "p"],
                lines: ["toxic", "show 1", "toxic", "more", "quit"], directory: folder,
                environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
            #expect(outcome.status == 0)
            #expect(!outcome.stderr.contains("Offline"))
            let api = server.apiRequests.map { $0.target }
            #expect(Set(api).count == api.count, "a request was repeated: \(api)")
            // One search (asked twice, sent once), ten short records, one full record.
            let searchShortRecordsAndFullRecord: Int = 1 + 10 + 1   // summed outside #expect: 2.5 s to type-check inside
            #expect(server.apiRequests.count == searchShortRecordsAndFullRecord)
            #expect(server.posterRequests.count == 7)
            #expect(outcome.stderr.contains("No more results for \"toxic\""))
            #expect(outcome.stdout.contains("no poster saved: no poster (N/A)"))
            #expect(outcome.stdout.contains("no poster saved: The server answered HTTP 404"))
            #expect(outcome.stdout.contains("no poster saved: not an image"))
            let posters = files(in: folder.appendingPathComponent("p"))   // outside #expect: 2.7 s to type-check inside
            #expect(posters.count == 5)
        }
    }

    @Test func oneShotJSONPrintsOneObjectPerMovie() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(["search", "star", "wars", "--pages", "2", "--json", "--offline", "--posters", "out"], directory: folder)
            #expect(outcome.status == 0)
            let lines = outcome.stdout.split(separator: "\n")
            #expect(lines.count == 16)
            let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(objects.map { $0["rank"] as? Int } == (1...16).map { $0 })
            for object in objects {
                for key in ["imdbID", "title", "year", "type", "plot", "poster"] { #expect(object.keys.contains(key), "missing \(key)") }
                if let poster = object["poster"] as? String {
                    #expect(FileManager.default.fileExists(atPath: poster))
                } else {
                    #expect(object["posterError"] is String)
                }
            }
            #expect(objects.first?["title"] as? String == "Star Wars: Episode IV - A New Hope")
            #expect(objects.first?["plot"] is String)
        }
    }

    @Test func zeroResultsIsSuccessWithNothingOnStdout() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(["search", "qqqzzzxx", "--offline", "--json"], directory: folder)
            #expect(outcome.status == 0)
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr.contains("No results for \"qqqzzzxx\""))
        }
    }

    /// With a base URL chosen and no key, a script's mistake: a usage error naming the key.
    @Test(arguments: [["search", "alien"], ["show", "tt0076759"], ["episodes", "tt0098936"]])
    func oneShotWithoutAKeyNamesEveryWayToGiveOne(arguments: [String]) async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(arguments + ["--base-url", "http://127.0.0.1:9/"], directory: folder)
            #expect(outcome.status == 2)
            for word in ["OMDB_API_KEY", ".env", "--offline"] { #expect(outcome.stderr.contains(word)) }
            #expect(outcome.stdout.isEmpty)
        }
    }

    /// No key and no base URL chosen: every read command answers from the offline catalogue, as
    /// the prompt does, and says so in one line on stderr; with --quiet, in none.
    @Test(arguments: [(["search", "alien"], "Results for \"alien\""), (["show", "tt0076759"], "Star Wars"),
                      (["episodes", "tt0098936"], "Twin Peaks, season 1")])
    func aReadCommandWithoutAKeyAnswersFromTheOfflineCatalogueAndSaysSo(arguments: [String], answer: String) async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(arguments, directory: folder)
            #expect(outcome.status == 0)
            #expect(outcome.stdout.contains(answer), "\(outcome.stdout)")
            #expect(outcome.stderr.split(separator: "\n").count == 1)
            #expect(outcome.stderr.contains("offline catalogue") && outcome.stderr.contains("OMDB_API_KEY"), "\(outcome.stderr)")
            let quiet = try await MoviesProcess.run(arguments + ["-q"], directory: folder)
            #expect(quiet.status == 0 && quiet.stdout == outcome.stdout && quiet.fullStderr.isEmpty, "\(quiet.fullStderr)")
        }
    }

    /// A miss offline names the command that lists the catalogue, as it is typed where the miss is shown.
    @Test func anOfflineMissNamesTheCommandThatListsTheCatalogue() async throws {
        try await withTemporaryFolder { folder in
            let miss = try await MoviesProcess.run(["search", "titanic"], directory: folder)
            #expect(miss.stderr.contains("The offline catalogue holds only 245 titles (movies catalogue lists them)"), "\(miss.stderr)")
            let prompt = try await MoviesProcess.run([], lines: ["titanic"], directory: folder)
            #expect(prompt.stderr.contains("The offline catalogue holds only 245 titles (catalogue lists them)"), "\(prompt.stderr)")
        }
    }

    @Test func rejectedKeyFailsWithStatusOneAndDoesNotLeakIt() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "alien", "--base-url", server.baseURL.absoluteString, "--api-key", "wrongkey77"], directory: folder)
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains("OMDb rejected the API key"))
            #expect(!outcome.stderr.contains("wrongkey77") && !outcome.stdout.contains("wrongkey77"))
        }
    }

    @Test func quotaSpentFailsWithStatusOne() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue) { _ in .json(#"{"Response":"False","Error":"Request limit reached!"}"#, status: 401) }
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "alien", "--base-url", server.baseURL.absoluteString], directory: folder,
                                                      environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains("daily request limit"))
        }
    }

    @Test func serverDownFailsWithStatusOneAndNoKey() async throws {
        try await withTemporaryFolder { folder in
            // A port kept bound and never listened on: a server shut down gives its port back,
            // and a server of a test running beside this one can be given it.
            let closed = try SilentListener(listening: false)
            defer { withExtendedLifetime(closed) {} }
            let base = "http://127.0.0.1:\(closed.port)/"
            let outcome = try await MoviesProcess.run(["search", "alien", "--base-url", base, "--api-key", "sekrit99", "--timeout", "2"], directory: folder)
            #expect(outcome.status == 1)
            // The host in words; the key was never in any URL the library kept.
            #expect(outcome.stderr.contains("The connection to 127.0.0.1:\(closed.port) failed (connection refused)"))
            #expect(!outcome.stderr.contains("apikey"))
            #expect(!outcome.stderr.contains("sekrit99"))
        }
    }

    @Test(arguments: [["--type", "nonsense"], ["search", "x", "--pages", "0"], ["--bogus"], ["--timeout", "0.5"], ["--year", "84"], ["search"], ["find", "x"],
                      ["--posters", ""], ["--posters="], ["search", "x", "--offline", "--posters", ""],
                      ["search", "alien", "--offline", "--posters", "shots\nfor\u{1B}[31m"]])
    func usageErrorsExitTwoWithOneLine(arguments: [String]) async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(arguments, directory: folder)
            #expect(outcome.status == 2)
            #expect(outcome.stderr.hasPrefix("error: "))
            #expect(outcome.stderr.split(separator: "\n").count == 1)
            #expect(outcome.stdout.isEmpty)
        }
    }

    @Test(arguments: [["-apikey=sekrit1234", "search", "x"], ["--api-key=", "sekrit1234"], ["--api-key", "sekrit1234", "--base-url", "http://omdb.example/"]])
    func usageErrorsAboutTheKeyNeverShowIt(arguments: [String]) async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(arguments, directory: folder)
            #expect(outcome.status == 2)
            #expect(outcome.stderr.hasPrefix("error: ") && outcome.stderr.split(separator: "\n").count == 1)
            #expect(!outcome.stderr.contains("sekrit1234"))
        }
    }

    @Test func helpAndVersion() async throws {
        try await withTemporaryFolder { folder in
            let help = try await MoviesProcess.run(["--help"], directory: folder)
            #expect(help.status == 0)
            #expect(help.stdout.contains("Usage:") && help.stdout.contains("--api-key KEY") && help.stdout.contains("Exit status"))
            let version = try await MoviesProcess.run(["--version"], directory: folder)
            #expect(version.status == 0)
            #expect(version.stdout.range(of: #"^movies \d+\.\d+\.\d+ \(OMDbKit "# + OMDbKit.version + ", Swift 6", options: .regularExpression) != nil,
                    "\(version.stdout)")
            #expect(version.stdout.hasSuffix(")\n") && version.stdout.split(separator: "\n").count == 1)
        }
    }

    @Test func dotEnvInTheWorkingFolderSuppliesKeyAndAddress() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            try """
            # my settings
            OMDB_API_KEY="\(FakeOMDbServer.validKey)"
            export OMDB_BASE_URL=\(server.baseURL.absoluteString)  # the fake
            """.write(to: folder.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
            let outcome = try await MoviesProcess.run(["search", "toxic", "--json"], directory: folder)
            #expect(outcome.status == 0)
            #expect(outcome.stdout.split(separator: "\n").count == 10)
            #expect(server.apiRequests.first?.queryItems.first { $0.name == "apikey" }?.value == FakeOMDbServer.validKey)
            #expect(outcome.fullStderr.hasPrefix("Note: OMDb requests go to 127.0.0.1 (from OMDB_BASE_URL in .env), not to OMDb's www.omdbapi.com.\n"))
            #expect(!outcome.stderr.contains("Note: OMDb requests go to"))
            // The environment wins over .env (past the disk cache, which answers any key; the address is given too: .env's goes only with .env's key).
            let wrong = try await MoviesProcess.run(["search", "toxic", "--no-cache", "--base-url", server.baseURL.absoluteString], directory: folder,
                                                    environment: ["OMDB_API_KEY": "envwins1"])
            #expect(wrong.status == 1)
            #expect(server.apiRequests.last?.queryItems.first { $0.name == "apikey" }?.value == "envwins1")
        }
    }

    @Test func everyBadLineGetsAHintAndThePromptGoesOn() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run([], lines: ["", "   ", "more", "show 2", "show", "type nonsense", "year 84", "/nope", "the",
                                                              "posters /dev/null/x", "search show", "help", "exit"], directory: folder)
            #expect(outcome.status == 0)
            let err = outcome.stderr
            #expect(err.contains("There is no search to continue yet"))
            #expect(err.contains("No results yet: search for a title first."))
            #expect(err.contains("show takes a result number"))
            #expect(err.contains("type takes movie, series, episode or any"))
            #expect(err.contains("year takes a year of four digits from 1870 to 2100, such as 1984"))
            #expect(err.contains("unknown command \"/nope\""))
            #expect(err.contains("Too many results for \"the\""))
            #expect(err.contains("Cannot use \"/dev/null/x\" for posters"))
            #expect(err.contains("No results for \"show\""))
            #expect(outcome.stdout.contains("  more, next, n     the next page\n"))
        }
    }

    @Test func noEscapeCodesWhenPipedOrNoColor() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(["search", "alien", "--offline"], directory: folder, environment: ["NO_COLOR": "1", "TERM": "xterm-256color"])
            #expect(outcome.status == 0)
            #expect(!outcome.stdout.isEmpty)
            #expect(!outcome.stdout.contains("\u{1B}") && !outcome.stderr.contains("\u{1B}"))
        }
    }

    @Test func ctrlCWhileLoadingStopsThePageAndThePromptGoesOn() async throws {
        try await withTemporaryFolder { folder in
            let server = try serverWithSlowRecords()
            defer { server.shutdown() }
            let movies = try await promptMidPage(server: server, folder: folder)
            movies.interrupt()
            try await movies.waitForStderr("Stopped", timeout: .seconds(20))
            // Now idle: must not end the program. "Stopped" is written by the command as it ends,
            // and a Ctrl-C before the prompt takes it as ended still goes to that command (and
            // says nothing): Ctrl-C again, as a person would, until the idle answer comes. Seconds
            // apart, so that no second one is still on its way when `show 1` starts.
            var lastInterrupt = ContinuousClock.now
            movies.interrupt()
            try await waitUntil("the idle Ctrl-C to be answered") {
                if movies.stderrSoFar.contains("(Ctrl-C: type quit or press Ctrl-D to leave)") { return true }
                if ContinuousClock.now - lastInterrupt > .seconds(3) { movies.interrupt(); lastInterrupt = .now }
                return false
            }
            movies.send("show 1")
            movies.send("quit")
            let outcome = await movies.finish(timeout: .seconds(20))
            #expect(outcome.status == 0)
            #expect(outcome.stderr.contains("Stopped: 1 of 10 rows of this page was filled in; it is kept."))
            #expect(outcome.stderr.contains("(Ctrl-C: type quit or press Ctrl-D to leave)"))
            #expect(outcome.stdout.contains("Director: Michael Herz, Lloyd Kaufman"))
            let saved = files(in: folder.appendingPathComponent("p"))
            #expect(saved.allSatisfy { !$0.hasPrefix(".") })
            #expect(saved.contains("The Toxic Avenger (1984) [tt0090190].png"))
        }
    }

    // MARK: Signals and a closed stdout

    /// `movies search … | head -n N`: stdout's reader goes away while rows and posters are still
    /// coming. The tool must not die of SIGPIPE: it stops quietly, exits 141, leaves no partial file.
    @Test(arguments: [1, 3, 6])
    func closedOutputStopsQuietlyWith141AndLeavesNoPartialPoster(linesRead: Int) async throws {
        try await withTemporaryFolder { folder in
            let movies = try MoviesProcess(["search", "star", "--offline", "--pages", "4", "--posters", "pp"], directory: folder,
                                           closeOutputAfterLines: linesRead)
            let outcome = await movies.finish(timeout: .seconds(30))
            #expect(outcome.exited, "ended by signal \(outcome.status), not by exit")
            #expect(outcome.status == 141)
            #expect(!outcome.stderr.contains("error"), "not quiet: \(outcome.stderr)")
            let dotFiles = files(in: folder.appendingPathComponent("pp")).filter { $0.hasPrefix(".") }
            #expect(dotFiles.isEmpty, "left behind: \(dotFiles)")
        }
    }

    /// SIGTERM (143) and SIGHUP (129) mid-page: the command is cancelled, poster writes in progress
    /// finish, and the process exits 128 + the signal at once (records take a minute to come).
    @Test(arguments: [SIGTERM, SIGHUP])
    func terminationSignalMidPageExitsWith128PlusSignalAndLeavesNoPartialPoster(signal: Int32) async throws {
        try await withTemporaryFolder { folder in
            let server = try serverWithSlowRecords()
            defer { server.shutdown() }
            let movies = try await promptMidPage(server: server, folder: folder)
            movies.send(signal: signal)
            // Before the minute the records take: a movies that waited for them is still running
            // at 45 s, is killed, and has not exited (no bound on how fast a loaded machine is:
            // two suites at once took 17 s against 10 s asked).
            let outcome = await movies.finish(timeout: .seconds(45))
            #expect(outcome.exited, "ended by signal \(outcome.status), not by exit")
            #expect(outcome.status == 128 + signal)
            let saved = files(in: folder.appendingPathComponent("p"))
            #expect(saved.allSatisfy { !$0.hasPrefix(".") }, "left behind: \(saved)")
            #expect(saved.contains("The Toxic Avenger (1984) [tt0090190].png"))
        }
    }

    /// Ctrl-C during a one-shot search cancels it: "Interrupted." and status 130, as before.
    @Test func ctrlCDuringAOneShotSearchExits130() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue) { request in
                request.queryItems.contains { $0.name == "i" } ? ServerResponse(body: Data("{}".utf8), delay: .seconds(60)) : nil
            }
            defer { server.shutdown() }
            let movies = try MoviesProcess(["search", "toxic", "--base-url", server.baseURL.absoluteString, "--timeout", "600"],
                                           directory: folder, environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
            try await movies.waitForStdout("Results for", timeout: .seconds(20))
            movies.interrupt()
            let outcome = await movies.finish(timeout: .seconds(20))
            #expect(outcome.exited)
            #expect(outcome.status == 130)
            #expect(outcome.stderr.contains("Interrupted."))
        }
    }

    /// `~` is the HOME the tool was given, for --posters, MOVIES_POSTERS and the posters command.
    @Test func tildeInPosterFoldersIsTheGivenHome() async throws {
        try await withTemporaryFolder { folder in
            let home = folder.appendingPathComponent("fakehome")
            let option = try await MoviesProcess.run(["search", "toxic avenger", "--offline", "--posters", "~/a"], directory: folder,
                                                     environment: ["HOME": home.path])
            #expect(option.status == 0)
            #expect(!files(in: home.appendingPathComponent("a")).isEmpty)
            let variable = try await MoviesProcess.run(["search", "toxic avenger", "--offline"], directory: folder,
                                                       environment: ["HOME": home.path, "MOVIES_POSTERS": "~/b"])
            #expect(variable.status == 0)
            #expect(!files(in: home.appendingPathComponent("b")).isEmpty)
            let prompt = try await MoviesProcess.run(["--offline"], lines: ["posters ~/c", "toxic avenger", "quit"], directory: folder,
                                                     environment: ["HOME": home.path])
            #expect(prompt.status == 0)
            #expect(!files(in: home.appendingPathComponent("c")).isEmpty)
        }
    }

    @Test func postersWithAnEmptyFolderAtThePromptIsAHint() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(["--offline"], lines: ["posters \"\"", "posters", "quit"], directory: folder)
            #expect(outcome.status == 0)
            #expect(outcome.stderr.contains("posters needs a folder"))
            #expect(outcome.stdout.contains("Posters are off"))
        }
    }
}

/// A fake OMDb whose records take a minute, but for The Toxic Avenger's: a page that stays loading.
private func serverWithSlowRecords() throws -> FakeOMDbServer {
    try FakeOMDbServer(catalogue: catalogue) { request in
        let id = request.queryItems.first { $0.name == "i" }?.value
        return id != nil && id != "tt0090190" ? ServerResponse(body: Data("{}".utf8), delay: .seconds(60)) : nil
    }
}

/// The prompt against `server`, saving posters into `folder/p`, once a search for "toxic" is
/// under way (a poster is saved and The Toxic Avenger's plot shown, most records are not in).
private func promptMidPage(server: FakeOMDbServer, folder: URL) async throws -> MoviesProcess {
    // A long --timeout: the slow rows must still be loading when the test's Ctrl-C comes, however
    // late a loaded machine lets the test run.
    let movies = try MoviesProcess(["--base-url", server.baseURL.absoluteString, "--posters", "p", "--timeout", "600"], directory: folder,
                                   environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
    movies.send("toxic")
    // A row's record and poster arrive independently: wait for both of the quick row's.
    try await movies.waitForOutput("the quick row's poster and plot", timeout: .seconds(20)) { out, _ in
        out.contains("poster saved") && out.contains("janitor")
    }
    return movies
}
