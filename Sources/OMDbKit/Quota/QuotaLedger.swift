import Foundation
import Files
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many API requests this tool sent today with one key: OMDb itself never says.
///
/// Kept in `$XDG_STATE_HOME/movies` (default `~/.local/state/movies`), one small file per key,
/// named by a hash of the key: the key itself is never written. OMDb does not say when its day
/// turns, so the count is per UTC day. Every change is a read-modify-write under `flock(2)` on a
/// lock file beside it, and the new content is renamed into place, so processes sharing a key
/// count together and a crash never leaves half a file.
///
/// ``recordRequestSent()`` returns at once: the count is kept in memory and written on a serial
/// lane of `FileWork` (its ``writes``), off the caller's actor, so a page's twenty requests cost one or two writes, not twenty
/// (each is a lock, a read and a rename). Reads wait for the writes already asked for.
public final class QuotaLedger: Sendable {
    /// The folder holding the counts.
    public let folder: URL
    /// Requests a day the key allows; `nil` for no limit (some patron keys).
    public let dailyLimit: Int?
    /// Names this key's files: the first 16 hex digits of a SHA-256 of the key.
    let keyHash: String
    let now: @Sendable () -> Date
    /// The UTC day this process last gave the 90 % warning.
    private let warnedDay = Mutex<String?>(nil)
    /// What this process counted and has not yet seen in the file, and the file's last count it saw.
    struct Counts {
        /// Counted but not yet written, by UTC day. A write is queued when this goes from empty to
        /// not; the write takes everything counted by the time it runs.
        var unwritten: [String: Int] = [:]
        /// Taken by the write running now, until the file holds them.
        var writing: [String: Int] = [:]
        /// The file's record the last time this process read or wrote it (other processes' counts
        /// up to then included).
        var known: Record?
        /// Reserved by requests about to be sent and not yet counted or given back, by UTC day:
        /// the limit holds for requests in flight, not only for those already counted.
        var reserved: [String: Int] = [:]
        /// The program is ending (``QuotaLedger/countRequestsInFlight(waitingUpTo:)``): the requests reserved
        /// then are counted, and so is any reserved after.
        var closed = false
    }

    let counts = Mutex(Counts())
    /// The line saying a damaged file was set aside, until ``takeNotice()`` takes it.
    let pendingNotice = Mutex<String?>(nil)
    /// How many times the file was written, and read: what coalescing and the estimate save shows here.
    let fileWrites = Atomic<Int>(0)
    let fileReads = Atomic<Int>(0)

    /// The free key's limit.
    public static let defaultDailyLimit = 1_000
    /// Where the counts not yet written wait their turn: the program finishes them before exiting.
    public let writes: PendingWrites

    /// - Parameters:
    ///   - folder: where the counts are kept (see ``defaultFolder(environment:)``).
    ///   - apiKey: the key counted for; only a hash of it names the file.
    ///   - dailyLimit: requests a day the key allows; `nil` for no limit.
    ///   - writes: holds the writes of the count, for ``PendingWrites/finish(timeout:)`` before
    ///     exiting; by default a set of the ledger's own (``writes``).
    ///   - now: the clock; tests pass their own.
    public init(folder: URL, apiKey: String, dailyLimit: Int? = QuotaLedger.defaultDailyLimit,
                writes: PendingWrites = PendingWrites(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.folder = folder.standardizedFileURL
        self.dailyLimit = dailyLimit
        self.writes = writes
        keyHash = String(SHA256.hex("movies quota ledger: " + apiKey).prefix(16))
        self.now = now
        writes.beforeFinishingCounts { [weak self] in self?.countRequestsInFlight() }
    }

    /// `$XDG_STATE_HOME/movies` when that is an absolute path, else `HOME/.local/state/movies`.
    public static func defaultFolder(environment: [String: String]) -> URL {
        XDGFolder.state.url(environment: environment)
    }

    // MARK: Counting

    /// Counts one request sent now. Returns at once; failures to write are ignored (the count is advice).
    public func recordRequestSent() {
        count(day: Self.utcDay(now()), reserved: false)
    }

    /// The program is ending (``PendingWrites/finish(timeout:)``, on SIGTERM and SIGHUP too).
    /// Waits up to `limit` for the places still reserved to be settled: a cancelled request counts
    /// itself (it may have reached OMDb) or gives its place back, within milliseconds. Before, the
    /// last write could come first, and their counts were lost: a SIGTERM during a page left 52
    /// of 133 requests uncounted in 12 runs. Whatever is still reserved then counts as sent (a
    /// request not cancelled, such as the next page's search when `quit` is typed at once, is on
    /// its way: the wait stays short so that quitting does not wait for its answer); its later
    /// commit or release changes nothing, and a request reserved after this counts at once.
    func countRequestsInFlight(waitingUpTo limit: Duration = .milliseconds(250)) {
        let deadline = ContinuousClock.now + limit
        while reservedCount > 0, ContinuousClock.now < deadline { usleep(2_000) }
        let queueWrite = counts.withLock { counts -> Bool in
            counts.closed = true
            guard !counts.reserved.isEmpty else { return false }
            let wasEmpty = counts.unwritten.isEmpty
            for (day, inFlight) in counts.reserved { counts.unwritten[day] = Self.adding(counts.unwritten[day, default: 0], inFlight) }
            counts.reserved = [:]
            return wasEmpty
        }
        if queueWrite { writes.counts.async { self.writeUnwritten() } }
    }

    /// Moves one request into the count (from the reserved ones when `reserved`), and queues a
    /// write when none is queued. A reserved one is already counted once the program is ending.
    func count(day: String, reserved: Bool) {
        let queueWrite = counts.withLock { counts -> Bool in
            if reserved, counts.closed { return false }
            // In one step, so the sum the limit is checked against never dips.
            if reserved { counts.reserved[day, default: 1] -= 1 }
            defer { counts.unwritten[day, default: 0] += 1 }
            return counts.unwritten.isEmpty
        }
        guard queueWrite else { return }
        writes.counts.async { self.writeUnwritten() }
    }

    /// Adds what was counted since the last write to the file, a day at a time.
    private func writeUnwritten() {
        let taken = counts.withLock { counts in
            defer { counts.writing = counts.unwritten; counts.unwritten = [:] }
            return counts.unwritten
        }
        for (day, count) in taken.sorted(by: { $0.key < $1.key }) {
            let record = update(day: day) { $0.sent = Self.adding($0.sent, count) }
            // In one step: the count moves from "writing" to the file's record, never in both.
            counts.withLock { counts in
                counts.writing[day] = nil
                if let record { counts.known = record }
            }
        }
    }

    /// The one line to show once when the file was found damaged and set aside; `nil` otherwise.
    public func takeNotice() -> String? { pendingNotice.withLock { notice in defer { notice = nil }; return notice } }

    /// `a + b`, stopping at ``maximumCount``: a count never overflows, whatever a file held.
    static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? maximumCount : min(sum, maximumCount)
    }

    /// Waits until every count asked for in this ledger's ``writes`` is written.
    func finishWrites() { writes.finishCounts() }

    /// Today's count (UTC), this process's pending writes included: read from the file, for the
    /// `quota` report and the limit message.
    public func usage() -> QuotaUsage {
        let day = Self.utcDay(now())
        // On the writes' queue: after the writes already asked for, and between writes, so no
        // count is both in the file and on its way there.
        let record = writes.counts.sync {
            var record = Record(day: day)
            switch read() {
            case .record(let found) where found.day == day: record = found
            // Set aside under the lock, and counted from zero.
            case .damaged: record = update(day: day) { _ in } ?? record
            case .record, .missing: break
            }
            counts.withLock { $0.known = record }
            return record
        }
        return QuotaUsage(day: day, sent: record.sent, limit: dailyLimit)
    }

    /// Today's count without touching the disk, for a status line redrawn as a page fills: the
    /// file's count when this process last read or wrote it, plus what it counted since. Exact
    /// for this process; another process's requests show from this one's next write. Reads the
    /// file once when nothing of today is known yet.
    public func estimatedUsage() -> QuotaUsage {
        let day = Self.utcDay(now())
        let estimate = counts.withLock { counts -> Int? in
            guard let known = counts.known, known.day == day else { return nil }
            return Self.adding(known.sent, counts.pending(day))
        }
        guard let estimate else { return usage() }
        return QuotaUsage(day: day, sent: estimate, limit: dailyLimit)
    }

    /// Today's usage when it has just reached 90 % of the limit and no process has warned today;
    /// `nil` otherwise. The warning is written into the ledger, so it is given once a day.
    public func warningDue() -> QuotaUsage? {
        guard let limit = dailyLimit else { return nil }
        let day = Self.utcDay(now())
        if warnedDay.withLock({ $0 }) == day { return nil }
        // Asked after every command: the file is read again only once the count is near the line.
        // After this process's writes, the estimate holds every other process's count up to them.
        finishWrites()
        if estimatedUsage().sent < limit - limit / 10 { return nil }
        var due: QuotaUsage?
        writes.counts.sync {
            _ = update(day: day) { record in
                // 90 % rounded up, without overflow for any limit.
                guard !record.warned, record.sent >= limit - limit / 10 else { return }
                record.warned = true
                due = QuotaUsage(day: day, sent: record.sent, limit: limit)
            }
        }
        if due != nil { warnedDay.withLock { $0 = day } }
        return due
    }
}

/// One key's requests on one UTC day.
public struct QuotaUsage: Sendable, Equatable, CustomStringConvertible {
    /// `2026-11-22`.
    public let day: String
    /// Requests this tool sent with the key that day.
    public let sent: Int
    /// The key's daily limit; `nil` for none.
    public let limit: Int?

    /// `requests today: 37 of 1,000 (UTC day)`, or `requests today: 37, no daily limit (UTC day)`.
    public var description: String {
        "requests today: \(Self.grouped(sent))" + (limit.map { " of \(Self.grouped($0))" } ?? ", no daily limit") + " (UTC day)"
    }

    /// `1,000`: thousands grouped with commas, whatever the locale, as the rest of the text is English.
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }
}
