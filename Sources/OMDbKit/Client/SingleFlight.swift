import Synchronization

/// One load per key at a time, shared by every caller that asks while it runs (after Go's
/// `x/sync/singleflight`). A cancelled caller leaves at once; when the last one leaves, the load is
/// cancelled and a later caller starts afresh, so nobody receives a `CancellationError` it did not
/// cause. The rules are ``SingleFlightStateMachine``'s, held under a lock; what they say is done outside it.
final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Machine = SingleFlightStateMachine<Key, CheckedContinuation<Value, any Error>, Task<Void, Never>>

    private let state: Mutex<Machine>

    /// - Parameter lastWaiterStays: see ``SingleFlightStateMachine/lastWaiterStays``.
    init(lastWaiterStays: Bool = false) {
        state = Mutex(Machine(lastWaiterStays: lastWaiterStays))
    }

    var inFlight: Int { state.withLock { $0.inFlight } }

    func waiters(for key: Key) -> Int { state.withLock { $0.waiters(for: key) } }

    /// The value of the load for `key`: joins the one in flight, or starts `operation`.
    /// - Throws: what `operation` threw, or `CancellationError` as soon as this caller is cancelled.
    func value(for key: Key, _ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let waiterID = state.withLock { $0.makeWaiterID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let join = state.withLock { $0.join(key, waiterID: waiterID, waiter: continuation, cancelled: Task.isCancelled) }
                switch join {
                case .wait: break
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .startLoad(let callID): start(key, callID: callID, operation)
                }
            }
        } onCancel: {
            switch state.withLock({ $0.leave(key, waiterID: waiterID) }) {
            case .none:
                break
            case .resumeCancelled(let waiter):
                waiter.resume(throwing: CancellationError())
            case .cancelLoad(let load):
                load.cancel()
            case let .cancelLoadAndResume(load, waiter):
                // The load first: what it cleans up on cancellation (a poster's partial file) is gone by
                // the time the waiter goes on.
                load?.cancel()
                waiter.resume(throwing: CancellationError())
            }
        }
    }

    private func start(_ key: Key, callID: Int, _ operation: @escaping @Sendable () async throws -> Value) {
        let task = Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            for waiter in state.withLock({ $0.finished(key, callID: callID) }) { waiter.resume(with: result) }
        }
        // Every waiter may have left between the lock and here: then nobody wants the load.
        if !state.withLock({ $0.started(key, callID: callID, load: task) }) { task.cancel() }
    }
}
