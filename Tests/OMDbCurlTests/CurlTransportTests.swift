import FakeOMDb
import Foundation
@testable import OMDbCurl
import Synchronization
import OMDbTestSupport
import Testing
@testable import OMDbKit
import TestSupport

/// What makes the libcurl transport fast, checked by counting, not timing: connections per host
/// per page, warm-ups that carry no key, transfers paused and resumed, a cancel that touches
/// nothing else. Real sockets on 127.0.0.1, each test its own server.
@Suite struct CurlTransportOverFakeServerTests {
    private static func configuration(_ server: FakeOMDbServer, concurrency: Int = 4) -> OMDbClient.Configuration {
        .init(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: server.baseURL, timeout: 10, maxConcurrentRequests: concurrency, retry: RetryPolicy())
    }

    @Test func connectionsAreKeptAcrossPagesNeverMoreThanTheLimit() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let client = OMDbClient.live(Self.configuration(server, concurrency: 4))
            let store = PosterStore(folder: folder)
            let search = client.search("star")
            var page = try await search.next()
            for _ in 1...3 {
                _ = await collect(client.details(for: page.items, posters: store))
                page = try await search.next()
            }
            // HTTP/1.1 here: a connection per request in flight, at most 4, and each kept for the
            // next page (URLSession closed them at the end of every page).
            #expect(server.requests.count > 40)
            #expect((1...4).contains(server.connectionCount))
        }
    }

    @Test func aWarmUpOpensTheConnectionWithoutTheKeyAndIsNotCounted() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        let client = OMDbClient.live(Self.configuration(server, concurrency: 1))
        let transport = try #require(client.transport as? CurlTransport)
        // OMDb's host and the posters host are one server here: one warm-up, not two.
        transport.preconnect(server.baseURL)
        transport.preconnect(server.baseURL.appendingPathComponent("posters/x.jpg"))
        try await server.waitForRequests("the warm-up to reach the server") { $0.count { $0.method == "HEAD" } == 1 }
        let warmUp = try #require(server.warmUps.first)
        #expect(warmUp.target == "/")
        #expect(!warmUp.target.contains(FakeOMDbServer.validKey) && !warmUp.target.contains("apikey"))
        #expect(client.apiRequestCount == 0)
        _ = try await client.search("star").next()
        #expect(server.connectionCount == 1, "the search opened its own connection instead of the warm one")
        #expect(client.apiRequestCount == 1)
        // Fresh: asking again sends nothing.
        transport.preconnect(server.baseURL)
        _ = try await client.search("alien").next()
        #expect(server.warmUps.count == 1)
    }

    /// A one-shot search opens the posters host behind OMDb's, not ahead of it, so that the
    /// page's own handshake comes first (issue 22). One server stands for both hosts here: the
    /// posters origin is its https address (its TLS hello is answered with a 400), so the order it
    /// accepted the two connections in is the order the engine opened them in.
    @Test func aHostOpenedAfterTheNextRequestIsConnectedBehindIt() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        let client = OMDbClient.live(Self.configuration(server, concurrency: 1))
        var posters = try #require(URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false))
        posters.scheme = "https"
        try #require(client.transport as? CurlTransport).preconnect(try #require(posters.url), afterNextRequest: true)
        _ = try await client.search("star").next()
        try await waitUntil("the posters host to be opened") { server.connectionCount == 2 }
        let search = try #require(server.apiRequests.first)
        #expect(search.connection == 1, "the posters host was opened ahead of the search")
    }

    @Test func aReaderBehindPausesTheTransferAndEveryByteArrivesWhenItReads() async throws {
        let body = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 251) })
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in ServerResponse(headers: ["Content-Type": "image/jpeg"], body: body) }
        defer { server.shutdown() }
        let transport = OMDbClient.liveTransport(for: Self.configuration(server))
        let response = try await transport.send(TransportRequest(url: server.baseURL.appendingPathComponent("posters/big.jpg"), timeout: 10))
        // Nobody reads yet: the transfer must pause, not take 3 MB into memory.
        try await waitUntil("the transfer to pause") { transport.pauses >= 1 }
        #expect(try await response.body.collect(upTo: .max) == body)
    }

    /// A request refused before it reached the server is no request OMDb counts: the daily count
    /// (and the session's) stays where it was, whatever the retries. It counted 1 a failed search.
    @Test func aConnectionRefusedIsNotCountedAsARequest() async throws {
        // A port kept bound and never listened on: a server shut down gave its port back, and a
        // parallel test's server (a connection-reset fault) was once given it.
        let port = try SilentListener(listening: false)
        let closed = URL(string: "http://127.0.0.1:\(port.port)/")!
        let client = OMDbClient.live(.init(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: closed, timeout: 5, retry: quickRetries))
        await #expect {
            try await client.search("alien").next()
        } throws: { error in
            guard case OMDbError.unreachable(_, let reason) = error else { return false }
            return reason == "connection refused"
        }
        #expect(client.apiRequestCount == 0)
        withExtendedLifetime(port) {}
    }

    /// An answer handed out is read to its end even once the transport that sent it is gone.
    @Test func anAnswerOutlivesItsTransport() async throws {
        let body = Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in ServerResponse(headers: ["Content-Type": "image/jpeg"], body: body) }
        defer { server.shutdown() }
        let response: TransportResponse
        do {
            let transport = OMDbClient.liveTransport(for: Self.configuration(server))
            response = try await transport.send(TransportRequest(url: server.baseURL.appendingPathComponent("posters/big.jpg"), timeout: 10))
        }
        #expect(try await response.body.collect(upTo: .max) == body)
    }

    @Test func aCancelledTransferLeavesTheOthersAlone() async throws {
        let body = Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in ServerResponse(headers: ["Content-Type": "image/jpeg"], body: body) }
        defer { server.shutdown() }
        let transport = OMDbClient.liveTransport(for: Self.configuration(server))
        let url = server.baseURL.appendingPathComponent("posters/big.jpg")
        let reading = Latch()
        let doomed = Task {
            let response = try await transport.send(TransportRequest(url: url, timeout: 10))
            var iterator = response.body.makeAsyncIterator()
            _ = try await iterator.next()
            reading.open()
            while try await iterator.next() != nil {}
        }
        let neighbour = try await transport.send(TransportRequest(url: url, timeout: 10))
        try await reading.wait(for: "the doomed transfer to start reading")
        doomed.cancel()
        _ = await doomed.result
        #expect(try await neighbour.body.collect(upTo: .max) == body)
        let after = try await transport.send(TransportRequest(url: url, timeout: 10))
        #expect(try await after.body.collect(upTo: .max) == body)
    }
}

extension CurlTransportOverFakeServerTests {
    /// `gzip -1` of a JPEG header and `size` zeros: a few hundred kB that inflate to `size`.
    private static func gzipBomb(inflating size: Int) throws -> Data {
        try #require(commandOutput(["sh", "-c", "(printf '\\377\\330\\377\\340'; head -c \(size) /dev/zero) | gzip -1 -c"]))
    }

    /// Posters compressed to a few hundred kB that inflate to 100 MB: each is refused once its
    /// decoded bytes pass the poster limit (the cap counts what libcurl decoded, not what came
    /// over the wire), and every record of the page still arrives. Under URLSession such posters
    /// cost 7 plots of 10 ("URLSession is stuck").
    @Test func compressedPostersAreRefusedAtTheLimitOfDecodedBytesAndEveryRecordArrives() async throws {
        let bomb = try Self.gzipBomb(inflating: 100_000_000)
        #expect(bomb.count < 1_000_000)
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.always(
                ServerResponse(headers: ["Content-Type": "image/jpeg", "Content-Encoding": "gzip"], body: bomb), where: FaultPlan.posters))
            defer { server.shutdown() }
            let client = OMDbClient.live(Self.configuration(server, concurrency: 20))
            let page = try await client.search("star").next()
            let byID = rows(await collect(client.details(for: page.items, posters: PosterStore(folder: folder))))
            #expect(byID.count == page.items.count)
            #expect(byID.values.allSatisfy { (try? $0.movie?.get()) != nil }, "a record was lost")
            let withPosters = page.items.filter { $0.posterURL != nil }.map(\.imdbID)
            #expect(!withPosters.isEmpty)
            for id in withPosters {
                #expect {
                    try byID[id]?.poster?.get()
                } throws: { error in
                    guard case OMDbError.posterTooLarge(let bytes, let limit) = error else { return false }
                    return bytes > limit && bytes < limit + 1_000_000
                }
            }
            #expect(files(in: folder).isEmpty)
        }
    }
}


/// Which redirects a request carrying the key may follow: its own origin, or the upgrade of it to
/// https on the usual ports; never another host or port (the key would go there).
@Suite struct RedirectRuleTests {
    @Test(arguments: [
        ("http://127.0.0.1:8080/?apikey=k", "http://127.0.0.1:8080/moved?apikey=k", true),
        ("http://example.com/?apikey=k", "https://example.com/?apikey=k", true),
        ("http://example.com:80/?apikey=k", "https://example.com:443/?apikey=k", true),
        ("http://127.0.0.1:19002/?apikey=k", "https://127.0.0.1:19001/?apikey=k", false),
        ("https://example.com/?apikey=k", "http://example.com/?apikey=k", false),
        ("https://example.com/?apikey=k", "https://example.com:8443/?apikey=k", false),
        ("https://example.com/?apikey=k", "https://other.example/?apikey=k", false),
        ("https://m.media-amazon.com/a.jpg", "https://other.example/b.jpg", true),
    ])
    func aRequestWithTheKeyFollowsOnlyWithinItsOrigin(from: String, to: String, allowed: Bool) {
        #expect(CurlTransfer.mayFollow(from: URL(string: from)!, to: URL(string: to)!, secrets: ["apikey"]) == allowed)
    }
}
