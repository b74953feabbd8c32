import Foundation
import Synchronization

/// Opens once, from any thread; tests wait on it for an event instead of sleeping and hoping.
///
/// Every wait has a deadline, and running into it fails (``wait(for:timeout:)`` throws) or is
/// remembered (``timedOut``): a wait never passes because time ran out.
public final class Latch: Sendable {
    private let group = DispatchGroup()
    private let state = Mutex((opened: false, timedOut: false))

    public init() { group.enter() }

    public func open() {
        let first = state.withLock { state in
            defer { state.opened = true }
            return !state.opened
        }
        if first { group.leave() }
    }

    public var isOpen: Bool { state.withLock { $0.opened } }

    /// Blocks this thread (a server's or a transport's, never the pool's) until the latch opens,
    /// or `timeout` passes: then it opens it, and ``timedOut`` says so.
    public func wait(timeout: Duration) {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        if group.wait(timeout: .now() + seconds) == .timedOut {
            state.withLock { $0.timedOut = true }
            open()
        }
    }

    /// True when a blocking ``wait(timeout:)`` ran out before the latch opened.
    public var timedOut: Bool { state.withLock { $0.timedOut } }

    /// Suspends until the latch opens.
    /// - Throws: ``LatchTimeout`` naming `what` once `timeout` passes without it.
    public func wait(for what: String, timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !isOpen {
            guard ContinuousClock.now < deadline else { throw LatchTimeout(what: what, timeout: timeout) }
            try await Task.sleep(for: .milliseconds(2))
        }
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

/// Suspends until `condition` holds, looking every few milliseconds: for a state the test can
/// see but not be told of (a count on a server, a file in a folder).
/// - Throws: ``LatchTimeout`` naming `what` once `timeout` passes without it: never a silent pass.
public func waitUntil(_ what: String, timeout: Duration = .seconds(60), _ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw LatchTimeout(what: what, timeout: timeout) }
        try await Task.sleep(for: .milliseconds(5))
    }
}
