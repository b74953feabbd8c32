import Foundation
import OMDbTestSupport
import Testing
@testable import OMDbKit
@testable import OMDbCatalogue

@Suite struct RetryPolicyTests {
    @Test(arguments: [(1, 0.0, Duration.zero), (1, 0.5, .milliseconds(125)), (2, 0.5, .milliseconds(250)), (3, 0.999, .milliseconds(999)),
                      (10, 0.5, .seconds(2))])
    func backoffIsExponentialWithFullJitterAndCapped(attempt: Int, draw: Double, expected: Duration) {
        let policy = RetryPolicy(baseDelay: .milliseconds(250), maxDelay: .seconds(4), random: { draw })
        #expect(policy.delay(after: attempt, retryAfter: nil) == expected)
    }

    @Test func retryAfterReplacesTheBackoffUpToTheCap() {
        let policy = RetryPolicy(maxRetryAfter: .seconds(10), random: { 0.5 })
        #expect(policy.delay(after: 1, retryAfter: .seconds(3)) == .seconds(3))
        #expect(policy.delay(after: 1, retryAfter: .seconds(3_600)) == .seconds(10))
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() {
        let now = Date(timeIntervalSince1970: 1_000_000_000)   // Sun, 09 Sep 2001 01:46:40 GMT
        #expect(RetryPolicy.retryAfter("7", now: now) == .seconds(7))
        #expect(RetryPolicy.retryAfter("Sun, 09 Sep 2001 01:46:45 GMT", now: now) == .seconds(5))
        #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfter(nil, now: now) == nil)
        #expect(RetryPolicy.retryAfter("-3", now: now) == .zero)
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504, 522])
    func transientStatusesAreRetried(status: Int) {
        #expect(RetryPolicy.isTransient(status: status))
    }

    @Test(arguments: [200, 301, 400, 401, 403, 404, 410])
    func otherStatusesAreNot(status: Int) {
        #expect(!RetryPolicy.isTransient(status: status))
    }

    @Test func cancellationIsNeverRetried() async {
        let log = RequestLog()
        let client = OMDbClient(configuration: .init(apiKey: "k", retry: quickRetries), transport: ClosureTransport { url in
            log.record(url)
            throw CancellationError()
        })
        await #expect(throws: CancellationError.self) { try await client.search("alien").next() }
        #expect(log.all.count == 1)
    }
}

/// The key joins a request only where it is handed to the transport.
@Suite struct KeyAtTheEdgeTests {
    static let key = "EDGE-SECRET-77"

    @Test func onlyTheTransportEverSeesTheKeyAndEverySendIsCounted() async throws {
        let log = RequestLog()
        let client = OMDbClient(configuration: .init(apiKey: APIKey(Self.key), retry: quickRetries),
                                transport: ClosureTransport { url in
                                    log.record(url)
                                    return log.all.count == 1 ? HTTPResponse(statusCode: 503, body: Data()) : try await catalogueClientTransport.get(url, timeout: 1)
                                })
        let page = try await client.search("toxic").next()
        #expect(log.all.allSatisfy { $0.query("apikey") == Self.key })
        #expect(client.apiRequestCount == 2)
        var dumped = ""
        dump(client, to: &dumped)
        let texts = [dumped, String(describing: client), String(reflecting: client.configuration), "\(page)"]
        #expect(texts.allSatisfy { !$0.contains(Self.key) })
    }
}

let catalogueClientTransport = CatalogueTransport(catalogue: catalogue)
