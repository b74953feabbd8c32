import FakeOMDb
import OMDbTestSupport
import Foundation
@testable import OMDbCurl
@testable import OMDbKit
import Testing
import TestSupport

/// Where the key goes is the client's rule (`apikey`), handed to the transport as data with each
/// request (issue 23): the transport knows only the names it is given, never OMDb's.
@Suite struct SecretQueryItemsTests {
    @Test func theTransportKnowsOnlyTheNamesItIsGiven() {
        let url = URL(string: "http://127.0.0.1:1/?token=x&apikey=y")!
        #expect(TransportRequest.carriesSecret(url, names: ["token"]))
        #expect(!TransportRequest.carriesSecret(URL(string: "http://127.0.0.1:1/?apikey=y")!, names: ["token"]))
        #expect(!TransportRequest.carriesSecret(url, names: []))
    }

    /// The live transport keeps a query item it was told is secret within its origin, and only
    /// that one: the same redirect to another host is followed when the request names no secret.
    @Test(arguments: [true, false]) func theLiveTransportKeepsWhatItIsToldIsSecretWithinItsOrigin(named: Bool) async throws {
        let other = try FakeOMDbServer(catalogue: catalogue)
        defer { other.shutdown() }
        let otherOrigin = other.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let redirecting = try FakeOMDbServer(catalogue: catalogue) { request in
            ServerResponse(status: 302, headers: ["Location": otherOrigin + request.target])
        }
        defer { redirecting.shutdown() }
        let transport = try CurlTransport(timeout: 10)
        var url = URLComponents(url: redirecting.baseURL, resolvingAgainstBaseURL: false)!
        url.queryItems = [URLQueryItem(name: "s", value: "alien"), URLQueryItem(name: "token", value: "t-123")]
        let response = try await transport.send(TransportRequest(url: url.url!, timeout: 10, secretQueryItems: named ? ["token"] : []))
        // Followed, the request reaches the other server (which refuses it: it has no key of its own).
        #expect((response.statusCode == 302) == named)
        #expect(other.requests.count == (named ? 0 : 1))
    }
}
