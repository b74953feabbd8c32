import Foundation
@testable import OMDbCurl
@testable import OMDbKit
import Testing

/// Where the key goes is the client's rule (`apikey`), handed to the transport as data: the live
/// transport tells a request that carries a secret by the names it is given, not by OMDb's.
@Suite struct SecretQueryItemsTests {
    @Test func theClientNamesWhereItsKeyGoes() {
        let url = OMDbRequest.title(imdbID: "tt0076759", plot: .short).url(base: URL(string: "http://127.0.0.1:1/")!,
                                                                          key: APIKey("secret-key-1"))
        let names = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? []
        #expect(names.filter(OMDbClient.secretQueryItems.contains) == ["apikey"])
        #expect(CurlTransfer.carriesKey(url))
    }

    @Test func theTransportKnowsOnlyTheNamesItIsGiven() {
        let url = URL(string: "http://127.0.0.1:1/?token=x&apikey=y")!
        #expect(CurlTransfer.carriesKey(url, secrets: ["token"]))
        #expect(!CurlTransfer.carriesKey(URL(string: "http://127.0.0.1:1/?apikey=y")!, secrets: ["token"]))
    }
}
