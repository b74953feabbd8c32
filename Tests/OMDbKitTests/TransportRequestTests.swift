import Foundation
@testable import OMDbKit
import OMDbCatalogue
import OMDbTestSupport
import Synchronization
import Testing
import TestSupport

/// Where the key goes is the client's rule (`apikey`), handed to the transport as data with each
/// request (issue 23): what the client tells the transport, recorded.
@Suite struct TransportRequestTests {
    /// Records what each request told it, and answers from the offline catalogue.
    final class Recording: OMDbTransport {
        let told = Mutex<[TransportRequest]>([])
        func send(_ url: URL, timeout: Int) async throws -> StreamedResponse {
            Issue.record("the client sent \(url.path) without saying which query items are secret")
            return try await catalogueClientTransport.send(url, timeout: timeout)
        }
        func send(_ request: TransportRequest) async throws -> StreamedResponse {
            told.withLock { $0.append(request) }
            return try await catalogueClientTransport.send(request.url, timeout: request.timeout)
        }
    }

    @Test func theClientTellsTheTransportWhichQueryItemsAreSecret() async throws {
        try await withTemporaryFolder { folder in
            let transport = Recording()
            let client = OMDbClient(configuration: .init(apiKey: CatalogueTransport.apiKey, baseURL: CatalogueTransport.baseURL),
                                    transport: transport)
            let page = try await client.search("alien").next()
            let item = try #require(page.items.first { $0.posterURL != nil })
            _ = try await client.movie(imdbID: item.imdbID)
            _ = try? await client.poster(for: item, in: PosterStore(folder: folder))
            let told = transport.told.withLock { $0 }
            let api = told.filter { $0.url.query("apikey") != nil }
            let posters = told.filter { $0.url.query("apikey") == nil }
            #expect(api.count == 2 && api.allSatisfy { $0.secretQueryItems == ["apikey"] && $0.carriesSecret })
            #expect(!posters.isEmpty && posters.allSatisfy { $0.secretQueryItems.isEmpty && !$0.carriesSecret })
        }
    }

    /// A host to open after the next request rides on that request, whichever it is, and on that
    /// one only; nothing opens it sooner.
    @Test func aHostToOpenAfterTheNextRequestGoesWithThatRequestOnly() async throws {
        final class Opened: OMDbTransport {
            let events = Mutex<[String]>([])
            func send(_ url: URL, timeout: Int) async throws -> StreamedResponse {
                try await catalogueClientTransport.send(url, timeout: timeout)
            }
            func send(_ request: TransportRequest) async throws -> StreamedResponse {
                events.withLock { $0.append("send \(request.url.query("s") ?? "?") then \(request.preconnectAfter.map(\.absoluteString))") }
                return try await catalogueClientTransport.send(request.url, timeout: request.timeout)
            }
            func preconnect(_ url: URL) { events.withLock { $0.append("preconnect \(url.absoluteString)") } }
        }
        let transport = Opened()
        let client = OMDbClient(configuration: .init(apiKey: CatalogueTransport.apiKey, baseURL: CatalogueTransport.baseURL),
                                transport: transport)
        let posters = try #require(URL(string: "https://posters.example"))
        client.preconnect(origin: posters, afterNextRequest: true)
        #expect(transport.events.withLock { $0 }.isEmpty, "opened before any request")
        _ = try await client.search("alien").next()
        _ = try await client.search("star").next()
        #expect(transport.events.withLock { $0 } == ["send alien then [\"https://posters.example\"]", "send star then []"])
    }
}
