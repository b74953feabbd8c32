import Foundation
import Synchronization
import Testing
@testable import OMDbKit
import TestSupport

/// A load that waits until released, counting how many times it started.
private final class GatedLoad: Sendable {
    private let starts = Mutex(0)
    private let released = Latch()

    var count: Int { starts.withLock { $0 } }

    func release() { released.open() }

    func run<T>(_ outcome: () throws -> T) async throws -> T {
        starts.withLock { $0 += 1 }
        try await released.wait(for: "the test to release the load")
        return try outcome()
    }
}

@Suite struct MemoTests {
    @Test func joinedCallersShareOneLoadAndLaterCallersGetTheRememberedValue() async throws {
        let memo = Memo<String, Int>()
        let load = GatedLoad()
        let callers = (0..<5).map { _ in Task { try await memo.value(for: "a") { try await load.run { 42 } } } }
        try await waitUntil("five callers on one load") { memo.flights.waiters(for: "a") == callers.count }
        load.release()
        for caller in callers { #expect(try await caller.value == 42) }
        #expect(try await memo.value(for: "a") { Issue.record("loaded again"); return 0 } == 42)
        #expect(load.count == 1)
        #expect(memo.flights.inFlight == 0)
    }

    @Test func aCancelledCallerLeavesAloneAndTheOthersGetTheValue() async throws {
        let memo = Memo<String, Int>()
        let load = GatedLoad()
        let leaver = Task { try await memo.value(for: "a") { try await load.run { 7 } } }
        let stayer = Task { try await memo.value(for: "a") { try await load.run { 7 } } }
        try await waitUntil("two callers on one load") { memo.flights.waiters(for: "a") == 2 }
        leaver.cancel()
        await #expect(throws: CancellationError.self) { try await leaver.value }
        load.release()
        #expect(try await stayer.value == 7)
        #expect(load.count == 1)
    }

    @Test func aFinalFailureIsRememberedAndNotAskedAgain() async throws {
        let memo = Memo<String, Int>(isFinal: \.isNoResults)
        let loads = Mutex(0)
        for _ in 0..<3 {
            await #expect(throws: OMDbError.notFound(query: "x")) {
                try await memo.value(for: "x") { () throws -> Int in
                    loads.withLock { $0 += 1 }
                    throw OMDbError.notFound(query: "x")
                }
            }
        }
        #expect(loads.withLock { $0 } == 1)
        #expect(memo.remembered("x") != nil)
    }

    @Test(arguments: [OMDbError.httpStatus(503, url: "u"), .timedOut(url: "u", seconds: 1, tries: 3), .unreachable(url: "u", reason: "refused")])
    func aTransientFailureIsForgottenSoTheNextCallerTriesAgain(failure: OMDbError) async throws {
        let memo = Memo<String, Int>(isFinal: \.isNoResults)
        await #expect(throws: failure) { try await memo.value(for: "x") { () throws -> Int in throw failure } }
        #expect(memo.remembered("x") == nil)
        #expect(try await memo.value(for: "x") { 3 } == 3)
        #expect(try await memo.value(for: "x") { Issue.record("loaded again"); return 0 } == 3)
    }
}
