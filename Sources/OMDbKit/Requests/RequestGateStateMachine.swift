/// The rules of a ``RequestGate`` as a value, generic over what parks a waiter so that tests drive it
/// with plain values. Nobody waits while a place is free; a place left passes straight to the first in
/// line, so a newcomer never overtakes a waiter.
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
    private(set) var inFlight = 0
    private var nextID = 0
    /// The waiters, first in line first.
    private(set) var queue: [(id: Int, waiter: Waiter)] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

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

    /// Request `id` was cancelled: the waiter to fail with `CancellationError`, when it was in line.
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
