import Dispatch
import Synchronization

/// The one executor for blocking file work: cache writes, the ledger's locked updates, poster writes,
/// folder listings.
///
/// Such work blocks its thread (on the disk, on another process's `flock`): on the cooperative pool it
/// would stall every task, on the main actor the prompt. Serial queues run on Dispatch's overcommitting
/// pool, which starts a thread when none is idle; a concurrent queue would share the one-per-core pool.
package enum FileWork {
    /// Starts `work` on a thread that may block, and returns at once.
    package static func start(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue(label: "movies.file-work", qos: .userInitiated).async(execute: work)
    }

    /// The value of `work`, run on a thread that may block; the caller suspends meanwhile. Not
    /// cancellable: file work is short and must finish.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in start { continuation.resume(returning: work()) } }
    }

    /// The value of `work`, run on `lane`; a cancelled caller leaves at once with `CancellationError`
    /// while the work runs on to its end (a poster's write).
    package static func runUnlessCancelled<T: Sendable>(on lane: DispatchQueue, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let caller = Caller<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard caller.wait(continuation) else { return }
                lane.async { caller.resume(with: Result { try work() }) }
            }
        } onCancel: {
            caller.resume(with: .failure(CancellationError()))
        }
    }

    /// A lane: work done one item at a time, in order, on a thread that may block.
    package static func lane(_ label: String) -> DispatchQueue {
        DispatchQueue(label: label, qos: .userInitiated)
    }

    /// A caller resumed once: by its work's end or by its cancellation, whichever comes first.
    private final class Caller<T: Sendable>: Sendable {
        private let state = Mutex<(waiter: CheckedContinuation<T, any Error>?, done: Result<T, any Error>?)>((nil, nil))

        /// Parks `waiter`; false when it was resumed at once (cancelled before it could wait).
        func wait(_ waiter: CheckedContinuation<T, any Error>) -> Bool {
            let done = state.withLock { state in
                if state.done == nil { state.waiter = waiter }
                return state.done
            }
            guard let done else { return true }
            waiter.resume(with: done)
            return false
        }

        func resume(with result: Result<T, any Error>) {
            state.withLock { state -> CheckedContinuation<T, any Error>? in
                guard state.done == nil else { return nil }
                state.done = result
                defer { state.waiter = nil }
                return state.waiter
            }?.resume(with: result)
        }
    }
}
