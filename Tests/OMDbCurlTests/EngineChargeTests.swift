import FakeOMDb
import Foundation
@testable import OMDbCurl
import OMDbKit
import OMDbTestSupport
import Synchronization
import Testing
import TestSupport

/// A request's deadline is charged with the engine's running time from when the request started:
/// all the time each turn took, however busy the machine, but none of a turn the process was
/// stopped in. (The engine tests start a fake server.)
@Suite struct EngineChargeTests {
    /// A clock the test moves by hand.
    final class HandClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        private let hold = Mutex<(reached: Latch, release: Latch, by: Duration)?>(nil)
        func advance(_ duration: Duration) { instant.withLock { $0 += duration } }

        var now: ContinuousClock.Instant {
            if let hold = hold.withLock({ hold in defer { hold = nil }; return hold }) {
                hold.reached.open()
                hold.release.wait(timeout: .seconds(60))
                advance(hold.by)
            }
            return instant.withLock { $0 }
        }

        /// The next reading waits for `release` and finds `duration` gone: the engine's turn held
        /// after its sleep, as a stop in a busy turn holds it.
        func holdNextReading(advancingBy duration: Duration) -> (reached: Latch, release: Latch) {
            let held = (reached: Latch(), release: Latch())
            hold.withLock { $0 = (held.reached, held.release, duration) }
            return held
        }
    }

    /// A turn 5 s late with no stop (a busy machine) is the request's time: it ends the request.
    @Test func aBusyTurnIsChargedInFull() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in .hang }
        defer { server.shutdown() }
        let clock = HandClock()
        let (engine, sent) = try Self.send(to: server, clock: clock, timeout: 2)
        defer { engine.post(.stop) }
        try await server.waitForRequests("the request to be written") { !$0.isEmpty }
        clock.advance(.seconds(5))
        #expect(try await sent.error() == .timedOut)
    }

    /// A turn charged 5 s (a stop in a busy turn, which no EINTR tells) during which the whole
    /// answer came: it is read before the request is timed out. Answered, not asked again.
    @Test func anAnswerThatCameInAChargedTurnIsReadBeforeATimeout() async throws {
        let gate = Latch()
        let server = try FakeOMDbServer(catalogue: catalogue) { _ in
            gate.wait(timeout: .seconds(60))
            return nil
        }
        defer { server.shutdown() }
        let clock = HandClock()
        let engine = try CurlEngine(maxConnectionsPerHost: 2, library: nil, now: { clock.now })
        defer { engine.post(.stop) }
        let transfer = CurlTransfer(url: server.baseURL.appendingPathComponent("x"), setup: Self.setup, engine: engine, timeout: 2)
        let sent = Sent(transfer)
        try await server.waitForRequests("the request to be written") { !$0.isEmpty }
        let held = clock.holdNextReading(advancingBy: .seconds(5))
        engine.post(.resume(transfer))   // a turn, woken by a command
        try await held.reached.wait(for: "the engine's turn to read its clock")
        gate.open()
        try await waitUntil("the answer to be written") { server.answersWritten == 1 }
        held.release.open()
        #expect(try await sent.error() == nil)
    }

    /// An engine idle for 1.2 s (by its clock) is handed a request with a 1 s deadline to a
    /// server that never answers: the request is written, and only the time after that ends it,
    /// as a timeout of the answer, not as a connection "not made in time" before it was sent.
    @Test func theSleepBeforeARequestIsNotChargedToIt() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue) { request in request.path.contains("hang") ? .hang : nil }
        defer { server.shutdown() }
        let clock = HandClock()
        // A first request answered: the engine's thread runs and has read its clock.
        let (engine, first) = try Self.send(to: server, path: "ok", clock: clock, timeout: 1)
        defer { engine.post(.stop) }
        _ = try await first.error()
        clock.advance(.milliseconds(1_200))
        let sent = Sent(CurlTransfer(url: server.baseURL.appendingPathComponent("hang"), setup: Self.setup, engine: engine, timeout: 1))
        try await waitUntil("the request to be written, or ended") { server.requests.count == 2 || sent.ended.isOpen }
        #expect(server.requests.count == 2, "ended before it was sent")
        clock.advance(.milliseconds(1_100))
        #expect(try await sent.error() == .timedOut)
    }

    private static let setup = CurlTransfer.Setup(timeout: 1, caFile: nil, caFolder: nil, userAgent: "movies-test")

    /// A new engine on `clock`, and a request to `server` sent on it.
    private static func send(to server: FakeOMDbServer, path: String = "x", clock: HandClock, timeout: Int) throws
        -> (CurlEngine, Sent) {
        let engine = try CurlEngine(maxConnectionsPerHost: 2, library: nil, now: { clock.now })
        return (engine, Sent(CurlTransfer(url: server.baseURL.appendingPathComponent(path), setup: setup, engine: engine, timeout: timeout)))
    }

    /// A transfer sent: ``ended`` opens when the send ends.
    final class Sent: Sendable {
        let ended = Latch()
        private let result = Mutex<TransportError??>(nil)

        init(_ transfer: CurlTransfer) {
            Task { [self] in
                var failure: TransportError?
                do { _ = try await transfer.send() } catch let error as TransportError { failure = error } catch { failure = .connectionLost }
                result.withLock { $0 = .some(failure) }
                ended.open()
            }
        }

        /// How the send ended: nil when answered. Waits a minute at most: a request that no
        /// deadline ends fails the test rather than hang it.
        func error() async throws -> TransportError? {
            try await ended.wait(for: "the request to end", timeout: .seconds(60))
            return result.withLock { $0 } ?? nil
        }
    }
}
