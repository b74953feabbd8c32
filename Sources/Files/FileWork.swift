import Dispatch

/// The one executor for blocking file work: the disk cache's reads and writes, the quota
/// ledger's locked updates, poster commits (`fsync`) and folder listings.
///
/// Such work blocks its thread (on the disk, on another process's `flock`). On the cooperative
/// pool, a thread per core, it stalls every task, the requests among them; on the main actor, the
/// prompt. Here it runs on Dispatch threads while the task that asked for it is suspended.
///
/// Each item gets a serial queue of its own, which Dispatch runs on its overcommitting pool: a
/// thread is started whenever none is idle, and idle ones are reused. A concurrent queue would
/// share the pool that has a thread per core, where one item blocked on a lock stalls the rest.
package enum FileWork {
    /// Starts `work` on a thread that may block, and returns at once.
    package static func start(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue(label: "movies.file-work", qos: .userInitiated).async(execute: work)
    }

    /// The value of `work`, run on a thread that may block (or on `lane`, after what it already
    /// holds); the calling task suspends meanwhile, holding no thread. Not cancellable: file work
    /// is short and must finish.
    package static func run<T: Sendable>(on lane: DispatchQueue? = nil, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let item: @Sendable () -> Void = { continuation.resume(returning: work()) }
            if let lane { lane.async(execute: item) } else { start(item) }
        }
    }

    /// A lane: work that must happen in order (one item at a time, in the order asked) on a
    /// thread that may block.
    package static func lane(_ label: String) -> DispatchQueue {
        DispatchQueue(label: label, qos: .userInitiated)
    }
}
