import FakeOMDb
import Foundation
@testable import OMDbKit
import Synchronization
import OMDbTestSupport
import Testing
import TestSupport

/// The client with a disk cache and a request counter, over the fake OMDb server on 127.0.0.1.
@Suite struct ClientCacheTests {
    static func client(_ server: FakeOMDbServer, cache: DiskCache?) -> OMDbClient {
        var configuration = OMDbClient.Configuration(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: server.baseURL)
        configuration.cache = cache
        return OMDbClient.live(configuration)
    }

    @Test func aSecondClientOnTheSameFolderSendsNothingAndCountsNothing() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let firstCache = DiskCache(folder: folder)
            let first = Self.client(server, cache: firstCache)
            let page = try await first.search("toxic").next()
            _ = await collect(first.details(for: page.items, posters: PosterStore(folder: folder.appendingPathComponent("p"))))
            firstCache.waitForWrites()
            #expect(server.apiRequests.count == 11)
            #expect(first.apiRequestCount == 11)

            let cache = DiskCache(folder: folder)
            let second = Self.client(server, cache: cache)
            let again = try await second.search("toxic").next()
            let updates = await collect(second.details(for: again.items))
            #expect(again.items == page.items)
            #expect(updates.count(where: \.isRecord) == 10)
            #expect(server.apiRequests.count == 11)
            #expect(second.apiRequestCount == 0)
            #expect(cache.hits == 11)
            // Posters are not API answers: never in this cache.
            #expect(cache.summary().entries == 11)
        }
    }

    @Test func notFoundIsCachedButARefusedKeyIsNot() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let cache = DiskCache(folder: folder)
            await #expect(throws: OMDbError.notFound(query: "qqqzzzxx")) { try await Self.client(server, cache: cache).search("qqqzzzxx").next() }
            // The same "no" again, said as kept: OMDb may answer otherwise now.
            let again = await #expect(throws: OMDbError.self) { try await Self.client(server, cache: cache).search("qqqzzzxx").next() }
            #expect(again?.underlying == .notFound(query: "qqqzzzxx"))
            #expect({ if case .fromCache? = again { true } else { false } }())
            #expect(again?.isNoResults == true)
            #expect(server.apiRequests.count == 1)
            var refused = OMDbClient.Configuration(apiKey: "wrong-key-1", baseURL: server.baseURL)
            refused.cache = cache
            for _ in 0..<2 {
                await #expect(throws: OMDbError.invalidAPIKey) { try await OMDbClient.live(refused).search("alien").next() }
            }
            #expect(server.apiRequests.count == 3)
        }
    }

    @Test(arguments: [("up", nil, "tt1049413"), ("it", nil, "tt1396484"), ("it", SearchType.series, "tt0099864"), ("9", nil, "tt0472033")] as [(String, SearchType?, String)])
    func exactTitleFindsOMDbsBestMatch(title: String, type: SearchType?, id: String) async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        let client = Self.client(server, cache: nil)
        await #expect(throws: OMDbError.tooManyResults(query: title)) { try await client.search(title, type: type).next() }
        let movie = try await client.movie(exactTitle: SearchQuery(text: title, type: type))
        #expect(movie.imdbID == id)
        #expect(server.apiRequests.last?.queryItems.contains { $0.name == "t" && $0.value == title } == true)
        await #expect(throws: OMDbError.notFound(query: "up")) { try await client.movie(exactTitle: SearchQuery(text: "up", year: 1990)) }
    }

    /// Issue 21, finding 4: a 200 that is not OMDb's JSON (`{"Response":"True"}` with no `Search`)
    /// was kept for OMDb's day of `max-age`, and the search kept failing after the server recovered.
    @Test(arguments: [#"{"Response":"True"}"#, #"{"Response":"True","Search":[],"totalResults":"-5"}"#])
    func aBrokenAnswerIsNeverKept(broken: String) async throws {
        try await withTemporaryFolder { folder in
            let isBroken = Mutex(true)
            let server = try FakeOMDbServer(catalogue: catalogue) { request in
                guard isBroken.withLock({ $0 }), !request.path.hasPrefix("/posters/") else { return nil }
                return ServerResponse(headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=86400"], body: Data(broken.utf8))
            }
            defer { server.shutdown() }
            let cache = DiskCache(folder: folder)
            await #expect(throws: OMDbError.self) { try await Self.client(server, cache: cache).search("toxic").next() }
            cache.waitForWrites()
            #expect(cache.summary().entries == 0)
            isBroken.withLock { $0 = false }
            let page = try await Self.client(server, cache: cache).search("toxic").next()
            cache.waitForWrites()
            #expect(!page.items.isEmpty)
            #expect(server.apiRequests.count == 2)
            #expect(cache.summary().entries == 1)
        }
    }

    /// One kept before this rule (or damaged since) is forgotten and asked for again, not served.
    @Test func aKeptAnswerThatNoLongerDecodesIsAskedForAgain() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let cache = DiskCache(folder: folder)
            let page = try await Self.client(server, cache: cache).search("toxic").next()
            cache.waitForWrites()
            #expect(server.apiRequests.count == 1)
            // Replace the kept answer with a broken one of the same request.
            let name = try #require(files(in: folder).first { $0.hasSuffix(".entry") })
            let key = try #require(CacheEntry(decoding: Data(contentsOf: folder.appendingPathComponent(name)))?.key)
            try CacheEntry(key: key, expires: Date().addingTimeInterval(3_600), status: 200, contentType: nil, body: Data(#"{"Response":"True"}"#.utf8))
                .encoded().write(to: folder.appendingPathComponent(name))
            let again = try await Self.client(server, cache: cache).search("toxic").next()
            #expect(again.items == page.items)
            #expect(server.apiRequests.count == 2)
        }
    }
}
