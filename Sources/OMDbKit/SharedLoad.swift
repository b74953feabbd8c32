import Synchronization

/// One fetch shared by every caller that asks for the same thing while it runs, so a record
/// or poster is never requested twice at once. Cancelled only when every waiter has given up.
final class SharedLoad<Value: Sendable>: Sendable {
    private let task: Task<Value, any Error>
    /// (callers waiting so far, callers that gave up)
    private let waiters = Mutex((joined: 0, cancelled: 0))

    init(_ operation: @escaping @Sendable () async throws -> Value) {
        task = Task(operation: operation)
    }

    /// The value, for one more waiter.
    func value() async throws -> Value {
        waiters.withLock { $0.joined += 1 }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            let everyoneGaveUp = waiters.withLock { state in
                state.cancelled += 1
                return state.cancelled == state.joined
            }
            if everyoneGaveUp { task.cancel() }
        }
    }
}
