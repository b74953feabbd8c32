import Foundation
import Files
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

        var line: String { "\(day) \(sent) \(warned ? 1 : 0)\n" }
    }

    enum Contents: Equatable {
        case missing
        case record(Record)
        /// Not a record: why, for the person.
        case damaged(String)
        /// It could not be read (its folder refused, an I/O error): counted from zero, left alone.
        case unreadable
    }

    /// No key allows more in a day (OMDb sells 250,000 at most): a count past it is damage.
    package static let maximumCount = 100_000_000
    /// A record is one short line: a larger file is not one.
    static let maximumFileBytes = 256

    package var file: URL { folder.appendingPathComponent("requests-\(keyHash).txt") }
    var lockFile: URL { folder.appendingPathComponent("requests-\(keyHash).lock") }
    /// Where a damaged file is set aside, for a person to look at.
    var damagedFile: URL { folder.appendingPathComponent("requests-\(keyHash).damaged") }
    var atomicFile: AtomicFile { AtomicFile(file, lockFile: lockFile) }

    func read(today: String) -> Contents {
        fileReads.add(1, ordering: .relaxed)
        // A folder others could have planted the file in counts nothing (said once, at the start).
        guard AtomicFile.folderProblem(folder) == nil else { return .missing }
        let data: Data
        do throws(AtomicFile.Problem) {
            guard let contents = try atomicFile.contents(upTo: Self.maximumFileBytes) else { return .missing }
            data = contents
        } catch {
            switch error {
            case .tooLarge(_, let bytes, _): return .damaged("\(QuotaUsage.grouped(bytes)) bytes, not one line")
            case .notARegularFile, .untrusted: return .damaged(error.reason)
            case .failed, .unsafeFolder: return .unreadable
            }
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if let record = Record(line: text, today: today) { return .record(record) }
        let parts = text.split(separator: " ")
        guard parts.count == 3 else { return .damaged(text.isEmpty ? "empty" : "not a count") }
        if parts[0].count == 10, parts[0] > today { return .damaged("dated \(parts[0]), after today (\(today), UTC)") }
        if parts[1].allSatisfy(\.isNumber) {
            let count = Int(parts[1]).map(QuotaUsage.grouped) ?? String(parts[1].prefix(24)) + "…"
            if Int(parts[1]).map({ $0 > Self.maximumCount }) ?? true { return .damaged("a count of \(count), more than any key allows") }
        }
        return .damaged("not a count")
    }

    /// Read, change, write, with the lock held; a new day or a damaged file (set aside) starts from zero.
    /// Returns the record the file holds after; `nil` when it could not be read or written (`failure` says why).
    @discardableResult
    func update(day: String, rewrite: Bool = false, failure: (String) -> Void = { _ in }, _ change: (inout Record) -> Void) -> Record? {
        do throws(AtomicFile.Problem) {
            try AtomicFile.prepareFolder(folder)
            return try atomicFile.withLock { () throws(AtomicFile.Problem) -> Record? in
                var record = Record(day: day)
                switch read(today: day) {
                case .record(let found) where found.day == day: record = found
                case .damaged(let why): setAside(why)
                case .unreadable: return nil
                case .record, .missing: break
                }
                let before = record
                change(&record)
                guard record != before || rewrite else { return record }
                // A process ended while it wrote its count left its temporary file: gone with the next count.
                atomicFile.removeLeftTemporaries()
                try atomicFile.write(Data(record.line.utf8))
                fileWrites.add(1, ordering: .relaxed)
                return record
            }
        } catch {
            failure(error.reason)
            return nil
        }
    }

    /// Moves a damaged file aside through the folder as opened and checked, with a notice.
    private func setAside(_ why: String) {
        guard let open = try? OpenFolder(folder), open.rename(file.lastPathComponent, to: damagedFile.lastPathComponent) else { return }
        let notice = "Warning: the daily request count in \(file.path) was damaged (\(why)): it is set aside as \(damagedFile.lastPathComponent) and today's count starts again from 0, so the key may have fewer requests left than movies quota says."
        counts.withLock { $0.notice = notice }
    }

    /// `a + b`, stopping at ``maximumCount``: a count never overflows, whatever a file held.
    static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? maximumCount : min(sum, maximumCount)
    }

    /// `2026-11-22`: the UTC day of `date`, by `gmtime_r` (cheaper than a `Calendar`).
    static func utcDay(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return CalendarDate.text(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }
}

extension QuotaLedger.Record {
    /// `nil` for a line that is not a record: a count out of range, a warned field not 0 or 1,
    /// or a day after `today` (written by a wrong clock, or by hand).
    init?(line: String, today: String) {
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0].count == 10, parts[0] <= today, let sent = Int(parts[1]),
              (0...QuotaLedger.maximumCount).contains(sent), parts[2] == "0" || parts[2] == "1" else { return nil }
        self.init(day: String(parts[0]), sent: sent, warned: parts[2] == "1")
    }
}
