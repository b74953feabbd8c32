import Dispatch
import Files
import Foundation
import Synchronization

/// How many API requests this tool sent today (UTC) with one key: OMDb itself never says.
///
/// One small file per key in `$XDG_STATE_HOME/movies`, named by a hash of the key, changed under
/// `flock(2)` and renamed into place, so processes sharing a key count together. The count is exact
/// in memory even when the file cannot be written (said once, ``takeNotice()``): a request reserves
/// its place (``reserve()``), then counts (``commit(_:)``) or gives it back (``release(_:)``). Near
/// the limit (``exactMargin(limit:)``) places are taken in the file itself, so processes stop together.
package final class QuotaLedger: Sendable {
    package let folder: URL
    /// Requests a day the key allows; `nil` for no limit (some patron keys).
    package let dailyLimit: Int?
    /// Names this key's files: 16 hex digits of a SHA-256 of the key.
    let keyHash: String
    let now: @Sendable () -> Date
    let lane = FileWork.lane("movies.quota-ledger")

    /// This process's view of today's count.
    struct Counts {
        var day = ""
        /// The file's count when this process last read or wrote it (every process's requests).
        var file = 0
        /// Counted here and not yet in the file: a write takes it off once the file holds it.
        var unwritten = 0
        /// Reserved by requests about to be sent, not yet counted or given back.
        var reserved = 0
        var read = false
        /// Why the last write failed; `nil` while the file holds this process's count.
        var unkept: String?
        /// The program is ending (``finish()``): requests reserved then, and any reserved after, count.
        var closed = false
        /// The warning at 90 % was given today.
        var warned = false
        /// A line to show once, until taken.
        var notice: String?
        /// A write waits on the lane: a new count joins it instead of queueing another.
        var writeQueued = false

        /// Whether a new count needs a write queued for it.
        mutating func queueWrite() -> Bool {
            defer { writeQueued = true }
            return !writeQueued
        }

        /// Today's count as this process knows it, requests in flight left out.
        var sent: Int { QuotaLedger.adding(file, unwritten) }
    }

    let counts = Mutex(Counts())
    /// For tests.
    let fileWrites = Atomic<Int>(0)
    let fileReads = Atomic<Int>(0)

    /// The free key's limit.
    package static let defaultDailyLimit = 1_000

    /// A ledger for `apiKey` (only a hash of it names the file) in `folder`; `now` is the clock.
    package init(folder: URL, apiKey: APIKey, dailyLimit: Int? = QuotaLedger.defaultDailyLimit,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.folder = folder.standardizedFileURL
        self.dailyLimit = dailyLimit
        keyHash = String(SHA256.hex("movies quota ledger: " + apiKey.value).prefix(16))
        self.now = now
    }

    // MARK: Places and counts

    /// One request's place in a day's count (the day it was taken on), until ``commit(_:)`` or ``release(_:)``.
    package struct Reservation: Sendable, Equatable {
        let day: String
        /// Taken near the limit: counted in the file at once.
        var inFile = false
    }

    /// How near the limit (places left) places are taken in the file.
    static func exactMargin(limit: Int) -> Int { min(limit, 50) }

    /// A place in today's count, or `nil` when this tool's count (requests in flight included) reached the limit.
    package func reserve() -> Reservation? {
        let day = today()
        if let limit = dailyLimit, let left = placesLeft(on: day), left <= Self.exactMargin(limit: limit),
           counts.withLock({ !$0.closed && $0.unkept == nil }),
           // nil: the file cannot be written now, and this process's own count decides, as farther off.
           let granted = reserveInFile(day: day, limit: limit) {
            return granted ? Reservation(day: day, inFile: true) : nil
        }
        let (reservation, counted) = counts.withLock { counts -> (Reservation?, Bool) in
            guard counts.day == day else { return (nil, false) }
            // The program is ending: a request that starts now counts at once.
            if counts.closed {
                counts.unwritten = Self.adding(counts.unwritten, 1)
                return (Reservation(day: day), counts.queueWrite())
            }
            if let limit = dailyLimit, Self.adding(counts.sent, counts.reserved) >= limit { return (nil, false) }
            counts.reserved += 1
            return (Reservation(day: day), false)
        }
        if counted { lane.async { self.write() } }
        return reservation
    }

    /// The reserved request was sent (or may have been: a timeout, a lost connection): it counts.
    package func commit(_ reservation: Reservation) {
        guard !reservation.inFile else { return }
        let counted = counts.withLock { counts -> Bool in
            // Counted already when the program began to end; yesterday's counts are moot today.
            guard !counts.closed, counts.day == reservation.day else { return false }
            counts.reserved -= 1
            counts.unwritten = Self.adding(counts.unwritten, 1)
            return counts.queueWrite()
        }
        if counted { lane.async { self.write() } }
    }

    /// The reserved request never left: its place is free again, and nothing is counted.
    package func release(_ reservation: Reservation) {
        guard counts.withLock({ !$0.closed }) else { return }
        if reservation.inFile {
            // At once, as it was taken: the place is free for every process's next request.
            lane.sync { _ = updateView(day: reservation.day) { record in if record.sent > 0 { record.sent -= 1 } } }
            return
        }
        counts.withLock { counts in
            if counts.day == reservation.day { counts.reserved -= 1 }
        }
    }

    /// The program is ending: every request still in flight counts as sent (a count may be too
    /// high, never too low), and returns once the count is written, or could not be.
    package func finish() {
        counts.withLock { counts in
            counts.closed = true
            counts.unwritten = Self.adding(counts.unwritten, counts.reserved)
            counts.reserved = 0
        }
        lane.sync { write() }
    }

    /// How many more requests today's limit allows now (`nil`: no limit): advice for planning, not the check.
    package func placesLeft() -> Int? { placesLeft(on: today()) }

    private func placesLeft(on day: String) -> Int? {
        guard let limit = dailyLimit else { return nil }
        return counts.withLock { counts in counts.day == day ? max(0, limit - Self.adding(counts.sent, counts.reserved)) : limit }
    }

    // MARK: What is said

    /// Today's count as the file holds it, with what this process could not write yet.
    /// - Parameter checkingTheFile: write the record back even unchanged, to learn whether it can be kept.
    package func usage(checkingTheFile: Bool = false) -> QuotaUsage {
        let day = today()
        var reason: String?
        let record = lane.sync { () -> Record? in
            if counts.withLock({ $0.unwritten > 0 }) { write() }
            return updateView(day: day, rewrite: checkingTheFile, failure: { reason = $0 }) { _ in }
        }
        return counts.withLock { counts in
            if record == nil {
                counts.unkept = counts.unkept ?? reason ?? "it cannot be written"
            } else if counts.unwritten == 0 {
                counts.unkept = nil
            }
            return QuotaUsage(day: day, sent: counts.sent, limit: dailyLimit, unkept: counts.unkept)
        }
    }

    /// Today's count without touching the disk (the file as last seen, plus what this process counted since).
    package func estimatedUsage() -> QuotaUsage {
        let day = today()
        return counts.withLock { QuotaUsage(day: day, sent: $0.sent, limit: dailyLimit, unkept: $0.unkept) }
    }

    /// Today's usage when it just reached 90 % of the limit and no process warned today (the file says).
    package func warningDue() -> QuotaUsage? {
        guard let limit = dailyLimit else { return nil }
        let day = today()
        // 90 % rounded up, without overflow for any limit.
        let nearly = limit - limit / 10
        let near = counts.withLock { counts -> Bool in
            counts.day == day && !counts.warned && counts.sent >= nearly
        }
        guard near else { return nil }
        var due: QuotaUsage?
        lane.sync {
            write()
            let record = updateView(day: day) { record in
                guard !record.warned, record.sent >= nearly else { return }
                record.warned = true
                due = QuotaUsage(day: day, sent: record.sent, limit: limit)
            }
            // Unwritten: this process warns once, by its own count.
            if record == nil, counts.withLock({ $0.sent >= nearly }) { due = estimatedUsage() }
        }
        if due != nil { counts.withLock { $0.warned = true } }
        return due
    }

    /// The one line to show once (the file was damaged, or cannot be written).
    package func takeNotice() -> String? { counts.withLock { counts in defer { counts.notice = nil }; return counts.notice } }

    // MARK: The view and the file

    /// Today; a new day's view starts from the file's count, read once on the lane.
    private func today() -> String {
        let day = Self.utcDay(now())
        let fresh = counts.withLock { counts -> Bool in
            guard counts.day != day else { return !counts.read }
            // Yesterday's counts not yet written are moot: the file holds one day.
            let (unkept, closed, notice) = (counts.unkept, counts.closed, counts.notice)
            counts = Counts(day: day, unkept: unkept, closed: closed, notice: notice)
            return true
        }
        if fresh {
            lane.sync {
                // Unreadable, the file counts nothing: the count starts from this process's own.
                _ = updateView(day: day, change: nil)
                counts.withLock { $0.read = true }
            }
        }
        return day
    }

    /// Adds this process's unwritten count to the file, on the lane; a failure keeps it for the next write.
    private func write() {
        let (day, taken) = counts.withLock { counts in
            counts.writeQueued = false
            return (counts.day, counts.unwritten)
        }
        guard taken > 0 else { return }
        var reason: String?
        let record = update(day: day, failure: { reason = $0 }) { $0.sent = Self.adding($0.sent, taken) }
        let notice = counts.withLock { counts -> String? in
            guard counts.day == day else { return nil }
            if let record {
                counts.file = record.sent
                counts.unwritten -= taken
                counts.unkept = nil
                return nil
            }
            defer { counts.unkept = reason ?? "it cannot be written" }
            return counts.unkept == nil ? reason ?? "it cannot be written" : nil
        }
        if let notice {
            let line = "Warning: the day's request count cannot be written to \(file.path) (\(notice)): this run counts in memory and stops at the daily limit by that count, but later runs cannot see its requests."
            counts.withLock { $0.notice = $0.notice ?? line }
        }
    }

    /// ``update(day:failure:_:)`` (a read when `change` is nil), its record becoming this process's view.
    private func updateView(day: String, rewrite: Bool = false, failure: (String) -> Void = { _ in },
                            change: ((inout Record) -> Void)?) -> Record? {
        let record = change.map { update(day: day, rewrite: rewrite, failure: failure, $0) } ?? readRecord(day: day)
        if let record { counts.withLock { if $0.day == day { $0.file = record.sent; $0.warned = $0.warned || record.warned } } }
        return record
    }

    /// What the file says of `day`, a damaged file set aside; `nil` when it cannot be read.
    private func readRecord(day: String) -> Record? {
        switch read(today: day) {
        case .record(let found): return found.day == day ? found : Record(day: day)
        case .missing: return Record(day: day)
        case .damaged: return update(day: day) { _ in }
        case .unreadable: return nil
        }
    }

    /// A place near the limit, counted in the file under its lock when every process's count allows it
    /// (true), or refused (false); `nil` when the file cannot be written.
    private func reserveInFile(day: String, limit: Int) -> Bool? {
        lane.sync {
            var granted = false
            let record = updateView(day: day) { record in
                let mine = self.counts.withLock { Self.adding($0.unwritten, $0.reserved) }
                guard Self.adding(record.sent, mine) < limit else { return }
                record.sent += 1
                granted = true
            }
            return record == nil ? nil : granted
        }
    }
}

/// One key's requests on one UTC day.
package struct QuotaUsage: Sendable, Equatable, CustomStringConvertible {
    /// `2026-11-22`.
    package let day: String
    /// Requests this tool sent with the key that day.
    package let sent: Int
    /// The key's daily limit; `nil` for none.
    package let limit: Int?
    /// Why the count file cannot be written, when it cannot: the count is this process's alone.
    package var unkept: String?

    /// `requests today: 37 of 1,000 (UTC day)`, or `requests today: 37, no daily limit (UTC day)`.
    package var description: String {
        "requests today: \(Self.grouped(sent))" + (limit.map { " of \(Self.grouped($0))" } ?? ", no daily limit") + " (UTC day)"
    }

    /// `1,000`: thousands grouped with commas, whatever the locale, as the rest of the text is English.
    package static func grouped(_ number: Int) -> String {
        // By hand: on the page's status line ten times a second, where Foundation's formatter costs
        // about 5 times as much, and its first call a millisecond or more.
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }
}
