import FakeOMDb
import Foundation
import OMDbTestSupport
import Testing
@testable import OMDbKit
import Synchronization
import TestSupport

/// What a library user meets when calling the client from several tasks at once.
@Suite struct ConcurrencyTests {
    private func record(_ id: String) -> HTTPResponse {
        json(#"{"Title":"Film \#(id)","Year":"2000","imdbID":"\#(id)","Type":"movie","Plot":"p","Response":"True"}"#)
    }

    @Test func twoCallersForOneRecordShareOneRequest() async throws {
        let log = RequestLog()
        // The answer waits until both callers are in: the second joins the first's request.
        let bothIn = Latch()
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            log.record(url)
            try await bothIn.wait(for: "the second caller to join")
            return record(url.query("i")!)
        })
        async let first = client.movie(imdbID: "tt0000001")
        async let second = client.movie(imdbID: "tt0000001")
        try await waitUntil("both callers to wait on one load") { client.records.flights.waiters(for: .title(imdbID: "tt0000001", plot: .short)) == 2 }
        bothIn.open()
        let (a, b) = try await (first, second)
        #expect(a == b)
        #expect(log.all.count == 1)
    }

    @Test func twoCallersForOnePosterShareOneDownload() async throws {
        try await withTemporaryFolder { folder in
            let log = RequestLog()
            // The download waits until both callers are in: the second joins the first's, or
            // (without the single flight) starts its own, which the log counts.
            let bothIn = Latch()
            let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
                log.record(url)
                try await bothIn.wait(for: "the second caller to join")
                return HTTPResponse(statusCode: 200, body: pngBytes)
            })
            let item = SearchItem(imdbID: "tt0000001", title: "Film", year: nil, type: .movie, posterURL: URL(string: "http://127.0.0.1/p.jpg"))
            let store = PosterStore(folder: folder)
            async let first = client.poster(for: item, in: store)
            async let second = client.poster(for: item, in: store)
            let key = [store.folder.path, item.imdbID]
            try await waitUntil("both callers to wait on one poster load") { client.posters.waiters(for: key) == 2 }
            bothIn.open()
            let (a, b) = try await (first, second)
            #expect(a.file == b.file)
            #expect(log.all.count == 1)
            #expect(files(in: folder) == ["Film [tt0000001].png"])
        }
    }

    /// Two searches at once through one client both complete: neither cancels nor waits for the other.
    @Test func twoSearchesAtOnceBothComplete() async throws {
        // The newer search's request is held at the transport until the older has its page 2.
        let newSent = Latch()
        let release = Latch()
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            let text = url.query("s")!
            if text == "new" {
                newSent.open()
                try await release.wait(for: "the test to release the newer search")
            }
            let rows = (1...10).map { #"{"Title":"\#(text)","imdbID":"tt\#(text == "old" ? "1" : "2")00000\#($0 - 1)","Type":"movie"}"# }
            return json(#"{"Search":[\#(rows.joined(separator: ","))],"totalResults":"30","Response":"True"}"#)
        })
        let search = client.search("old")
        _ = try await search.next()
        let newer = Task { try await client.search("new").next() }
        try await newSent.wait(for: "the newer search to reach the transport")
        // The older search goes on while the newer one is in flight: neither is the other's.
        #expect(try await search.next().number == 2)
        release.open()
        let page = try await newer.value
        #expect(page.items.first?.title == "new" && page.number == 1)
    }

    /// Two searches of one query share the request for a page both ask for at once, and each
    /// keeps its own place.
    @Test func onePageAskedByTwoSearchesIsOneRequest() async throws {
        let log = RequestLog(), bothIn = Latch()
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            log.record(url)
            try await bothIn.wait(for: "both searches to ask for page 1")
            let page = Int(url.query("page") ?? "1")!
            let rows = (0..<10).map { #"{"Title":"t","imdbID":"tt\#(String(format: "%07d", page * 100 + $0))","Type":"movie"}"# }
            return json(#"{"Search":[\#(rows.joined(separator: ","))],"totalResults":"30","Response":"True"}"#)
        })
        let (one, other) = (client.search("film"), client.search("film"))
        async let first = one.next()
        async let second = other.next()
        let page1 = OMDbRequest.search(SearchQuery(text: "film"), page: 1)
        try await waitUntil("both searches to wait on page 1") { client.pages.flights.waiters(for: page1) == 2 }
        bothIn.open()
        let (a, b) = try await (first, second)
        #expect(a.items.map(\.imdbID) == b.items.map(\.imdbID))
        #expect(log.all.count == 1)
        #expect(try await one.next().number == 2)
        #expect(other.lastPage?.number == 1)
    }

    /// A search that finds nothing (a typo) leaves the earlier search to continue: the prompt
    /// keeps its rows, and `more` goes on with them.
    @Test func aFailedSearchLeavesTheEarlierSearchToContinue() async throws {
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            if url.query("s") == "nothing" { return json(#"{"Response":"False","Error":"Movie not found!"}"#) }
            let rows = (1...10).map { #"{"Title":"t","imdbID":"tt000000\#($0 - 1)","Type":"movie"}"# }
            return json(#"{"Search":[\#(rows.joined(separator: ","))],"totalResults":"30","Response":"True"}"#)
        })
        let search = client.search("toxic")
        _ = try await search.next()
        await #expect(throws: OMDbError.notFound(query: "nothing")) { try await client.search("nothing").next() }
        let next = try await search.next()
        #expect(next.query.text == "toxic" && next.number == 2)
    }

    @Test func detailsNeverRunMoreChildrenThanTheLimit() async throws {
        let inFlight = Mutex((now: 0, peak: 0))
        // Every request is held until three were in flight at once: the limit is reached, not just allowed.
        let limitReached = Latch()
        let client = OMDbClient(configuration: .init(apiKey: "k", maxConcurrentRequests: 3), transport: ClosureTransport { url in
            if inFlight.withLock({ $0.now += 1; $0.peak = max($0.peak, $0.now); return $0.now }) >= 3 { limitReached.open() }
            defer { inFlight.withLock { $0.now -= 1 } }
            try await limitReached.wait(for: "three requests in flight at once")
            return record(url.query("i")!)
        })
        let items = (1...10).map { SearchItem(imdbID: "tt000000\($0)", title: "t", year: nil, type: .movie, posterURL: nil) }
        let updates = await collect(client.details(for: items))
        #expect(updates.count == 10)
        #expect(inFlight.withLock { $0.peak } == 3)
    }

    @Test func aPlotIsReportedWithoutWaitingForItsPoster() async {
        await withTemporaryFolder { folder in
            // The poster download only finishes once the plot has reached the consumer: if the
            // plot waited for the poster, the poster would give up after 10 s and say so.
            let plotSeen = Latch()
            let posterWaitedInVain = Mutex(false)
            let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
                if url.query("i") == nil {
                    do { try await plotSeen.wait(for: "the plot to reach the consumer") } catch is LatchTimeout {
                        posterWaitedInVain.withLock { $0 = true }
                    }
                    return HTTPResponse(statusCode: 200, body: pngBytes)
                }
                return record(url.query("i")!)
            })
            let item = SearchItem(imdbID: "tt0000001", title: "t", year: nil, type: .movie, posterURL: URL(string: "http://127.0.0.1/p.jpg"))
            var arrivals: [Bool] = []
            for await update in client.details(for: [item], posters: PosterStore(folder: folder)) {
                arrivals.append(update.isRecord)
                if update.isRecord { plotSeen.open() }
            }
            #expect(arrivals == [true, false])
            #expect(!posterWaitedInVain.withLock { $0 })
        }
    }
}

@Suite struct KeyNeverInTextTests {
    static let key = "SECRETKEY123"

    @Test func serverTextThatEchoesTheKeyIsRedacted() async {
        let client = OMDbClient(configuration: .init(apiKey: APIKey(Self.key)), transport: ClosureTransport { url in
            json(#"{"Response":"False","Error":"Bad key \#(Self.key) for \#(url.absoluteString)"}"#, status: 200)
        })
        await #expect {
            try await client.search("alien").next()
        } throws: { error in
            guard case OMDbError.server(let message, _) = error else { return false }
            return !message.contains(Self.key) && !"\(error)".contains(Self.key) && message.contains("Bad key ***")
        }
    }

    @Test func configurationNeverPrintsTheKey() {
        let configuration = OMDbClient.Configuration(apiKey: APIKey(Self.key), baseURL: URL(string: "http://127.0.0.1:1/?apikey=\(Self.key)")!)
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [String(describing: configuration), String(reflecting: configuration), dumped, "\(configuration)"] {
            #expect(!text.contains(Self.key), "\(text)")
            #expect(text.contains("***"))
        }
    }

    @Test(arguments: [OMDbError.dataUnavailable, .incorrectIMDbID("tt1"), .notFound(query: "x")])
    func notFoundLikeAnswersAreNoResults(error: OMDbError) {
        #expect(error.isNoResults)
    }

    @Test(arguments: [OMDbError.invalidAPIKey, .quotaExhausted, .httpStatus(500, url: "u"), .tooManyResults(query: "a")])
    func failuresAreNotNoResults(error: OMDbError) {
        #expect(!error.isNoResults)
    }
}

/// Cancellation reaches the network, and shared requests let go of the callers that leave.
@Suite struct CancellationReachesTheNetworkTests {
    /// A transport whose record requests are held until the test releases them (or cancels them),
    /// counting the cancellations it sees.
    private final class Sleepy: Sendable {
        let started = Watched(0)
        let cancelled = Watched(0)
        let finished = Watched(0)
        /// Opened by the test to let held requests end.
        let release = Latch()
        /// How many requests are held (the first ones); later ones answer at once.
        let held: Int
        /// Makes a held request wait for the release regardless of its cancellation.
        let ignoresCancellation: Bool

        init(held: Int = .max, ignoresCancellation: Bool = false) {
            self.held = held
            self.ignoresCancellation = ignoresCancellation
        }

        var transport: ClosureTransport {
            ClosureTransport { [self] url in
                let number = started.update { $0 += 1; return $0 }
                if number <= held {
                    if ignoresCancellation {
                        // A task of its own, not cancelled with the request: the wait goes on.
                        try await Task.detached { [release] in try await release.wait(for: "the test to release the request") }.value
                    } else {
                        do { try await release.wait(for: "the test to release the request") } catch is CancellationError {
                            cancelled.update { $0 += 1 }
                            throw CancellationError()
                        }
                    }
                }
                finished.update { $0 += 1 }
                let id = url.query("i") ?? "tt0000000"
                return json(#"{"Title":"t","imdbID":"\#(id)","Type":"movie","Response":"True"}"#)
            }
        }
    }

    @Test func droppingTheDetailsStreamCancelsEveryRequest() async throws {
        let sleepy = Sleepy()
        let client = OMDbClient(configuration: .init(apiKey: "k", timeout: 600), transport: sleepy.transport)
        let items = (1...10).map { SearchItem(imdbID: "tt000000\($0)", title: "t", year: nil, type: .movie, posterURL: nil) }
        let consumer = Task { await collect(client.details(for: items)) }
        try await sleepy.started.wait("ten requests started") { $0 == 10 }
        consumer.cancel()
        #expect(await consumer.value.isEmpty)
        try await sleepy.cancelled.wait("ten requests cancelled") { $0 == 10 }
    }

    @Test func aCancelledWaiterLeavesAtOnceAndTheOtherStillGetsTheRecord() async throws {
        let sleepy = Sleepy()
        let client = OMDbClient(configuration: .init(apiKey: "k", timeout: 600), transport: sleepy.transport)
        let leaving = Task { try await client.movie(imdbID: "tt0000001") }
        let staying = Task { try await client.movie(imdbID: "tt0000001") }
        try await sleepy.started.wait("the request to start") { $0 == 1 }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        // It left while the shared request was still held, and that request was not cancelled.
        #expect(sleepy.finished.value == 0)
        sleepy.release.open()
        #expect(try await staying.value.imdbID == "tt0000001")
        #expect(sleepy.cancelled.value == 0)
        #expect(sleepy.started.value == 1)
    }

    @Test func whenEveryWaiterLeavesTheRequestIsCancelled() async throws {
        let sleepy = Sleepy()
        let client = OMDbClient(configuration: .init(apiKey: "k", timeout: 600), transport: sleepy.transport)
        let first = Task { try await client.movie(imdbID: "tt0000001") }
        let second = Task { try await client.movie(imdbID: "tt0000001") }
        try await sleepy.started.wait("the request to start") { $0 == 1 }
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(sleepy.cancelled.value == 0)
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
        try await sleepy.cancelled.wait("the request to be cancelled") { $0 == 1 }
    }

    @Test func aCallerAfterEveryoneLeftStartsAFreshRequest() async throws {
        // The abandoned request ignores its cancellation and is held until the newcomer has its
        // record: a newcomer must not join it.
        let sleepy = Sleepy(held: 1, ignoresCancellation: true)
        defer { sleepy.release.open() }
        let client = OMDbClient(configuration: .init(apiKey: "k", timeout: 600), transport: sleepy.transport)
        let leaving = Task { try await client.movie(imdbID: "tt0000001") }
        try await sleepy.started.wait("the request to start") { $0 == 1 }
        leaving.cancel()
        await #expect(throws: CancellationError.self) { try await leaving.value }
        let movie = try await client.movie(imdbID: "tt0000001")
        #expect(movie.imdbID == "tt0000001")
        #expect(sleepy.started.value == 2)
        #expect(sleepy.finished.value == 1, "the abandoned request ended before the newcomer was answered")
    }

    @Test func notFoundAnswersAreRememberedNotAskedAgain() async {
        let log = RequestLog()
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            log.record(url)
            return json(#"{"Response":"False","Error":"Error getting data."}"#)
        })
        for _ in 0..<3 {
            await #expect(throws: OMDbError.dataUnavailable) { try await client.movie(imdbID: "tt0000001") }
        }
        #expect(log.all.count == 1)
    }

    @Test func transientFailuresAreAskedAgain() async {
        let log = RequestLog()
        let client = OMDbClient(configuration: .init(apiKey: "k", retry: quickRetries), transport: ClosureTransport { url in
            log.record(url)
            return HTTPResponse(statusCode: 503, body: Data())
        })
        for _ in 0..<2 {
            await #expect(throws: OMDbError.self) { try await client.movie(imdbID: "tt0000001") }
        }
        // Three attempts each time, and the failure is not remembered between the calls.
        #expect(log.all.count == 6)
    }
}
