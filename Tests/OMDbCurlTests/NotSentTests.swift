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

/// A port on 127.0.0.1 whose kernel completes the TCP handshake (a listening socket's backlog)
/// and that never reads nor writes a byte: a host that accepts TCP and never completes TLS.
final class SilentListener: Sendable {
    let port: Int
    private let fd: Int32

    /// - Parameter listening: `false` keeps the port bound but refuses every connection: a closed
    ///   port no other server of a parallel test can be given.
    init(listening: Bool = true) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, length) == 0 && (!listening || listen(fd, 64) == 0) && getsockname(fd, sa, &length) == 0
            }
        }
        guard fd >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    var baseURL: URL { URL(string: "https://127.0.0.1:\(port)/")! }

    deinit { close(fd) }
}

/// Only requests that reached a server are counted: one whose connection (TCP, then TLS) never
/// completed never left, whoever gave up on it first, the client's deadline or libcurl's.
@Suite struct NotSentTests {
    private static func expectNothingCounted(clientTimeout: Int, transportTimeout: Int) async throws {
        try await withTemporaryFolder { folder in
            let host = try SilentListener()
            let ledger = QuotaLedger(folder: folder, apiKey: FakeOMDbServer.validKey, dailyLimit: 100)
            var configuration = OMDbClient.Configuration(apiKey: FakeOMDbServer.validKey, baseURL: host.baseURL,
                                                         timeout: clientTimeout, retry: quickRetries)
            configuration.ledger = ledger
            let transport = try CurlTransport(maxConnectionsPerHost: 4, timeout: transportTimeout)
            let client = OMDbClient(configuration: configuration, transport: transport)
            await #expect(throws: OMDbError.self) { try await client.search("alien") }
            #expect(await client.apiRequestCount == 0)
            #expect(ledger.reservedCount == 0)
            #expect(ledger.usage().sent == 0)
        }
    }

    /// The client's deadline ends each try while the TLS handshake waits: three tries, none counted.
    @Test func aTLSHandshakeThatNeverCompletesWithinTheDeadlineIsNotCounted() async throws {
        try await Self.expectNothingCounted(clientTimeout: 1, transportTimeout: 30)
    }

    /// libcurl's connect timeout ends it first: not counted either, and not tried again.
    @Test func aConnectTimeoutOfLibcurlIsNotCounted() async throws {
        try await Self.expectNothingCounted(clientTimeout: 30, transportTimeout: 1)
    }

    /// The classification: any failure before the request was written is "not sent".
    @Test func failuresBeforeTheRequestWasWrittenAreNotSent() {
        #expect(CurlTransfer.error(for: CCURLE_OPERATION_TIMEDOUT, requestWritten: false).isNotSent)
        #expect(CurlTransfer.error(for: CCURLE_RECV_ERROR, requestWritten: false).isNotSent)
        #expect(CurlTransfer.error(for: CCURLE_OPERATION_TIMEDOUT, requestWritten: true) == .timedOut)
        #expect(CurlTransfer.error(for: CCURLE_COULDNT_CONNECT, requestWritten: true).isNotSent)
    }
}
