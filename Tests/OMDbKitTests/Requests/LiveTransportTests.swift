import FakeOMDb
import Foundation
import Synchronization
import OMDbTestSupport
import Testing
@testable import OMDbKit
import TestSupport

/// The live libcurl transport against the fake OMDb on 127.0.0.1: real sockets, each test its own server.
@Suite struct LiveTransportOverFakeServerTests {
    private func client(_ server: FakeOMDbServer, key: String = FakeOMDbServer.validKey, timeout: Int = 5) -> OMDbClient {
        OMDbClient.live(.init(apiKey: APIKey(key), baseURL: server.baseURL, timeout: timeout))
    }

    @Test func searchDetailsAndPostersOverHTTP() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let client = client(server)
            let page = try await client.search("toxic").next()
            #expect(page.items.count == 10)
            let updates = await collect(client.details(for: page.items, posters: PosterStore(folder: folder)))
            let byID = rows(updates)
            let recordAndPosterForEach: Int = 10 + 10   // summed outside #expect: slow to type-check inside
            #expect(updates.count == recordAndPosterForEach)
            #expect(byID.count == 10)
            #expect(byID.values.allSatisfy { (try? $0.movie?.get()) != nil })
            #expect(files(in: folder).count == 5)
            #expect(server.apiRequests.count == 11)
            #expect(server.posterRequests.count == 7)   // three of the ten have no poster (N/A)
        }
    }

    @Test func queryTextArrivesIntactAtTheServer() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        for text in ["tom & jerry", "Amélie", "千と千尋", "C++"] {
            _ = try? await client(server).search(text).next()
        }
        #expect(server.apiRequests.compactMap { $0.queryItems.first { $0.name == "s" }?.value } == ["tom & jerry", "Amélie", "千と千尋", "C++"])
    }

    /// A redirect whose `Location` echoes the query (as a www or https redirect does) must not
    /// take the key to another host; within the same origin it is followed.
    @Test(arguments: [false, true]) func keyNeverFollowsARedirectToAnotherHost(sameOrigin: Bool) async throws {
        let other = try FakeOMDbServer(catalogue: catalogue)
        defer { other.shutdown() }
        let otherOrigin = other.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let redirecting = try FakeOMDbServer(catalogue: catalogue) { request in
            request.path == "/moved" ? nil : ServerResponse(status: 302, headers: ["Location": sameOrigin ? "/moved?" + (request.target.split(separator: "?").last.map(String.init) ?? "") : otherOrigin + request.target])
        }
        defer { redirecting.shutdown() }
        do {
            _ = try await client(redirecting).search("alien").next()
        } catch {
            #expect(sameOrigin || "\(error)".contains("HTTP 302 (a redirect to another host or port"))
        }
        #expect(other.apiRequests.isEmpty)
        #expect(redirecting.apiRequests.count == (sameOrigin ? 2 : 1))
    }

    /// A --base-url copied with the key in it (`?apikey=KEY`, or `user:KEY@`) never shows it in an error.
    @Test(arguments: ["?apikey=\(FakeOMDbServer.validKey)", "user"]) func keyInTheBaseURLStaysOutOfErrors(carrier: String) async throws {
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in ServerResponse(status: 404, body: Data("gone".utf8)) }
        defer { server.shutdown() }
        var parts = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)!
        if carrier == "user" { parts.user = "me"; parts.password = FakeOMDbServer.validKey } else { parts.percentEncodedQuery = String(carrier.dropFirst()) }
        let client = OMDbClient.live(.init(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: parts.url!, timeout: 5))
        await #expect {
            try await client.search("alien").next()
        } throws: { error in
            guard case OMDbError.httpStatus(404, let url) = error else { return false }
            return !url.contains(FakeOMDbServer.validKey) && !"\(error)".contains(FakeOMDbServer.validKey)
        }
    }

    /// A redirect loop ends with a message that says so, not a hang or a crash.
    @Test func aRedirectLoopIsTooManyRedirects() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue) { request in
            ServerResponse(status: 302, headers: ["Location": "/loop?" + (request.target.split(separator: "?").last.map(String.init) ?? "")])
        }
        defer { server.shutdown() }
        await #expect {
            try await client(server).search("alien").next()
        } throws: { error in
            guard case OMDbError.unreachable(_, let reason) = error else { return false }
            return reason == "too many redirects"
        }
        #expect(server.requests.count > 2)
    }

    /// https to a server that speaks plain HTTP: the handshake fails, and the message says TLS.
    @Test func aServerThatCannotSpeakTLSIsATLSFailure() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        var parts = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)!
        parts.scheme = "https"
        let client = OMDbClient.live(.init(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: parts.url!, timeout: 5))
        await #expect {
            try await client.search("alien").next()
        } throws: { error in
            guard case OMDbError.unreachable(let url, let reason) = error else { return false }
            return reason.contains("TLS") && !url.contains(FakeOMDbServer.validKey)
        }
    }

    @Test func wrongKeyIs401InvalidKey() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        await #expect(throws: OMDbError.invalidAPIKey) { try await client(server, key: "wrong-key-999").search("alien").next() }
    }

    @Test func quotaSpentIs401() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in .json(#"{"Response":"False","Error":"Request limit reached!"}"#, status: 401) }
        defer { server.shutdown() }
        await #expect(throws: OMDbError.quotaExhausted) { try await client(server).search("alien").next() }
    }

    @Test func serverErrorIsAnHTTPStatusWithoutTheKey() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in ServerResponse(status: 503, body: Data("<html>down</html>".utf8)) }
        defer { server.shutdown() }
        await #expect {
            try await client(server).search("alien").next()
        } throws: { error in
            guard case OMDbError.httpStatus(503, let url) = error else { return false }
            return !url.contains(FakeOMDbServer.validKey) && url.hasPrefix("http://127.0.0.1:")
        }
    }

    @Test func slowServerTimesOut() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue, latency: .seconds(3))
        defer { server.shutdown() }
        await #expect {
            try await client(server, timeout: 1).search("alien").next()
        } throws: { error in
            if case OMDbError.timedOut(_, 1, 3) = error { true } else { false }
        }
    }

    @Test func droppedConnectionIsUnreachable() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in ServerResponse(closeWithoutAnswer: true) }
        defer { server.shutdown() }
        await #expect {
            try await client(server).search("alien").next()
        } throws: { error in
            if case OMDbError.unreachable = error { true } else { false }
        }
    }

    @Test func serverDownIsUnreachableAndTheKeyIsNotInTheMessage() async throws {
        // A port kept bound and never listened on, not a server's port given back: the redirect
        // test's server beside this one was once given it, and answered this request with a 302.
        let closed = try SilentListener(listening: false)
        defer { withExtendedLifetime(closed) {} }
        let base = URL(string: "http://127.0.0.1:\(closed.port)/")!
        let client = OMDbClient.live(.init(apiKey: "leaky-key-42", baseURL: base, timeout: 2))
        await #expect {
            try await client.search("alien").next()
        } throws: { error in
            guard case OMDbError.unreachable(let url, let reason) = error else { return false }
            let text = "\(error) \(url) \(reason)"
            return !text.contains("leaky-key-42") && reason == "connection refused"
        }
    }

    @Test func cancellingAnHTTPRequestIsCancellationNotAnError() async throws {
        // The answer is held until the test ends: the caller is cancelled while its request is at the server.
        let hold = Latch()
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in hold.wait(timeout: .seconds(60)); return nil }
        defer { hold.open(); server.shutdown() }
        let client = client(server, timeout: 30)
        let task = Task { try await client.search("alien").next() }
        try await server.waitForRequests("the search to reach the server") { $0.count == 1 }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!hold.timedOut)
    }

    @Test func posterOverTheCapIsRefusedWithoutBeingKept() async throws {
        try await withTemporaryFolder { folder in
            let huge = jpegBytes + Data(count: 3_000_000)
            let server = try FakeOMDbServer(catalogue: catalogue) { request in
                request.path.hasPrefix("/posters/") ? ServerResponse(body: huge) : nil
            }
            defer { server.shutdown() }
            let client = client(server)
            let page = try await client.search("alien").next()
            let updates = await collect(client.details(for: page.items, posters: PosterStore(folder: folder, maxBytes: 1_000_000)))
            let byID = rows(updates)
            #expect(byID.count == page.items.count)
            for row in byID.values {
                #expect(throws: OMDbError.posterTooLarge(bytes: huge.count, limit: 1_000_000)) { try row.poster?.get() }
            }
            #expect(files(in: folder).isEmpty)
        }
    }

    @Test func limitedDownloadStopsAtTheAnnouncedSizeAndKeepsSmallBodiesWhole() async throws {
        let body = Data((0..<200_000).map { UInt8($0 % 251) })
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in ServerResponse(body: body) }
        defer { server.shutdown() }
        let transport = OMDbClient.liveTransport(for: .init(apiKey: "k", maxConcurrentRequests: 4))
        let url = server.baseURL.appendingPathComponent("posters/x.jpg")
        await #expect(throws: TransportError.tooLarge(bytes: body.count)) { try await transport.send(TransportRequest(url: url, timeout: 5)).body.collect(upTo: 100_000) }
        let whole = try await transport.send(TransportRequest(url: url, timeout: 5))
        #expect(try await whole.body.collect(upTo: 200_000) == body)
        #expect(whole.statusCode == 200)
    }

    @Test func cancellingALimitedDownloadIsCancellation() async throws {
        // The answer is held until the test ends (60 s at most, remembered): the cancelled caller
        // must be answered while the server still holds it, not when the answer comes.
        let hold = Latch()
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in hold.wait(timeout: .seconds(60)); return nil }
        defer { hold.open(); server.shutdown() }
        let transport = OMDbClient.liveTransport(for: .init(apiKey: "k", maxConcurrentRequests: 4))
        // A deadline far past the hold: on a loaded machine 30 s ran out before the cancellation.
        let task = Task { try await transport.send(TransportRequest(url: server.baseURL.appendingPathComponent("posters/tt0090190.jpg"), timeout: 300)) }
        try await server.waitForRequests("the download to reach the server") { $0.count == 1 }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!hold.timedOut, "the cancelled download waited for the server's answer")
    }

    @Test func posterAnswers404AndHTMLAreRefused() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue) { request in
                if request.path == "/posters/tt0090190.jpg" { return ServerResponse(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html>".utf8)) }
                if request.path == "/posters/tt0098503.jpg" { return ServerResponse(status: 403, body: Data()) }
                return nil
            }
            defer { server.shutdown() }
            let client = client(server)
            let page = try await client.search("toxic avenger").next()
            let updates = await collect(client.details(for: page.items, posters: PosterStore(folder: folder)))
            let byID = rows(updates)
            #expect(throws: OMDbError.posterNotAnImage(url: server.baseURL.absoluteString + "posters/tt0090190.jpg", contentType: "text/html")) {
                try byID["tt0090190"]?.poster?.get()
            }
            #expect { try byID["tt0098503"]?.poster?.get() } throws: { error in
                if case OMDbError.httpStatus(403, _) = error { true } else { false }
            }
            #expect(!files(in: folder).contains { $0.contains("tt0090190") || $0.contains("tt0098503") })
        }
    }
}
