import FakeOMDb
import Foundation
import OMDbKit
import Synchronization
import Testing
@testable import OMDbCatalogue
import TestSupport

/// What makes a page fast, checked by behaviour (requests, their order, how many at once) and
/// never by wall-clock time. Each test runs the built `movies` against its own fake OMDb server.
@Suite struct SpeedProcessTests {
    /// Page 1 alone: one search, ten records and ten posters, all at once.
    @Test func aPageFansOutAtOnceAndAsksForNothingTwice() async throws {
        try await withTemporaryFolder { folder in
            // Every answer waits until ten requests are in flight: only a fan-out gets past it quickly.
            let barrier = Barrier(count: 10)
            let server = try FakeOMDbServer(catalogue: Catalogue.synthetic(titles: 30, in: folder.appendingPathComponent("catalogue")),
                                            posterBytes: 2_000) { request in
                barrier.arrive(isSearch: request.isSearch)
                return nil
            }
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "bench", "--posters", "p"] + server.arguments, directory: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(server.peakRequestsInFlight >= 10)
            #expect(!barrier.timedOut, "fewer than 10 requests were ever in flight at once")
            let searchAndTenRecords: Int = 1 + 10   // summed outside #expect: slow to type-check inside
            #expect(server.apiRequests.count == searchAndTenRecords)
            #expect(server.posterRequests.count == 10)
            #expect(server.searchPages == [1], "one-shot mode fetched a page it was not asked for")
            server.expectNothingAskedTwice()
        }
    }

    /// `--pages 5`: the searches for pages 2-5 go out while page 1's rows are still loading.
    @Test func pagesTwoToFiveAreAskedBeforePageOnesRowsComplete() async throws {
        try await withTemporaryFolder { folder in
            // Page 1's records, and the search for page 2, are held until the search for page 5
            // has arrived: only searches sent together, beside page 1's rows, pass. A hold that runs
            // out (60 s, far past any machine's delay) fails the test.
            let page5 = Latch()
            let catalogue = try Catalogue.synthetic(titles: 80, in: folder.appendingPathComponent("catalogue"))
            let server = try FakeOMDbServer(catalogue: catalogue, posterBytes: 2_000) { request in
                if request.searchPage == 5 { page5.open() }
                if request.searchPage == 2 { page5.wait(timeout: .seconds(60)) }
                if let id = request.recordID, id <= "tt0100010" { page5.wait(timeout: .seconds(60)) }
                return nil
            }
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "bench", "--pages", "5", "--posters", "p"] + server.arguments, directory: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(!page5.timedOut, "the search for page 5 waited for page 2's, or for page 1's rows")
            #expect(server.searchPages.sorted() == [1, 2, 3, 4, 5], "pages 6-8 exist but were not asked for")
            let fiveSearchesAndFiftyRecords: Int = 5 + 50   // summed outside #expect: slow to type-check inside
            #expect(server.apiRequests.count == fiveSearchesAndFiftyRecords)
            #expect(server.posterRequests.count == 50)
            server.expectNothingAskedTwice()
            // Printed in page order all the same, rows numbered 1 to 50.
            let headings = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("Results for") }.map(String.init)
            #expect(headings == (1...5).map { "Results for \"bench\": page \($0) of 8, 80 in all" })
            let numbers = outcome.stdout.split(separator: "\n").compactMap { line in
                line.firstMatch(of: /^ *(\d+)\. Bench Title \d+ \(\d+\)  movie/).flatMap { Int($0.1) }
            }
            #expect(numbers == Array(1...50))
            #expect(outcome.stdout.hasSuffix("Showing 50 of 80. Use --pages 6 to see more.\n"))
        }
    }

    /// `--pages 5 --concurrency 20`: the rows of at most two pages load at once (the page being
    /// shown and the next), so a long `--pages` does not hold hundreds of tasks waiting at the gate.
    @Test func rowsLoadAtMostTwoPagesAheadAtConcurrencyTwenty() async throws {
        try await withTemporaryFolder { folder in
            // Page 1's records are held until page 2's records and posters have all been asked for
            // (page 2's posters would queue behind page 3's records at the gate, were those queued).
            // Until then no record of page 3 may be asked for: page 1 is still loading.
            let page2Done = Latch()
            let pageThreeEarly = Mutex(false)
            let catalogue = try Catalogue.synthetic(titles: 80, in: folder.appendingPathComponent("catalogue"))
            let server = try FakeOMDbServer(catalogue: catalogue, posterBytes: 2_000) { request in
                if let id = request.recordID, id > "tt0100020", id <= "tt0100030", !page2Done.isOpen {
                    pageThreeEarly.withLock { $0 = true }
                }
                if let id = request.recordID, id <= "tt0100010" { page2Done.wait(timeout: .seconds(60)) }
                return nil
            }
            defer { server.shutdown() }
            // Page 1's records are held for as long as that takes: a deadline (10 s by default,
            // missed with two suites at once) would retry them and count them twice.
            let movies = try MoviesProcess(["search", "bench", "--pages", "5", "--concurrency", "20", "--posters", "p", "--timeout", "300"]
                                           + server.arguments, directory: folder)
            let page2 = (11...20).map { String(format: "tt01%05d", $0) }
            try await server.waitForRequests("page 2's records and posters asked for") { requests in
                let targets = requests.map(\.target)
                return page2.allSatisfy { id in targets.contains { $0.contains("i=\(id)") } && targets.contains { $0.hasPrefix("/posters/") && $0.contains(id) } }
            }
            page2Done.open()
            let outcome = await movies.finish()
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(!page2Done.timedOut)
            #expect(!pageThreeEarly.withLock { $0 }, "page 3's rows were asked for while page 1's were still loading")
            let fiveSearchesAndFiftyRecords: Int = 5 + 50   // summed outside #expect: slow to type-check inside
            #expect(server.apiRequests.count == fiveSearchesAndFiftyRecords)
            server.expectNothingAskedTwice()
            let numbers = outcome.stdout.split(separator: "\n").compactMap { line in
                line.firstMatch(of: /^ *(\d+)\. Bench Title \d+ \(\d+\)  movie/).flatMap { Int($0.1) }
            }
            #expect(numbers == Array(1...50))
        }
    }

    /// The prompt fetches the next page's search while a page is shown; `more` uses it and
    /// asks for nothing again; nothing past the last page is fetched.
    @Test func thePromptPrefetchesTheNextPageOnceAndNeverPastTheLast() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: Catalogue.synthetic(titles: 25, in: folder.appendingPathComponent("catalogue")))
            defer { server.shutdown() }
            let movies = try MoviesProcess(server.arguments, directory: folder)
            movies.send("bench")
            // The search for page 2 goes out before anyone types more.
            try await server.waitForSearchPages([1, 2])
            try await movies.waitForStdout("Showing 10 of 25")
            #expect(server.searchPages == [1, 2])
            let before = server.requests.count
            movies.send("more")
            try await movies.waitForStdout("Showing 20 of 25")
            // more sent the ten records of page 2 and the prefetch of page 3, not page 2's search again.
            try await server.waitForSearchPages([1, 2, 3])
            let tenRecordsAndPageThree: Int = 10 + 1   // summed outside #expect: slow to type-check inside
            #expect(server.requests.count - before == tenRecordsAndPageThree)
            movies.send("more")
            try await movies.waitForStdout("Showing 25 of 25: that is all.")
            movies.send("more")
            let outcome = await movies.finish()
            #expect(outcome.status == 0)
            #expect(outcome.stderr.contains("No more results for \"bench\""))
            #expect(server.searchPages == [1, 2, 3], "a page past the last (3) was asked for")
            server.expectNothingAskedTwice()
        }
    }

    @Test(arguments: [(["--no-prefetch"], [:]), ([], ["MOVIES_PREFETCH": "off"])] as [([String], [String: String])])
    func prefetchCanBeSwitchedOff(arguments: [String], environment: [String: String]) async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: Catalogue.synthetic(titles: 25, in: folder.appendingPathComponent("catalogue")))
            defer { server.shutdown() }
            let movies = try MoviesProcess(server.arguments + arguments, directory: folder, environment: environment)
            movies.send("bench")
            try await movies.waitForStdout("Showing 10 of 25")
            // A full record, asked after the page: when it is in, a prefetch would long have been sent.
            movies.send("show 1")
            try await movies.waitForStdout("Director: Someone")
            #expect(server.searchPages == [1])
            movies.send("more")
            try await movies.waitForStdout("Showing 20 of 25")
            #expect(server.searchPages == [1, 2])
            let outcome = await movies.finish()
            #expect(outcome.status == 0)
            server.expectNothingAskedTwice()
        }
    }

    /// `--concurrency 1` is honoured: one request at a time, the sequential baseline.
    @Test func concurrencyOneSendsOneRequestAtATime() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: Catalogue.synthetic(titles: 30, in: folder.appendingPathComponent("catalogue")),
                                            latency: .milliseconds(20), posterBytes: 2_000)
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "bench", "--pages", "2", "--posters", "p", "--concurrency", "1"] + server.arguments,
                                                      directory: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(server.peakRequestsInFlight == 1)
            let twoSearchesAndTwentyRecords: Int = 2 + 20   // summed outside #expect: slow to type-check inside
            #expect(server.apiRequests.count == twoSearchesAndTwentyRecords)
        }
    }
}

// MARK: - Helpers

extension ServerRequest {
    var isSearch: Bool { queryItems.contains { $0.name == "s" } }
    /// The page number of a search request.
    var searchPage: Int? {
        guard isSearch else { return nil }
        return Int(queryItems.first { $0.name == "page" }?.value ?? "1")
    }
    /// The imdbID of a by-ID request.
    var recordID: String? { queryItems.first { $0.name == "i" }?.value }
}

extension FakeOMDbServer {
    /// The options pointing `movies` at this server with its key.
    var arguments: [String] { ["--base-url", baseURL.absoluteString, "--api-key", FakeOMDbServer.validKey] }

    /// The page numbers of the searches received, in arrival order.
    var searchPages: [Int] { apiRequests.compactMap(\.searchPage) }

    func expectNothingAskedTwice(sourceLocation: SourceLocation = #_sourceLocation) {
        let targets = requests.map(\.target)
        let repeated = Dictionary(grouping: targets, by: { $0 }).filter { $0.value.count > 1 }.keys
        #expect(repeated.isEmpty, "asked more than once: \(repeated.sorted())", sourceLocation: sourceLocation)
    }

    /// Suspends until the page numbers searched, in arrival order, are `pages`.
    func waitForSearchPages(_ pages: [Int]) async throws {
        try await waitForRequests("searches of pages \(pages)") { $0.filter { $0.method != "HEAD" }.compactMap(\.searchPage) == pages }
    }
}

/// Holds every answer until `count` non-search requests have arrived (60 s at most: far past any
/// machine's delay, and remembered, so the test fails when it runs out).
final class Barrier: Sendable {
    private let latch = Latch()
    private let arrived = Mutex(0)
    private let count: Int

    init(count: Int) { self.count = count }

    func arrive(isSearch: Bool) {
        guard !isSearch else { return }
        if arrived.withLock({ $0 += 1; return $0 }) >= count { latch.open() }
        latch.wait(timeout: .seconds(60))
    }

    var timedOut: Bool { latch.timedOut }
}
