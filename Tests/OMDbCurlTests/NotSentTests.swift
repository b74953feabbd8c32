import CCurl
import FakeOMDb
import Foundation
@testable import OMDbCurl
@testable import OMDbKit
import OMDbTestSupport
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Only requests that reached a server are counted: one whose connection (TCP, then TLS) never
/// completed never left, whoever gave up on it first, the client's deadline or libcurl's.
@Suite struct NotSentTests {
    private static func expectNothingCounted(clientTimeout: Int, transportTimeout: Int) async throws {
        try await withTemporaryFolder { folder in
            let host = try SilentListener()
            let ledger = QuotaLedger(folder: folder, apiKey: APIKey(FakeOMDbServer.validKey), dailyLimit: 100)
            var configuration = OMDbClient.Configuration(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: host.baseURL,
                                                         timeout: clientTimeout, retry: quickRetries)
            configuration.ledger = ledger
            let transport = try CurlTransport(maxConnectionsPerHost: 4, timeout: transportTimeout)
            let client = OMDbClient(configuration: configuration, transport: transport)
            await #expect(throws: OMDbError.self) { try await client.search("alien").next() }
            #expect(client.apiRequestCount == 0)
            #expect(ledger.placesLeft() == 100)
            #expect(ledger.usage().sent == 0)
        }
    }

    /// The client's deadline ends each try while the TLS handshake waits: three tries, none counted.
    @Test func aTLSHandshakeThatNeverCompletesWithinTheDeadlineIsNotCounted() async throws {
        try await Self.expectNothingCounted(clientTimeout: 1, transportTimeout: 30)
    }

    /// A transport with a shorter timeout of its own: the request's deadline still ends it (libcurl
    /// has no timeout of its own any more: the engine charges the request's, CurlTransfer), and
    /// it is not counted either. The client's deadline was 30 s here, and the test waited all of
    /// it: the last of CI's tests but one to end; 2 s ends the same way.
    @Test func aConnectTimeoutOfLibcurlIsNotCounted() async throws {
        try await Self.expectNothingCounted(clientTimeout: 2, transportTimeout: 1)
    }

    /// The classification: any failure before the request was written is "not sent".
    @Test func failuresBeforeTheRequestWasWrittenAreNotSent() {
        #expect(CurlTransfer.error(for: CCURLE_OPERATION_TIMEDOUT, requestWritten: false).isNotSent)
        #expect(CurlTransfer.error(for: CCURLE_RECV_ERROR, requestWritten: false).isNotSent)
        #expect(CurlTransfer.error(for: CCURLE_OPERATION_TIMEDOUT, requestWritten: true) == .timedOut)
        #expect(CurlTransfer.error(for: CCURLE_COULDNT_CONNECT, requestWritten: true).isNotSent)
    }
}
