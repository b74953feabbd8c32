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
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            told.withLock { $0.append(request) }
            return try await catalogueClientTransport.send(request)
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
            #expect(api.count == 2 && api.allSatisfy { $0.secretQueryItems == ["apikey"] && TransportRequest.carriesSecret($0.url, names: $0.secretQueryItems) })
            #expect(!posters.isEmpty && posters.allSatisfy { $0.secretQueryItems.isEmpty && !TransportRequest.carriesSecret($0.url, names: $0.secretQueryItems) })
        }
    }
}
