import Dispatch

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
        try Task.checkCancellation()
        // A stream's reader leaves when its task is cancelled, whatever its writer is doing.
        let (result, writer) = AsyncThrowingStream.makeStream(of: T.self)
        lane.async { writer.yield(with: Result { try work() }) }
        for try await value in result { return value }
        throw CancellationError()
    }

    /// A lane: work done one item at a time, in order, on a thread that may block.
    package static func lane(_ label: String) -> DispatchQueue {
        DispatchQueue(label: label, qos: .userInitiated)
    }
}
