import Foundation
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
/// queue, off the caller's actor, so a page's twenty requests cost one or two writes, not twenty
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
    /// Requests counted but not yet written, by UTC day. A write is queued when this goes from
    /// empty to not; the write takes everything counted by the time it runs.
    private let unwritten = Mutex<[String: Int]>([:])
    /// How many times the file was written: what coalescing saves shows here.
    let fileWrites = Atomic<Int>(0)

    /// The free key's limit.
    public static let defaultDailyLimit = 1_000
    /// Every ledger's writes, in the order they were asked for.
    static let writes = DispatchQueue(label: "movies.quota-ledger")

    /// - Parameter now: the clock; tests pass their own.
    public init(folder: URL, apiKey: String, dailyLimit: Int? = QuotaLedger.defaultDailyLimit,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.folder = folder.standardizedFileURL
        self.dailyLimit = dailyLimit
        keyHash = String(SHA256.hex("movies quota ledger: " + apiKey).prefix(16))
        self.now = now
    }

    /// `$XDG_STATE_HOME/movies` when that is an absolute path, else `HOME/.local/state/movies`.
    public static func defaultFolder(environment: [String: String]) -> URL {
        XDGFolder.state.url(environment: environment)
    }

    // MARK: Counting

    /// Counts one request sent now. Returns at once; failures to write are ignored (the count is advice).
    public func recordRequestSent() {
        let day = Self.utcDay(now())
        let queueWrite = unwritten.withLock { counts in
            defer { counts[day, default: 0] += 1 }
            return counts.isEmpty
        }
        guard queueWrite else { return }
        Self.writes.async { self.writeUnwritten() }
    }

    /// Adds what was counted since the last write to the file, a day at a time.
    private func writeUnwritten() {
        let counts = unwritten.withLock { counts in
            defer { counts = [:] }
            return counts
        }
        for (day, count) in counts.sorted(by: { $0.key < $1.key }) {
            update(day: day) { $0.sent += count }
        }
    }

    /// Waits until every count asked for in this process is written. Called before exiting.
    public static func finishWrites() { writes.sync {} }

    /// Today's count (UTC), this process's pending writes included.
    public func usage() -> QuotaUsage {
        Self.finishWrites()
        let day = Self.utcDay(now())
        let record = read().flatMap { $0.day == day ? $0 : nil } ?? Record(day: day)
        return QuotaUsage(day: day, sent: record.sent, limit: dailyLimit)
    }

    /// Today's usage when it has just reached 90 % of the limit and no process has warned today;
    /// `nil` otherwise. The warning is written into the ledger, so it is given once a day.
    public func warningDue() -> QuotaUsage? {
        guard let limit = dailyLimit else { return nil }
        Self.finishWrites()
        let day = Self.utcDay(now())
        if warnedDay.withLock({ $0 }) == day { return nil }
        var due: QuotaUsage?
        Self.writes.sync {
            update(day: day) { record in
                // 90 % rounded up, without overflow for any limit.
                guard !record.warned, record.sent >= limit - limit / 10 else { return }
                record.warned = true
                due = QuotaUsage(day: day, sent: record.sent, limit: limit)
            }
        }
        if due != nil { warnedDay.withLock { $0 = day } }
        return due
    }

    // MARK: The file

    /// One key's day: `DAY SENT WARNED` on one line.
    struct Record: Equatable {
        var day: String
        var sent = 0
        var warned = false

        init(day: String, sent: Int = 0, warned: Bool = false) {
            self.day = day
            self.sent = sent
            self.warned = warned
        }

        init?(line: String) {
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[0].count == 10, let sent = Int(parts[1]), sent >= 0 else { return nil }
            self.init(day: String(parts[0]), sent: sent, warned: parts[2] == "1")
        }

        var line: String { "\(day) \(sent) \(warned ? 1 : 0)\n" }
    }

    var file: URL { folder.appendingPathComponent("requests-\(keyHash).txt") }
    private var lockFile: URL { folder.appendingPathComponent("requests-\(keyHash).lock") }

    func read() -> Record? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return Record(line: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Read, change, write, with the lock held: another process's count is never lost.
    /// A new UTC day starts from zero; an unreadable file counts as zero.
    private func update(day: String, _ change: (inout Record) -> Void) {
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                         attributes: [.posixPermissions: 0o700])) != nil else { return }
        let lock = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 { guard errno == EINTR else { return } }
        var record = read().flatMap { $0.day == day ? $0 : nil } ?? Record(day: day)
        let before = record
        change(&record)
        guard record != before else { return }
        let temporary = folder.appendingPathComponent(".requests-\(keyHash)-\(getpid()).tmp")
        // One write and one rename (FileManager.createFile would add its own temporary file and rename).
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let line = Array(record.line.utf8)
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == line.count, rename(temporary.path, file.path) == 0 else {
            unlink(temporary.path)
            return
        }
        fileWrites.add(1, ordering: .relaxed)
    }

    /// `2026-11-22`: the UTC calendar day of `date`.
    /// Plain arithmetic on the proleptic Gregorian calendar (Howard Hinnant's `civil_from_days`):
    /// it runs for every request sent, and a `Calendar` costs far more than this.
    static func utcDay(_ date: Date) -> String {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ number: Int, _ width: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
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

    /// True once the count reached the limit.
    public var isSpent: Bool { limit.map { sent >= $0 } ?? false }

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
