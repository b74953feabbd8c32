import Synchronization

/// One load per key at a time, shared by every caller that asks while it runs (after Go's
/// `x/sync/singleflight`): what ``Memo`` is built on.
///
/// - A caller joins under the same lock that starts and ends calls, so it either joins the call
///   in flight or starts the next one: never a second call for a key already loading.
/// - A call lives until its load ends, whichever waiters come and go.
/// - A cancelled caller leaves at once with `CancellationError`; the others keep waiting.
/// - When the last waiter leaves, the load is cancelled and the call ends there: a caller that
///   comes later starts a fresh load instead of joining a cancelled one. So a caller that was
///   not cancelled never receives a `CancellationError` it did not cause (``cancelAll()`` aside).
/// - Nothing is remembered once a call ends: ``Memo`` remembers.
final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Call {
        let id: Int
        var task: Task<Void, Never>?
        var waiters: [Int: CheckedContinuation<Value, any Error>]
    }

    private struct State {
        var calls: [Key: Call] = [:]
        var nextID = 0

        mutating func makeID() -> Int {
            nextID += 1
            return nextID
        }
    }

    /// What a caller does once the lock is released.
    private enum Joined {
        case waiting
        case start(callID: Int)
        case cancelled
    }

    private let state = Mutex(State())

    init() {}

    /// How many loads are running now.
    var inFlight: Int { state.withLock { $0.calls.count } }

    /// How many callers wait for the load of `key`.
    func waiters(for key: Key) -> Int { state.withLock { $0.calls[key]?.waiters.count ?? 0 } }

    /// The value of the load for `key`: joins the one in flight, or starts `operation`.
    /// - Throws: what `operation` threw, or `CancellationError` as soon as this caller is cancelled.
    func value(for key: Key, _ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let waiterID = state.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let joined: Joined = state.withLock { state in
                    // Cancelled before it could wait: the cancellation handler already ran and found nothing.
                    if Task.isCancelled { return .cancelled }
                    if state.calls[key] != nil {
                        state.calls[key]?.waiters[waiterID] = continuation
                        return .waiting
                    }
                    let callID = state.makeID()
                    state.calls[key] = Call(id: callID, task: nil, waiters: [waiterID: continuation])
                    return .start(callID: callID)
                }
                switch joined {
                case .waiting: break
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .start(let callID): start(key, callID: callID, operation)
                }
            }
        } onCancel: {
            leave(key, waiterID: waiterID)
        }
    }

    /// Ends every call now: their waiters get `CancellationError` and their loads are cancelled.
    /// For a new search, which makes the pages of the old one moot.
    func cancelAll() {
        let calls = state.withLock { state in
            defer { state.calls.removeAll() }
            return Array(state.calls.values)
        }
        for call in calls {
            call.task?.cancel()
            for waiter in call.waiters.values { waiter.resume(throwing: CancellationError()) }
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
            finish(key, callID: callID, with: result)
        }
        // Every waiter may have left between the lock and here: then nobody wants the load.
        let abandoned = state.withLock { state in
            guard state.calls[key]?.id == callID else { return true }
            state.calls[key]?.task = task
            return false
        }
        if abandoned { task.cancel() }
    }

    private func finish(_ key: Key, callID: Int, with result: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            guard state.calls[key]?.id == callID else { return [] }
            return Array(state.calls.removeValue(forKey: key)?.waiters.values ?? [:].values)
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    private func leave(_ key: Key, waiterID: Int) {
        let (waiter, abandonedTask) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
            guard let waiter = state.calls[key]?.waiters.removeValue(forKey: waiterID) else { return (nil, nil) }
            guard state.calls[key]?.waiters.isEmpty == true else { return (waiter, nil) }
            // The last one out ends the call; a newcomer starts afresh rather than join a cancelled load.
            return (waiter, state.calls.removeValue(forKey: key)?.task)
        }
        // The load first: what it cleans up on cancellation (a poster's partial file) is gone by
        // the time the waiter goes on.
        abandonedTask?.cancel()
        waiter?.resume(throwing: CancellationError())
    }
}
