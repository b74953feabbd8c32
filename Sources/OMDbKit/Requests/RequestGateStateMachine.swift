/// The rules of a ``RequestGate`` as a value: each event (a request asks for a place, a waiter is
/// cancelled, a request leaves its place) changes the state and returns what is to be done.
/// Generic over what parks a waiter, so that tests drive it with plain values.
///
/// The gate is in one of three states:
/// - open: fewer than `limit` places taken (``available`` > 0), nobody waits;
/// - full: every place taken, nobody waits;
/// - queueing: every place taken and waiters in line (``queue`` is never non-empty while a place is free).
/// A place that is left passes straight to the first in line, so a newcomer never overtakes a waiter.
struct RequestGateStateMachine<Waiter> {
    /// What a request that asked for a place does once the lock is released.
    enum Enter: Equatable {
        /// It has its place: go on at once.
        case admitted
        /// Parked in line: it is resumed when a place passes to it, or fails when cancelled.
        case queued
        /// Cancelled before it could wait: fail it with `CancellationError` now.
        case cancelled
    }

    let limit: Int
    /// Places taken now.
    private(set) var inFlight = 0
    private var nextID = 0
    /// The waiters, first in line first.
    private(set) var queue: [(id: Int, waiter: Waiter)] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Places free now.
    var available: Int { limit - inFlight }

    /// A number for a request, unique in this machine: what its cancellation names.
    mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    // MARK: Events

    /// Request `id`, parked on `waiter`, asks for a place.
    mutating func enter(_ id: Int, waiter: Waiter, cancelled: Bool) -> Enter {
        if cancelled { return .cancelled }
        guard available > 0 else {
            queue.append((id, waiter))
            return .queued
        }
        inFlight += 1
        return .admitted
    }

    /// Request `id` was cancelled: the waiter to fail with `CancellationError` when it was in line
    /// (nil when it had its place already, or never waited).
    mutating func cancel(_ id: Int) -> Waiter? {
        guard let index = queue.firstIndex(where: { $0.id == id }) else { return nil }
        return queue.remove(at: index).waiter
    }

    /// A request left its place: the waiter it passes to, to resume, or nil when the place is free again.
    mutating func leave() -> Waiter? {
        guard !queue.isEmpty else {
            inFlight -= 1
            return nil
        }
        return queue.removeFirst().waiter
    }
}
