import Dispatch
import Synchronization

/// A value other threads change, and tests wait on: every change wakes the waits whose condition
/// now holds. A wait is an event (no looking every few milliseconds), with a deadline that fails.
public final class Watched<Value: Sendable>: Sendable {
    private struct Waiter: Sendable {
        let condition: @Sendable (Value) -> Bool
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State: Sendable {
        var value: Value
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
        /// Waits cancelled before they were registered.
        var cancelled: Set<UInt64> = []
    }

    private let state: Mutex<State>

    public init(_ value: Value) { state = Mutex(State(value: value)) }

    public var value: Value { state.withLock { $0.value } }

    /// Changes the value, and wakes the waits it satisfies.
    @discardableResult
    public func update<Result>(_ change: (inout Value) -> Result) -> Result {
        let (result, woken) = state.withLock { state in
            let result = change(&state.value)
            let woken = state.waiters.filter { $0.value.condition(state.value) }
            for id in woken.keys { state.waiters[id] = nil }
            return (result, woken.values.map(\.continuation))
        }
        for continuation in woken { continuation.resume() }
        return result
    }

    /// Suspends until `condition` holds for the value (at once when it does already).
    /// - Throws: ``LatchTimeout`` naming `what` once `timeout` passes without it, or
    ///   `CancellationError` when the task is cancelled.
    public func wait(_ what: String, timeout: Duration = .seconds(60), until condition: @escaping @Sendable (Value) -> Bool) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if condition(state.value) { return .success(()) }
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return nil
                }
                if let now { return continuation.resume(with: now) }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { [self] in
                    end(id, with: LatchTimeout(what: what, timeout: timeout))
                }
            }
        } onCancel: {
            end(id, with: CancellationError())
        }
    }

    /// Ends wait `id` with `error`, if it is still waiting.
    private func end(_ id: UInt64, with error: any Error) {
        let waiter = state.withLock { state in
            let waiter = state.waiters.removeValue(forKey: id)
            if waiter == nil, error is CancellationError { state.cancelled.insert(id) }
            return waiter
        }
        waiter?.continuation.resume(throwing: error)
    }
}

extension Duration {
    /// In seconds, for Dispatch and Foundation.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
