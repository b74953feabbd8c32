import Synchronization

/// One fetch shared by every caller that asks for the same thing while it runs, so a record
/// or poster is never requested twice at once.
///
/// A waiter that is cancelled stops waiting at once; the fetch itself is cancelled when the
/// last waiter gives up, and the load is then ``isAbandoned``: the next caller starts a new one.
final class SharedLoad<Value: Sendable>: Sendable {
    private struct State {
        var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
        var nextWaiter = 0
        var result: Result<Value, any Error>?
        var abandoned = false
    }

    /// Shared with the fetching task, which must not hold `self` before `init` ends.
    private final class Box: Sendable {
        let state = Mutex(State())

        func finish(_ result: Result<Value, any Error>) {
            let waiters = state.withLock { state in
                state.result = result
                defer { state.waiters.removeAll() }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: result) }
        }
    }

    /// What a new waiter does.
    private enum Next {
        case wait
        case now(Result<Value, any Error>)
        case cancelled(abandon: Bool)
    }

    private let box = Box()
    private let task: Task<Void, Never>

    init(_ operation: @escaping @Sendable () async throws -> Value) {
        let box = self.box
        task = Task {
            do {
                box.finish(.success(try await operation()))
            } catch {
                box.finish(.failure(error))
            }
        }
    }

    /// True once every waiter gave up before the value came: do not join it.
    var isAbandoned: Bool { box.state.withLock { $0.abandoned } }

    /// The value, for one more waiter. Throws `CancellationError` as soon as this waiter is cancelled.
    func value() async throws -> Value {
        let id = box.state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let next: Next = box.state.withLock { state in
                    if let result = state.result { return .now(result) }
                    // Cancelled before it could wait: onCancel already ran and found nothing to resume.
                    if Task.isCancelled {
                        let abandon = state.waiters.isEmpty
                        if abandon { state.abandoned = true }
                        return .cancelled(abandon: abandon)
                    }
                    state.waiters[id] = continuation
                    return .wait
                }
                switch next {
                case .wait: break
                case .now(let result): continuation.resume(with: result)
                case .cancelled(let abandon):
                    continuation.resume(throwing: CancellationError())
                    if abandon { task.cancel() }
                }
            }
        } onCancel: {
            let (waiter, abandon) = box.state.withLock { state in
                let waiter = state.waiters.removeValue(forKey: id)
                let abandon = waiter != nil && state.waiters.isEmpty && state.result == nil
                if abandon { state.abandoned = true }
                return (waiter, abandon)
            }
            waiter?.resume(throwing: CancellationError())
            if abandon { task.cancel() }
        }
    }
}
