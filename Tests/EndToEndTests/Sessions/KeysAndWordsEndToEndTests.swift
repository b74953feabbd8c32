import FakeOMDb
import Foundation
import OMDbKit
import Testing
@testable import OMDbCatalogue
import TestSupport

/// What the built tool says about keys, URLs and files (issue 16): started as a process, each
/// test with its own folder, against the fake OMDb server when it needs the network.
@Suite struct KeysAndWordsEndToEndTests {
    /// A key shorter than OMDb's 8 characters is refused like a missing one: one line, status 2,
    /// no request sent. Offline, where no key is sent, it is not asked about.
    @Test(arguments: [["search", "alien", "--api-key", "k"], ["--api-key", "abc1234"]])
    func aKeyShorterThanOMDbsIsRefusedBeforeAnyRequest(arguments: [String]) async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(arguments + ["--base-url", server.baseURL.absoluteString], lines: ["alien", "quit"], directory: folder)
            #expect(outcome.status == 2)
            let errors = outcome.fullStderr.split(separator: "\n").filter { !$0.hasPrefix(MoviesProcess.Outcome.fakeServerNotice) }
            #expect(errors.count == 1, "\(outcome.fullStderr)")
            #expect(errors.first?.contains("OMDb's keys are 8") == true, "\(outcome.fullStderr)")
            #expect(server.apiRequests.isEmpty)

            let offline = try await MoviesProcess.run(["search", "alien", "--offline", "--api-key", "k"], directory: folder)
            #expect(offline.status == 0, "\(offline.fullStderr)")
        }
    }

    /// A password in `--base-url` is masked in every message, like the key.
    @Test func aPasswordInTheBaseURLIsNeverShown() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.always(.failure(404)))
            defer { server.shutdown() }
            let base = server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "http://alice:S3cr3tPW@")
            let outcome = try await MoviesProcess.run(["search", "toxic", "--base-url", base], directory: folder,
                                                      environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
            #expect(outcome.fullStderr.contains("http://***@127.0.0.1"), "\(outcome.fullStderr)")
            #expect(!(outcome.stdout + outcome.fullStderr).contains("S3cr3tPW"))
        }
    }
}

/// `--pages N` as a person reads it (issue 16, finding 11).
@Suite struct PagesHintEndToEndTests {
    /// The way to more results is said once, after the last page, not under page 1 while page 2 follows.
    @Test func theHintComesOnceAfterTheLastPage() async throws {
        try await withTemporaryFolder { folder in
            let catalogue = try Catalogue.synthetic(titles: 80, in: folder.appendingPathComponent("catalogue"))
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "bench", "--pages", "3"] + server.arguments, directory: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let hints = outcome.stdout.split(separator: "\n").filter { $0.contains("--pages") }
            #expect(hints == ["Showing 30 of 80. Use --pages 4 to see more."], "\(outcome.stdout)")
        }
    }

    /// The quota spent on page 1: said once on stderr (and in the row that met it), and the pages
    /// after it are not loaded.
    @Test func aQuotaSpentMidwayIsSaidOnceAndStopsThePagesNotStarted() async throws {
        try await withTemporaryFolder { folder in
            let catalogue = try Catalogue.synthetic(titles: 80, in: folder.appendingPathComponent("catalogue"))
            let server = try FakeOMDbServer(catalogue: catalogue, fault: { request in
                request.recordID.map { $0 >= "tt0100005" } == true ? ServerResponse.limitReached : nil
            })
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "bench", "--pages", "3"] + server.arguments, directory: folder)
            #expect(outcome.status == 1)
            let said = [outcome.stdout, outcome.fullStderr].map { $0.components(separatedBy: "daily request limit").count - 1 }
            #expect(said[0] <= 1 && said[1] == 1, "\(outcome.stdout)\n\(outcome.fullStderr)")
            #expect(!outcome.stdout.contains("page 3 of"), "\(outcome.stdout)")
        }
    }
}

/// Where the built tool's requests go, and what they carry: proxies, warm-ups, hosts named in messages.
@Suite struct RequestsEndToEndTests {
    /// With a proxy in the environment, a plain-http request that carries the key goes direct: a
    /// proxy would read it whole, key included (the hostile pass saw 11 such requests at one).
    @Test(arguments: ["http_proxy", "ALL_PROXY"]) func theKeyNeverGoesToAProxyInClearText(variable: String) async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let proxy = try FakeOMDbServer(catalogue: catalogue) { _ in ServerResponse(status: 502, body: Data("proxy".utf8)) }
            defer { proxy.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "star", "wars", "--no-cache", "--base-url", server.baseURL.absoluteString], directory: folder,
                                                      environment: ["OMDB_API_KEY": FakeOMDbServer.validKey, variable: proxy.baseURL.absoluteString,
                                                                    "NO_PROXY": "", "no_proxy": ""])
            #expect(outcome.status == 0, "\(outcome.fullStderr)")
            #expect(!proxy.requests.contains { $0.target.contains(FakeOMDbServer.validKey) }, "\(proxy.requests.map(\.target))")
            #expect(server.apiRequests.count >= 1)
        }
    }

    /// A base URL whose host hides escapes (`%1b]0;…%07`, `%1b[2J`) is named in printable text:
    /// a cloned project's .env must not set the window title or clear the screen.
    @Test func aBaseURLHostIsShownPrintable() async throws {
        try await withTemporaryFolder { folder in
            try Data("OMDB_API_KEY=\(FakeOMDbServer.validKey)\nOMDB_BASE_URL=https://x%1b%5d0;PWNED%07%1b%5b2J.invalid/\n".utf8)
                .write(to: folder.appendingPathComponent(".env"))
            let outcome = try await MoviesProcess.run(["search", "alien", "--timeout", "1"], directory: folder)
            #expect(outcome.fullStderr.contains("PWNED"), "\(outcome.fullStderr)")
            #expect(!outcome.fullStderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(outcome.fullStderr.debugDescription)")
        }
    }

    /// A base URL that carries the key (`?apikey=…`, as OMDb's e-mail writes its example) or a
    /// password is remembered in `posters-host` without them: they were written there as typed.
    @Test func thePostersHostFileHoldsNoKeyNorPassword() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let base = server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "http://me:pass-word-9@")
                + "?apikey=" + FakeOMDbServer.validKey
            let environment = ["OMDB_API_KEY": FakeOMDbServer.validKey, "XDG_STATE_HOME": folder.appendingPathComponent("state").path]
            let outcome = try await MoviesProcess.run(["search", "star", "wars", "--base-url", base], directory: folder, environment: environment)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let remembered = try String(contentsOf: folder.appendingPathComponent("state/movies/posters-host"), encoding: .utf8)
            #expect(remembered.hasPrefix("http://***@127.0.0.1:") && !remembered.contains(FakeOMDbServer.validKey)
                    && !remembered.contains("pass-word-9"), "\(remembered)")
        }
    }

    /// Nothing a run writes (the cache's entries, the state folder, posters) holds the password a
    /// base URL carries: the cache named each entry by its URL with the password in it.
    @Test func noFileHoldsThePasswordOfTheBaseURL() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let base = server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "http://me:pass-word-9@")
            let environment = ["OMDB_API_KEY": FakeOMDbServer.validKey, "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
                               "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path]
            let outcome = try await MoviesProcess.run(["search", "star", "wars", "--base-url", base, "--posters", "p"], directory: folder, environment: environment)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let files = (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL]) ?? []
            let holding = files.filter { (try? Data(contentsOf: $0)).map { String(decoding: $0, as: UTF8.self).contains("pass-word-9") } == true }
            #expect(files.contains { $0.pathExtension == "entry" } && holding.isEmpty, "\(holding.map(\.lastPathComponent))")
        }
    }

    /// The posters host is opened only when posters will be fetched, and only the one the same
    /// base URL showed last: another server's answer never decides what this one opens.
    @Test func thePostersHostIsOpenedOnlyForPostersAndOnlyAsThisBaseURLShowedIt() async throws {
        try await withTemporaryFolder { folder in
            let warmedUp = Latch()
            let posters = try FakeOMDbServer(catalogue: catalogue) { request in
                if request.method == "HEAD" { warmedUp.open() }
                return nil
            }
            defer { posters.shutdown() }
            // In the last run the search's answer waits (20 s at most) for the warm-up, which goes out
            // right behind the search's request, so that a process ending fast cannot end the warm-up
            // before it reaches the posters host.
            let holdForWarmUp = Latch()
            let server = try FakeOMDbServer(catalogue: catalogue) { request in
                if holdForWarmUp.isOpen, request.queryItems.contains(where: { $0.name == "s" }) { warmedUp.wait(timeout: .seconds(20)) }
                return nil
            }
            defer { server.shutdown() }
            let state = folder.appendingPathComponent("state/movies")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // No disk cache: each run's search is a request, and the posters host opens right behind it.
            let environment = ["OMDB_API_KEY": FakeOMDbServer.validKey, "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
                               "MOVIES_CACHE": "off"]
            // Remembered for another base URL: not this one's.
            try Data("http://127.0.0.1:1/ \(posters.baseURL.absoluteString)\n".utf8).write(to: state.appendingPathComponent("posters-host"))
            _ = try await MoviesProcess.run(["search", "star", "wars", "--posters", "p", "--base-url", server.baseURL.absoluteString], directory: folder, environment: environment)
            #expect(posters.warmUps.isEmpty)
            // Remembered for this one, but no posters wanted: not opened either.
            try Data("\(server.baseURL.absoluteString) \(posters.baseURL.absoluteString)\n".utf8).write(to: state.appendingPathComponent("posters-host"))
            _ = try await MoviesProcess.run(["search", "star", "wars", "--base-url", server.baseURL.absoluteString], directory: folder, environment: environment)
            #expect(posters.warmUps.isEmpty)
            // Both: opened, with no key (the run above remembered its own posters' host: set it again).
            holdForWarmUp.open()
            try Data("\(server.baseURL.absoluteString) \(posters.baseURL.absoluteString)\n".utf8).write(to: state.appendingPathComponent("posters-host"))
            _ = try await MoviesProcess.run(["search", "star", "wars", "--posters", "p", "--base-url", server.baseURL.absoluteString], directory: folder, environment: environment)
            #expect(posters.warmUps.count == 1)
            #expect(posters.warmUps.allSatisfy { $0.target == "/" })
        }
    }
}
