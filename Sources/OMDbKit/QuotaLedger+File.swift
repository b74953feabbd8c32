import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ledger's file: one line per key, changed under a lock and renamed into place.
extension QuotaLedger {
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
    var lockFile: URL { folder.appendingPathComponent("requests-\(keyHash).lock") }

    func read() -> Record? {
        fileReads.add(1, ordering: .relaxed)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return Record(line: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Read, change, write, with the lock held: another process's count is never lost.
    /// A new UTC day starts from zero; an unreadable file counts as zero. Returns the record the
    /// file holds after (`nil` when it could not be read or written).
    @discardableResult
    func update(day: String, _ change: (inout Record) -> Void) -> Record? {
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                         attributes: [.posixPermissions: 0o700])) != nil else { return nil }
        let lock = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return nil }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 { guard errno == EINTR else { return nil } }
        var record = read().flatMap { $0.day == day ? $0 : nil } ?? Record(day: day)
        let before = record
        change(&record)
        guard record != before else { return record }
        let temporary = folder.appendingPathComponent(".requests-\(keyHash)-\(getpid()).tmp")
        // One write and one rename (FileManager.createFile would add its own temporary file and rename).
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        let line = Array(record.line.utf8)
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == line.count, rename(temporary.path, file.path) == 0 else {
            unlink(temporary.path)
            return nil
        }
        fileWrites.add(1, ordering: .relaxed)
        return record
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
