import FakeOMDb
import Foundation
import Synchronization
import OMDbTestSupport
import Testing
@testable import OMDbKit
import TestSupport

/// Records the waits a retry policy asked for, without waiting.
final class RecordedSleeps: Sendable {
    private let waits = Mutex<[Duration]>([])
    var all: [Duration] { waits.withLock { $0 } }

    /// Quick retries that record each wait instead of sleeping it.
    var policy: RetryPolicy {
        RetryPolicy(baseDelay: .milliseconds(1), maxDelay: .milliseconds(2), sleep: { [self] wait in waits.withLock { $0.append(wait) } })
    }
}

/// One row of the fault table: what the server does to every API request, and what the client must make of it.
struct FaultRow: Sendable, CustomTestStringConvertible {
    let fault: String
    let answer: @Sendable () -> ServerResponse
    /// What the person reads: a part of the error's one line.
    let says: String
    /// Requests the server logs for one search.
    let requests: Int
    let check: @Sendable (OMDbError) -> Bool

    var testDescription: String { fault }
}

/// Every fault a hostile network or a sick server can produce, over real sockets to the fake
/// OMDb, with the message the person reads and the requests the server logged.
@Suite struct FaultTableOverFakeServerTests {
    static let rows: [FaultRow] = [
        FaultRow(fault: "503 always", answer: { .serviceUnavailable }, says: "answered HTTP 503", requests: 3) {
            if case .httpStatus(503, _) = $0 { true } else { false }
        },
        FaultRow(fault: "429 Retry-After: 1, always", answer: { .tooManyRequests(retryAfter: 1) }, says: "answered HTTP 429", requests: 3) {
            if case .httpStatus(429, _) = $0 { true } else { false }
        },
        FaultRow(fault: "hang", answer: { .hang }, says: "within 1 s, on each of 3 tries.", requests: 3) {
            if case .timedOut(_, 1, 3) = $0 { true } else { false }
        },
        FaultRow(fault: "trickle, 1 byte every 50 ms", answer: { .trickle(Data(repeating: 0x20, count: 200), every: .milliseconds(50)) },
                 says: "within 1 s, on each of 3 tries.", requests: 3) {
            if case .timedOut(_, 1, 3) = $0 { true } else { false }
        },
        FaultRow(fault: "connection reset", answer: { .reset }, says: "lost or reset", requests: 3) {
            if case .unreachable = $0 { true } else { false }
        },
        FaultRow(fault: "truncated body", answer: { .truncated(Data(#"{"Response":"#.utf8), announced: 1_000) }, says: "cut short", requests: 3) {
            if case .unreachable = $0 { true } else { false }
        },
        FaultRow(fault: "oversized answer (5 MB)", answer: { .oversized(bytes: 5_000_000) }, says: "larger than 4 MB", requests: 1) {
            if case .answerTooLarge(_, 4_000_000) = $0 { true } else { false }
        },
        FaultRow(fault: "HTML instead of JSON", answer: { .html }, says: "was not OMDb's JSON", requests: 1) {
            if case .invalidResponse = $0 { true } else { false }
        },
        FaultRow(fault: "invalid JSON", answer: { .invalidJSON }, says: "was not OMDb's JSON", requests: 1) {
            if case .invalidResponse = $0 { true } else { false }
        },
        FaultRow(fault: "401 Invalid API key!", answer: { .invalidKey }, says: "rejected the API key", requests: 1) { $0 == .invalidAPIKey },
        FaultRow(fault: "401 Request limit reached!", answer: { .limitReached }, says: "daily request limit is spent", requests: 1) { $0 == .quotaExhausted },
    ]

    // Bounded (before, a trickled search never ended): the attempts are counted below, and a
    // search that never ends runs into the time limit. No bound on the seconds a loaded machine
    // takes: two suites at once took 50 s here.
    @Test(.timeLimit(.minutes(3)), arguments: rows)
    func aSearchMeetingTheFault(row: FaultRow) async throws {
        let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.always(row.answer()))
        defer { server.shutdown() }
        let sleeps = RecordedSleeps()
        let client = OMDbClient.live(.init(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: server.baseURL, timeout: 1, retry: sleeps.policy))
        await #expect {
            try await client.search("toxic").next()
        } throws: { error in
            guard let error = error as? OMDbError else { return false }
            let matches = row.check(error) && error.description.contains(row.says) && !error.description.contains(FakeOMDbServer.validKey)
            if !matches { Issue.record("\(row.fault) said: \(error.description) (\(server.requests.count) requests)") }
            return matches
        }
        #expect(server.requests.count == row.requests)
        #expect(client.apiRequestCount == row.requests)
        if row.fault.hasPrefix("429") { #expect(sleeps.all == [.seconds(1), .seconds(1)]) }
    }
}

/// Faults met in the middle of a page: retried away, cut at the deadline, or stopping the page.
@Suite struct FaultsDuringAPageOverFakeServerTests {
    private func client(_ server: FakeOMDbServer, timeout: Int = 5, retry: RetryPolicy = quickRetries) -> OMDbClient {
        OMDbClient.live(.init(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: server.baseURL, timeout: timeout, retry: retry))
    }

    @Test func a503OnceOnEveryRequestCostsExactlyOneRetryEach() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.firstAttempts(1, .serviceUnavailable))
            defer { server.shutdown() }
            let client = client(server)
            let search = client.search("star")
            let first = try await search.next()
            let second = try await search.next()
            let items = first.items + second.items
            let byID = rows(await collect(client.details(for: items, posters: PosterStore(folder: folder))))
            #expect(items.count == 20)
            #expect(byID.values.count(where: { (try? $0.movie?.get()) != nil }) == 20)
            let saved = byID.values.filter { (try? $0.poster?.get()) != nil }.count
            #expect(saved == items.count(where: { catalogue.posterData(atPath: $0.posterURL?.path ?? "") != nil }))
            #expect(files(in: folder).count == saved)
            #expect(files(in: folder).allSatisfy { !$0.hasPrefix(".") })
            // Two searches, twenty records, twenty posters: each sent exactly twice.
            let counts = Dictionary(grouping: server.requests, by: \.target).mapValues(\.count)
            #expect(counts.count == 42)
            #expect(counts.values.allSatisfy { $0 == 2 })
            #expect(client.apiRequestCount == 44)
        }
    }

    @Test(arguments: [(1, Duration.seconds(1)), (60, .seconds(10))])
    func retryAfterIsHonouredUpToTheCap(seconds: Int, wait: Duration) async throws {
        let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.firstAttempts(1, .tooManyRequests(retryAfter: seconds)))
        defer { server.shutdown() }
        let sleeps = RecordedSleeps()
        let page = try await client(server, retry: sleeps.policy).search("toxic").next()
        #expect(page.items.count == 10)
        #expect(sleeps.all == [wait])
        #expect(server.requests.count == 2)
    }

    @Test(arguments: [ServerResponse.invalidKey, .limitReached])
    func aRefusedKeyStopsThePageWithOneMessageAndNoRetry(refusal: ServerResponse) async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.always(refusal) { $0.queryItems.contains { $0.name == "i" } })
            defer { server.shutdown() }
            let client = client(server)
            let page = try await client.search("star").next()
            let updates = await collect(client.details(for: page.items, posters: PosterStore(folder: folder)))
            let records = updates.filter(\.isRecord)
            #expect(records.count == 1)
            if case .record(.failure(let error))? = records.first?.part { #expect(error.isKeyProblem) } else { Issue.record("no key error") }
            // Never asked twice.
            let counts = Dictionary(grouping: server.apiRequests, by: \.target).mapValues(\.count)
            #expect(counts.values.allSatisfy { $0 == 1 })
            // The posters cut short remove their temporaries on the file-work lane, after the
            // page has stopped: wait for that, rather than look once (two suites at once saw one).
            try await waitUntil("the cut posters' temporaries to be removed") { files(in: folder).allSatisfy { !$0.hasPrefix(".") } }
        }
    }

    @Test func aTrickledRecordIsCutAtTheDeadlineOnItsRowAlone() async throws {
        let slow = "tt0090190"
        let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.always(.trickle(Data(repeating: 0x20, count: 500), every: .milliseconds(20))) {
            $0.queryItems.contains { $0.name == "i" && $0.value == slow }
        })
        defer { server.shutdown() }
        let client = client(server, timeout: 1, retry: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(1)))
        let page = try await client.search("toxic").next()
        let byID = rows(await collect(client.details(for: page.items)))
        // Cut at the one-second deadline (the trickle takes 10 s), on both attempts, and asked no more.
        #expect(server.requests.count(where: { $0.target.contains("i=\(slow)") }) == 2)
        let failure: OMDbError? = if case .failure(let error)? = byID[slow]?.movie { error } else { nil }
        #expect(failure == .timedOut(url: server.baseURL.absoluteString + "?i=\(slow)&plot=short", seconds: 1, tries: 2))
        // The wait and the tries that waited it: not "within 1 s" after two seconds of two tries.
        #expect(failure?.description == "No complete answer from 127.0.0.1:\(server.baseURL.port ?? 0) within 1 s, on each of 2 tries.")
        #expect(byID.count(where: { (try? $0.value.movie?.get()) != nil }) == 9)
    }

    @Test func aPosterRefusedForGoodIsRememberedATransientFailureIsNot() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue) { request in
                if request.path == "/posters/tt0090190.jpg" { return .failure(404) }
                if request.path == "/posters/tt0098503.jpg" { return .tooManyRequests(retryAfter: 0) }
                return nil
            }
            defer { server.shutdown() }
            let client = client(server)
            let page = try await client.search("toxic").next()
            let store = PosterStore(folder: folder)
            for item in page.items where ["tt0090190", "tt0098503"].contains(item.imdbID) {
                for _ in 0..<2 { _ = try? await client.poster(for: item, in: store) }
            }
            let counts = Dictionary(grouping: server.posterRequests, by: \.path).mapValues(\.count)
            #expect(counts["/posters/tt0090190.jpg"] == 1)   // 404: not retried, remembered
            #expect(counts["/posters/tt0098503.jpg"] == 6)   // 429: three attempts, twice
        }
    }

    @Test func aPosterHostFailingIsNamedWithoutBlamingTheBaseURL() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.always(.reset, where: FaultPlan.posters))
            defer { server.shutdown() }
            let client = client(server)
            let page = try await client.search("toxic").next()
            let item = try #require(page.items.first { $0.imdbID == "tt0090190" })
            await #expect {
                try await client.poster(for: item, in: PosterStore(folder: folder))
            } throws: { error in
                guard case OMDbError.posterDownloadFailed = error else { return false }
                let text = "\(error)"
                return text.contains("127.0.0.1") && text.contains("lost or reset") && !text.contains("--base-url")
            }
            // Three attempts; libcurl itself sends a request again once when a kept-alive
            // connection it reused is reset before answering.
            #expect((3...6).contains(server.posterRequests.count))
            #expect(files(in: folder).isEmpty)
        }
    }
}
