import Foundation
import Synchronization

/// Opens once, from any thread; tests wait on it for an event instead of sleeping and hoping.
///
/// Every wait has a deadline, and running into it fails (``wait(for:timeout:)`` throws) or is
/// remembered (``timedOut``): a wait never passes because time ran out.
public final class Latch: Sendable {
    private let group = DispatchGroup()
    private let state = Watched((opened: false, timedOut: false))

    public init() { group.enter() }

    public func open() {
        let first = state.update { state in
            defer { state.opened = true }
            return !state.opened
        }
        if first { group.leave() }
    }

    public var isOpen: Bool { state.value.opened }

    /// Blocks this thread (a server's or a transport's, never the pool's) until the latch opens,
    /// or `timeout` passes: then it opens it, and ``timedOut`` says so.
    public func wait(timeout: Duration) {
        if group.wait(timeout: .now() + timeout.seconds) == .timedOut {
            state.update { $0.timedOut = true }
            open()
        }
    }

    /// True when a blocking ``wait(timeout:)`` ran out before the latch opened.
    public var timedOut: Bool { state.value.timedOut }

    /// Suspends until the latch opens.
    /// - Throws: ``LatchTimeout`` naming `what` once `timeout` passes without it, or
    ///   `CancellationError` when the task is cancelled.
    public func wait(for what: String, timeout: Duration = .seconds(60)) async throws {
        try await state.wait(what, timeout: timeout) { $0.opened }
    }
}

/// A wait for an event that did not come in time.
public struct LatchTimeout: Error, CustomStringConvertible {
    public let what: String
    public let timeout: Duration

    public init(what: String, timeout: Duration) {
        self.what = what
        self.timeout = timeout
    }

    public var description: String { "waited \(timeout) for \(what)" }
}

/// Suspends until `condition` holds, looking every few milliseconds: only for a state the test can
/// see but not be told of (the waiters on a single flight, a process gone from /proc). Where an
/// event says it, wait on that instead (``Latch``, ``Watched``).
/// - Throws: ``LatchTimeout`` naming `what` once `timeout` passes without it: never a silent pass.
public func waitUntil(_ what: String, timeout: Duration = .seconds(60), every interval: Duration = .milliseconds(5),
                      isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw LatchTimeout(what: what, timeout: timeout) }
        try await Task.sleep(for: interval)
    }
}
