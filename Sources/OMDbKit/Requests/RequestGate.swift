import Synchronization

/// An async semaphore: at most `limit` requests in flight, the rest wait in order.
///
/// It is the meaning of `maxConcurrentRequests`: requests handed to the transport, not rows.
/// A waiter that is cancelled leaves the queue at once.
final class RequestGate: Sendable {
    private struct State {
        var available: Int
        var inFlight = 0
        var peak = 0
        var nextID = 0
        var queue: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let state: Mutex<State>

    init(limit: Int) {
        state = Mutex(State(available: max(1, limit)))
    }

    /// The most requests that were in flight at once so far.
    var peak: Int { state.withLock { $0.peak } }

    /// Runs `body` once a place is free, and frees it when `body` ends (thrown or not).
    func withPlace<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admitted: Bool? = state.withLock { state in
                    if Task.isCancelled { return nil }
                    if state.available > 0 {
                        state.available -= 1
                        state.inFlight += 1
                        state.peak = max(state.peak, state.inFlight)
                        return true
                    }
                    state.queue.append((id, continuation))
                    return false
                }
                switch admitted {
                case true?: continuation.resume()
                case false?: break
                case nil: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.queue.firstIndex(where: { $0.id == id }) else { return nil }
                return state.queue.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.inFlight -= 1
            guard !state.queue.isEmpty else {
                state.available += 1
                return nil
            }
            // The place passes straight to the next in line.
            state.inFlight += 1
            state.peak = max(state.peak, state.inFlight)
            return state.queue.removeFirst().continuation
        }
        next?.resume()
    }
}
