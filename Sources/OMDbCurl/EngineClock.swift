import Foundation

/// The engine's running time: what a request's deadline is charged with.
///
/// The wall clock runs on while the process is stopped (Ctrl-Z, a debugger, a laptop lid), and a
/// deadline charged with it fails every request in flight the moment the process is continued,
/// though their answers may be waiting on the socket. The engine's thread never sleeps longer
/// than ``backstop`` at a time, so a turn of its loop that took much longer was a stop: it is
/// charged as ``maxTurn`` at most, and the answers that arrived meanwhile are read before any
/// deadline is looked at.
struct EngineClock {
    /// The longest the engine's thread sleeps in one turn.
    static let backstop: Duration = .seconds(1)
    /// The most one turn of the loop is charged: a sleep, with room for a busy machine.
    static let maxTurn: Duration = .milliseconds(1_250)

    private let now: @Sendable () -> ContinuousClock.Instant
    private var last: ContinuousClock.Instant

    init(now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.now = now
        last = now()
    }

    /// How much longer than planned a turn may take before it counts as a stop, not a busy machine.
    static let stopSlack: Duration = .milliseconds(250)

    /// The running time since the last tick: the time that passed, or ``maxTurn`` when more did;
    /// and whether the process was stopped meanwhile: the turn took longer than the `planned`
    /// sleep by more than ``stopSlack``.
    mutating func tick(planned: Duration) -> (elapsed: Duration, stopped: Bool) {
        let current = now()
        defer { last = current }
        let passed = max(current - last, .zero)
        return (min(passed, Self.maxTurn), passed > planned + Self.stopSlack)
    }
}

extension Duration {
    /// Whole milliseconds, rounded up, at most a day.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        guard seconds < 86_400 else { return 86_400_000 }
        return Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
