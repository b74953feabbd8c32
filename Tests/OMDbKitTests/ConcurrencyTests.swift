import Foundation
import Testing
@testable import OMDbKit
import Synchronization

/// What a library user meets when calling the client from several tasks at once.
@Suite struct ConcurrencyTests {
    private func record(_ id: String) -> HTTPResponse {
        json(#"{"Title":"Film \#(id)","Year":"2000","imdbID":"\#(id)","Type":"movie","Plot":"p","Response":"True"}"#)
    }

    @Test func twoCallersForOneRecordShareOneRequest() async throws {
        let log = RequestLog()
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            log.record(url)
            try await Task.sleep(for: .milliseconds(200))
            return record(url.query("i")!)
        })
        async let first = client.movie(imdbID: "tt0000001")
        async let second = client.movie(imdbID: "tt0000001")
        let (a, b) = try await (first, second)
        #expect(a == b)
        #expect(log.all.count == 1)
    }

    @Test func twoCallersForOnePosterShareOneDownload() async throws {
        try await withTemporaryFolder { folder in
            let log = RequestLog()
            let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
                log.record(url)
                try await Task.sleep(for: .milliseconds(200))
                return HTTPResponse(statusCode: 200, body: pngBytes)
            })
            let item = SearchItem(imdbID: "tt0000001", title: "Film", year: nil, type: .movie, posterURL: URL(string: "http://127.0.0.1/p.jpg"))
            let store = PosterStore(folder: folder)
            async let first = client.poster(for: item, in: store)
            async let second = client.poster(for: item, in: store)
            let (a, b) = try await (first, second)
            #expect(a.file == b.file)
            #expect(log.all.count == 1)
            #expect(files(in: folder) == ["Film [tt0000001].png"])
        }
    }

    @Test func nextPageDoesNotCancelANewerSearch() async throws {
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            let text = url.query("s")!
            if text == "new" { try await Task.sleep(for: .milliseconds(300)) }
            let rows = (1...10).map { #"{"Title":"\#(text)","imdbID":"tt\#(text == "old" ? "1" : "2")00000\#($0 - 1)","Type":"movie"}"# }
            return json(#"{"Search":[\#(rows.joined(separator: ","))],"totalResults":"30","Response":"True"}"#)
        })
        _ = try await client.search("old")
        let newer = Task { try await client.search("new") }
        try await Task.sleep(for: .milliseconds(50))
        // The cursor now belongs to the search in flight: there is nothing to continue.
        await #expect(throws: OMDbError.noSearchYet) { try await client.nextPage() }
        let page = try await newer.value
        #expect(page.items.first?.title == "new")
    }

    @Test func aFailedSearchStillReplacesTheCursor() async throws {
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            if url.query("s") == "nothing" { return json(#"{"Response":"False","Error":"Movie not found!"}"#) }
            let rows = (1...10).map { #"{"Title":"t","imdbID":"tt000000\#($0 - 1)","Type":"movie"}"# }
            return json(#"{"Search":[\#(rows.joined(separator: ","))],"totalResults":"30","Response":"True"}"#)
        })
        _ = try await client.search("toxic")
        await #expect(throws: OMDbError.notFound(query: "nothing")) { try await client.search("nothing") }
        await #expect(throws: OMDbError.noSearchYet) { try await client.nextPage() }
    }

    @Test func detailsNeverRunMoreChildrenThanTheLimit() async throws {
        let inFlight = Mutex((now: 0, peak: 0))
        let client = OMDbClient(configuration: .init(apiKey: "k", maxConcurrentRequests: 3), transport: ClosureTransport { url in
            inFlight.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
            try await Task.sleep(for: .milliseconds(50))
            inFlight.withLock { $0.now -= 1 }
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
            let plotSeen = Mutex(false)
            let posterWaitedInVain = Mutex(false)
            let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
                if url.query("i") == nil {
                    let clock = ContinuousClock()
                    let deadline = clock.now + .seconds(10)
                    while !plotSeen.withLock({ $0 }), clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
                    posterWaitedInVain.withLock { $0 = !plotSeen.withLock { $0 } }
                    return HTTPResponse(statusCode: 200, body: pngBytes)
                }
                return record(url.query("i")!)
            })
            let item = SearchItem(imdbID: "tt0000001", title: "t", year: nil, type: .movie, posterURL: URL(string: "http://127.0.0.1/p.jpg"))
            var arrivals: [Bool] = []
            for await update in client.details(for: [item], posters: PosterStore(folder: folder)) {
                arrivals.append(update.isRecord)
                if update.isRecord { plotSeen.withLock { $0 = true } }
            }
            #expect(arrivals == [true, false])
            #expect(!posterWaitedInVain.withLock { $0 })
        }
    }
}

@Suite struct KeyNeverInTextTests {
    static let key = "SECRETKEY123"

    @Test func serverTextThatEchoesTheKeyIsRedacted() async {
        let client = OMDbClient(configuration: .init(apiKey: Self.key), transport: ClosureTransport { url in
            json(#"{"Response":"False","Error":"Bad key \#(Self.key) for \#(url.absoluteString)"}"#, status: 200)
        })
        await #expect {
            try await client.search("alien")
        } throws: { error in
            guard case OMDbError.server(let message, _) = error else { return false }
            return !message.contains(Self.key) && !"\(error)".contains(Self.key) && message.contains("Bad key ***")
        }
    }

    @Test func configurationNeverPrintsTheKey() {
        let configuration = OMDbClient.Configuration(apiKey: Self.key, baseURL: URL(string: "http://127.0.0.1:1/?apikey=\(Self.key)")!)
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
