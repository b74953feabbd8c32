import Dispatch
import Files
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writes a program must let finish before it exits: posters being written and daily counts
/// not yet in their file. The library keeps none of its own.
///
/// The program makes one, hands it to the ``PosterStore``s and ``QuotaLedger``s it creates, and
/// calls ``finish(timeout:)`` right before exiting. Two of them know nothing of each other:
/// finishing one neither waits for nor refuses the other's writes.
///
/// ```swift
/// let writes = PendingWrites()
/// let store = PosterStore(folder: folder, writes: writes)
/// // … searches, posters …
/// writes.finish()
/// exit(0)
/// ```
public final class PendingWrites: Sendable {
    /// The temporary files of poster writes in progress (by path, with the folder they are in,
    /// as opened), and whether new ones are refused (``finish(timeout:)`` was called).
    let posters = Mutex((temporaries: [String: OpenFolder](), closed: false))
    /// The ledgers' writes, in the order they were asked for: a lane of ``FileWork``.
    let counts = FileWork.lane("movies.quota-ledger")
    /// What ``finish(timeout:)`` runs before the last counts are written: each ledger counts its
    /// requests in flight.
    private let beforeLastCounts = Mutex<[@Sendable () -> Void]>([])

    /// A set of writes with nothing pending.
    public init() {}

    /// How many poster writes are in progress.
    public var postersInProgress: Int { posters.withLock { $0.temporaries.count } }

    /// Refuses new poster writes and waits (blocking) for those in progress, so that exiting never
    /// cuts one in half; past `timeout` (a very slow disk) their temporary files are removed
    /// instead, so no partial file is left. Then lets each ledger count its requests in flight
    /// (up to a quarter of a second for cancelled ones to settle), and waits for every count to be written.
    public func finish(timeout: Duration = .seconds(5)) {
        posters.withLock { $0.closed = true }
        let deadline = ContinuousClock.now + timeout
        while postersInProgress > 0, ContinuousClock.now < deadline {
            usleep(2_000)
        }
        for (path, folder) in posters.withLock({ $0.temporaries }) { folder.remove(URL(fileURLWithPath: path).lastPathComponent) }
        for body in beforeLastCounts.withLock({ $0 }) { body() }
        finishCounts()
    }

    /// Runs `body` in ``finish(timeout:)``, before the last counts are written.
    func beforeFinishingCounts(_ body: @escaping @Sendable () -> Void) {
        beforeLastCounts.withLock { $0.append(body) }
    }

    /// Waits until every count asked for so far is written.
    func finishCounts() { counts.sync {} }

    /// Records the temporary file of a poster write; false once ``finish(timeout:)`` was called.
    func admit(_ temporary: URL, in folder: OpenFolder) -> Bool {
        posters.withLock { state in
            guard !state.closed else { return false }
            state.temporaries[temporary.path] = folder
            return true
        }
    }

    /// The poster write of `temporary` is over (committed or discarded).
    func release(_ temporary: URL) {
        posters.withLock { _ = $0.temporaries.removeValue(forKey: temporary.path) }
    }
}
