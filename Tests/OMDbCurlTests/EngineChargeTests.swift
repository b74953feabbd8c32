import FakeOMDb
import Foundation
@testable import OMDbCurl
import OMDbKit
import OMDbTestSupport
import Synchronization
import Testing
import TestSupport

/// A request's deadline is charged with the engine's running time from when the request started:
/// the time the engine slept before it, with nothing to do, is not the request's.
@Suite struct EngineChargeTests {
    /// A clock the test moves by hand.
    final class HandClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        func advance(_ duration: Duration) { instant.withLock { $0 += duration } }
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
    }

    /// An engine idle for 1.2 s (by its clock) is handed a request with a 1 s deadline to a
    /// server that never answers: the request is written, and only the time after that ends it,
    /// as a timeout of the answer, not as a connection "not made in time" before it was sent.
    @Test func theSleepBeforeARequestIsNotChargedToIt() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in .hang }
        defer { server.shutdown() }
        let clock = HandClock()
        let engine = try CurlEngine(maxConnectionsPerHost: 2, library: nil, now: { clock.now })
        defer { engine.post(.stop) }
        // The engine's thread reads its clock as it starts: the idle time is what comes after.
        try await Task.sleep(for: .milliseconds(200))
        clock.advance(.milliseconds(1_200))
        let setup = CurlTransfer.Setup(timeout: 1, caFile: nil, caFolder: nil, userAgent: "movies-test")
        let transfer = CurlTransfer(url: server.baseURL.appendingPathComponent("x"), setup: setup, engine: engine, timeout: 1)
        let ended = Mutex(false)
        let sent = Task {
            defer { ended.withLock { $0 = true } }
            return try await transfer.send()
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while server.requests.isEmpty, !ended.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(!server.requests.isEmpty, "the request was never written")
        // The engine turns at least once more (its sleep is at most a second): its clock has not
        // moved since the request started, so nothing may end it. Charged the sleep before it
        // (1.2 s), it ended at its first turn.
        try await Task.sleep(for: .milliseconds(1_500))
        #expect(!ended.withLock { $0 }, "ended before any of its own time ran")
        clock.advance(.milliseconds(1_100))
        do {
            _ = try await sent.value
            Issue.record("answered")
        } catch let error as TransportError {
            #expect(error == .timedOut)
        }
    }

    /// A turn that took far longer than the engine meant to sleep was a stop of the process; one
    /// a little late (a busy machine) was not.
    @Test func aTurnMuchLongerThanItsSleepIsAStop() {
        let clock = HandClock()
        var engineClock = EngineClock(now: { clock.now })
        clock.advance(.milliseconds(1_200))
        let late = engineClock.tick(planned: .seconds(1))
        #expect(late.elapsed == .milliseconds(1_200) && !late.stopped)
        clock.advance(.seconds(5))
        let stopped = engineClock.tick(planned: .milliseconds(400))
        #expect(stopped.elapsed == EngineClock.maxTurn && stopped.stopped)
    }
}
