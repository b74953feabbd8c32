import Synchronization

/// An async semaphore: at most `limit` requests in flight (`maxConcurrentRequests`), the rest wait
/// in order; a cancelled waiter leaves at once. The rules are ``RequestGateStateMachine``'s.
final class RequestGate: Sendable {
    typealias Machine = RequestGateStateMachine<CheckedContinuation<Void, any Error>>

    private let state: Mutex<Machine>

    init(limit: Int) {
        state = Mutex(Machine(limit: limit))
    }

    /// Runs `body` once a place is free, and frees it when `body` ends (thrown or not).
    func withPlace<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let id = state.withLock { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                switch state.withLock({ $0.enter(id, waiter: continuation, cancelled: Task.isCancelled) }) {
                case .admitted: continuation.resume()
                case .queued: break
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            state.withLock { $0.cancel(id) }?.resume(throwing: CancellationError())
        }
        // The place passes straight to the next in line.
        defer { state.withLock { $0.leave() }?.resume() }
        return try await body()
    }
}
