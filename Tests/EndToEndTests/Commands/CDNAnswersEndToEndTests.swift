import FakeOMDb
import Foundation
import OMDbKit
import Testing
import TestSupport

/// What OMDb's CDN and OMDb in trouble answer, through the built `movies` over real sockets to
/// the fake server: each said for what it is, retried only when asking again can help, and
/// counted for what was sent.
@Suite struct CDNAnswersEndToEndTests {
    /// Runs `search toxic` with `fault` on every API request: the outcome, the requests the
    /// server got, and the day's count.
    private static func search(with fault: ServerResponse) async throws -> (MoviesProcess.Outcome, requests: Int, counted: String) {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.always(fault, where: FaultPlan.api))
            defer { server.shutdown() }
            let outcome = try await SpendingEndToEndTests.run(["search", "toxic"], server: server, in: folder)
            let quota = try await SpendingEndToEndTests.run(["quota"], server: server, in: folder)
            return (outcome, server.apiRequests.count, String(quota.stdout.prefix { $0 != "\n" }))
        }
    }

    @Test(arguments: [ServerResponse.cloudflareChallenge(status: 403), .cloudflareChallenge(status: 503), .cloudflareBlock])
    func theCDNsRefusalIsNamedNotRetriedAndCountedOnce(_ fault: ServerResponse) async throws {
        let (outcome, requests, counted) = try await Self.search(with: fault)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("OMDb's CDN refused the request at 127.0.0.1:"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("Try again later, or from another network."))
        #expect(requests == 1)
        #expect(counted == "requests today: 1 of 1,000 (UTC day)")
    }

    /// `Something went wrong.` with a 500 is OMDb's trouble: tried 3 times, and not blamed on the request.
    @Test func aServerErrorIsRetriedAndNotBlamedOnTheRequest() async throws {
        let (outcome, requests, counted) = try await Self.search(with: .serverError(500))
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("answered HTTP 500 (internal server error), also when asked again: try again in a moment."), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("did not understand"))
        #expect(requests == 3)
        #expect(counted == "requests today: 3 of 1,000 (UTC day)")
    }

    /// A 200 that is not OMDb's JSON (a page of a CDN or a proxy, another server) says what to do, on one line.
    @Test(arguments: [ServerResponse.html, .invalidJSON])
    func anAnswerThatIsNotJSONSaysWhatToDo(_ fault: ServerResponse) async throws {
        let (outcome, _, _) = try await Self.search(with: fault)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("was not OMDb's JSON") && outcome.stderr.contains("Try again later, or check --base-url."), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
    }

    /// Rows that fail (OMDb in trouble, or refusing the key or the day's quota, on the by-ID
    /// requests only) are said on stderr too, in one line: `--json` leaves those rows out, and a
    /// script reads stderr. Before, exit 1 and an empty stderr.
    @Test(arguments: [(ServerResponse.serverError(503), "5 of 5 rows of page 1 failed: 127.0.0.1:"), (.invalidKey, "OMDb rejected the API key."),
                      (.limitReached, "The API key's daily request limit is spent")])
    func failedRowsAreSaidOnStderrInOneLine(_ fault: ServerResponse, said: String) async throws {
        try await withTemporaryFolder { folder in
            let byID = FaultPlan.always(fault) { request in request.queryItems.contains { $0.name == "i" } }
            let server = try FakeOMDbServer(catalogue: catalogue, fault: byID)
            defer { server.shutdown() }
            let outcome = try await SpendingEndToEndTests.run(["search", "alien", "--json", "-q"], server: server, in: folder)
            #expect(outcome.status == 1 && outcome.stderr.split(separator: "\n").count == 1 && outcome.stderr.hasPrefix(said), "\(outcome.stderr)")
        }
    }

    @Test func anEnvelopeWithNoErrorSaysOMDbGaveNoReason() async throws {
        let (outcome, requests, _) = try await Self.search(with: .noReason)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("OMDb answered that the request failed but gave no reason (HTTP 200). Try again later."), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains(#"OMDb answered """#))
        #expect(requests == 1)
    }
}
