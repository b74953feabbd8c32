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
/// ``recordRequestSent()`` returns at once: the write happens on a serial queue, off the caller's
/// actor; reads wait for the writes already asked for.
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

    /// The free key's limit.
    public static let defaultDailyLimit = 1_000
    /// Every ledger's writes, in the order they were asked for.
    private static let writes = DispatchQueue(label: "movies.quota-ledger")

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
        Self.writes.async { self.update(day: day) { $0.sent += 1 } }
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
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(record.line.utf8),
                                             attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary.path, file.path) != 0 { unlink(temporary.path) }
    }

    /// `2026-11-22`: the UTC calendar day of `date`.
    static func utcDay(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
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
