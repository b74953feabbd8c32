import FakeOMDb
import Foundation
import Synchronization
import Testing
@testable import OMDbKit
import TestSupport

/// Yields `count` times: a cheap way to let other tasks interleave here.
func yieldTimes(_ count: Int) async {
    for _ in 0..<count { await Task.yield() }
}

/// Serialized: thousands of rounds of tasks that yield keep a core busy; one test at a time.
@Suite(.serialized) struct SingleFlightTests {
    @Test func thousandsOfInterleavingsGiveEveryUncancelledCallerTheValueFromOneLoad() async throws {
        var random = SplitMix64(seed: 20_261_122)
        for round in 0..<2_000 {
            let flight = SingleFlight<Int, Int>()
            let loads = Mutex(0)
            let released = Mutex(false)
            // Loads that ran to the end; one abandoned by every waiter is cancelled and does not count.
            let operation: @Sendable () async throws -> Int = {
                while !released.withLock({ $0 }) {
                    try Task.checkCancellation()
                    await Task.yield()
                }
                try Task.checkCancellation()
                loads.withLock { $0 += 1 }
                return round
            }
            var stayers: [Task<Int, any Error>] = []
            var leavers: [(Task<Int, any Error>, Int)] = []
            for _ in 0..<Int.random(in: 2...7, using: &random) {
                let delay = Int.random(in: 0...10, using: &random)
                let task = Task { await yieldTimes(delay); return try await flight.value(for: 1, operation) }
                if stayers.isEmpty || Bool.random(using: &random) {
                    stayers.append(task)
                } else {
                    leavers.append((task, Int.random(in: 0...10, using: &random)))
                }
            }
            for (task, delay) in leavers {
                await yieldTimes(delay)
                task.cancel()
            }
            // The load ends once every caller that stays has joined and every leaver has left.
            let deadline = ContinuousClock.now + .seconds(60)
            while flight.waiters(for: 1) != stayers.count {
                guard ContinuousClock.now < deadline else { throw LatchTimeout(what: "round \(round): every stayer to join", timeout: .seconds(60)) }
                await Task.yield()
            }
            released.withLock { $0 = true }
            for stayer in stayers {
                // Never a CancellationError for a caller that was not cancelled.
                #expect(try await stayer.value == round, "round \(round)")
            }
            for (leaver, _) in leavers {
                await #expect(throws: CancellationError.self, "round \(round)") { try await leaver.value }
            }
            #expect(loads.withLock { $0 } == 1, "round \(round)")
            #expect(flight.inFlight == 0)
        }
    }

    @Test func concurrentCallersThroughTheClientNeverSeeCancellation() async throws {
        var random = SplitMix64(seed: 7)
        for round in 0..<500 {
            let log = RequestLog()
            let delay = Int.random(in: 0...5, using: &random)
            let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
                log.record(url)
                await yieldTimes(delay)
                return json(#"{"Title":"t","imdbID":"tt0000001","Type":"movie","Response":"True"}"#)
            })
            let callers = (0..<Int.random(in: 2...6, using: &random)).map { _ in Task { try await client.movie(imdbID: "tt0000001") } }
            let cancelled = Int.random(in: 0..<callers.count, using: &random)
            callers[cancelled].cancel()
            for (index, caller) in callers.enumerated() where index != cancelled {
                #expect(try await caller.value.imdbID == "tt0000001", "round \(round)")
            }
            #expect(log.all.count <= 2)
        }
    }

    /// Two callers of one key at once: one load, and both get its value or its failure. Without
    /// single flight the second caller starts a second load, and this fails (the wait below ends
    /// on either: two loads started, or two callers waiting on one).
    @Test(arguments: [true, false])
    func twoCallersOfOneKeyAtOnceShareExactlyOneLoad(succeeds: Bool) async throws {
        struct Failure: Error, Equatable {}
        let flight = SingleFlight<String, Int>()
        let started = Mutex(0)
        let release = Latch()
        let operation: @Sendable () async throws -> Int = {
            let number = started.withLock { $0 += 1; return $0 }
            try await release.wait(for: "both callers to ask")
            if !succeeds { throw Failure() }
            return number
        }
        let first = Task { try await flight.value(for: "k", operation) }
        let second = Task { try await flight.value(for: "k", operation) }
        // Both callers waiting on one load that has started (two waiters can come before the
        // load's task has run its first line), or two loads.
        try await waitUntil("both callers to ask") {
            let loads = started.withLock { $0 }
            return loads == 2 || (loads == 1 && flight.waiters(for: "k") == 2)
        }
        release.open()
        let loads = started.withLock { $0 }
        // Two loads: the first caller's continuation was dropped by the second's call, and
        // awaiting it would never end.
        guard loads == 1 else { Issue.record("\(loads) loads of one key at once"); return }
        if succeeds {
            #expect(try await first.value == 1)
            #expect(try await second.value == 1)
        } else {
            await #expect(throws: Failure()) { try await first.value }
            await #expect(throws: Failure()) { try await second.value }
        }
        #expect(started.withLock { $0 } == 1)
        #expect(flight.inFlight == 0)
    }

    @Test func whenTheLastWaiterLeavesTheLoadIsCancelledAndANewcomerStartsAfresh() async throws {
        let flight = SingleFlight<String, Int>()
        let started = Watched(0)
        let cancelled = Watched(0)
        // The first load lasts until it is cancelled; the next answers at once.
        let operation: @Sendable () async throws -> Int = {
            let number = started.update { $0 += 1; return $0 }
            if number == 1 {
                do { try await Latch().wait(for: "the first load to be cancelled") } catch is CancellationError {
                    cancelled.update { $0 += 1 }
                    throw CancellationError()
                }
            }
            return number
        }
        let leaver = Task { try await flight.value(for: "k", operation) }
        try await started.wait("the load to start") { $0 > 0 }
        leaver.cancel()
        await #expect(throws: CancellationError.self) { try await leaver.value }
        #expect(try await flight.value(for: "k", operation) == 2)
        try await cancelled.wait("the abandoned load to be cancelled") { $0 > 0 }
        #expect(cancelled.value == 1)
    }

    @Test func twoNextPageCallsAtOnceShareOneRequestAndBothGetThePage() async throws {
        let log = RequestLog()
        // Page 2's answer waits until both callers wait on its one load.
        let bothIn = Latch()
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            log.record(url)
            let page = Int(url.query("page") ?? "1")!
            if page == 2 { try await bothIn.wait(for: "the second nextPage to join") }
            let rows = (0..<10).map { #"{"Title":"t","imdbID":"tt\#(String(format: "%07d", page * 100 + $0))","Type":"movie"}"# }
            return json(#"{"Search":[\#(rows.joined(separator: ","))],"totalResults":"30","Response":"True"}"#)
        })
        let search = client.search("film")
        _ = try await search.next()
        async let first = search.next()
        async let second = search.next()
        let page2 = OMDbRequest.search(SearchQuery(text: "film"), page: 2)
        try await waitUntil("both nextPage calls to wait on page 2") { client.pages.flights.waiters(for: page2) == 2 }
        bothIn.open()
        let (a, b) = try await (first, second)
        #expect(a.number == 2 && b.number == 2)
        #expect(a.items.map(\.imdbID) == b.items.map(\.imdbID))
        #expect(log.count { $0.query("page") == "2" } == 1)
        #expect(try await search.next().number == 3)
    }
}
