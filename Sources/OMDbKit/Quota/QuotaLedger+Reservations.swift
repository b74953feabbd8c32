import Foundation

/// The daily limit as a check made before each request: a request reserves its place in the day's
/// count before it is handed to the transport, and the reservation becomes a count once the
/// request may have reached OMDb, or is given back when it never left (refused, no such host, TLS
/// never completed).
///
/// Reserving before sending, under the same lock as the count, is what makes the limit hold under
/// concurrency: twenty requests starting at once with one place left see one place, not twenty.
extension QuotaLedger {
    /// One request's place in a day's count, until ``commit(_:)`` or ``release(_:)``.
    public struct Reservation: Sendable, Equatable {
        /// The UTC day it was taken on: a request that crosses midnight counts on the day it started.
        let day: String
        /// Taken near the limit: counted in the file at once, against every process's count.
        var inFile = false
    }

    /// How near the limit, in places left by this process's view, reservations go to the file:
    /// from there each one is checked against, and counted in, the file every process shares.
    /// Farther off, the check is in memory and another process's requests show from this one's
    /// next write, which a page's worth of requests cannot outrun by this much.
    static func exactMargin(limit: Int) -> Int { min(limit, 50) }

    /// A place in today's count, or `nil` when the key's daily limit is reached by this tool's
    /// count (this process's requests in flight included). Always a place with no limit.
    ///
    /// Reads the file once a day, the first time (another process's count up to then included);
    /// after that, the check is in memory, and another process's later requests show from this
    /// process's next write. Within ``exactMargin(limit:)`` of the limit, each reservation is
    /// checked against the file and counted in it at once, under its lock: two processes sharing
    /// a key near its limit never send more than it between them (before, two one-shot searches
    /// at once with a limit of 15 sent 22 requests).
    public func reserve() -> Reservation? {
        let day = Self.utcDay(now())
        if counts.withLock({ $0.known?.day != day }) { _ = usage() }
        // The program is ending: a request that starts now counts at once (see countRequestsInFlight).
        if counts.withLock({ $0.closed }) {
            count(day: day, reserved: false)
            return Reservation(day: day)
        }
        if let limit = dailyLimit, let left = placesLeft(), left <= Self.exactMargin(limit: limit) {
            switch reserveInFile(day: day, limit: limit) {
            case .granted(let reservation): return reservation
            case .refused: return nil
            // The file could not be read or written (a folder made read-only): the count is advice,
            // so the check falls back to this process's own view, as farther from the limit.
            case .unavailable: break
            }
        }
        return counts.withLock { counts -> Reservation? in
            if let limit = dailyLimit {
                let used = Self.adding(counts.known?.day == day ? counts.known?.sent ?? 0 : 0, counts.pending(day))
                guard Self.adding(used, counts.reserved[day, default: 0]) < limit else { return nil }
            }
            counts.reserved[day, default: 0] += 1
            return Reservation(day: day)
        }
    }

    /// How many more requests today's limit allows now, requests in flight counted; `nil` with no
    /// limit. Advice for planning (how many pages to ask for at once), not the check.
    public func placesLeft() -> Int? {
        guard let limit = dailyLimit else { return nil }
        let day = Self.utcDay(now())
        let used = counts.withLock { counts in
            Self.adding(counts.known?.day == day ? counts.known?.sent ?? 0 : 0, Self.adding(counts.pending(day), counts.reserved[day, default: 0]))
        }
        return max(0, limit - used)
    }

    /// A place near the limit: on the counts' lane, after this process's counts already queued,
    /// the file's count (every process's), plus this process's requests in flight, is checked
    /// against the limit, and the place counted in the file, under its lock.
    private func reserveInFile(day: String, limit: Int) -> InFile {
        var granted = false
        let record = updateOnLane(day: day) { record in
            let mine = counts.withLock { Self.adding($0.pending(day), $0.reserved[day, default: 0]) }
            guard Self.adding(record.sent, mine) < limit else { return }
            record.sent += 1
            granted = true
        }
        // Nothing read, or the place not written: counted nowhere.
        guard record != nil else { return .unavailable }
        return granted ? .granted(Reservation(day: day, inFile: true)) : .refused
    }

    /// ``update(day:_:)`` on the counts' lane, after this process's counts already queued; the
    /// record it leaves becomes this process's view of today (an old day's is no view of today).
    private func updateOnLane(day: String, _ change: (inout Record) -> Void) -> Record? {
        writes.counts.sync {
            let record = update(day: day, change)
            if let record, record.day == Self.utcDay(now()) { counts.withLock { $0.known = record } }
            return record
        }
    }

    /// What the file said of a place asked for near the limit.
    private enum InFile {
        case granted(Reservation)
        case refused
        case unavailable
    }

    /// The reserved request was sent (or may have been: a timeout, a lost connection): it counts.
    public func commit(_ reservation: Reservation) {
        // Counted in the file when it was taken.
        guard !reservation.inFile else { return }
        count(day: reservation.day, reserved: true)
    }

    /// The reserved request never left: its place is free again, and nothing is counted.
    public func release(_ reservation: Reservation) {
        if reservation.inFile {
            // Counted already when the program began to end: a count may be too high, never too low.
            guard !counts.withLock({ $0.closed }) else { return }
            // At once, as it was taken: the place is free for this process's next request too.
            _ = updateOnLane(day: reservation.day) { record in
                // A new day started since: nothing of the old one to take back.
                if record.sent > 0 { record.sent -= 1 }
            }
            return
        }
        counts.withLock { counts in
            // Counted already when the program began to end: a count may be too high, never too low.
            guard !counts.closed else { return }
            counts.reserved[reservation.day, default: 1] -= 1
            if counts.reserved[reservation.day] == 0 { counts.reserved[reservation.day] = nil }
        }
    }

    /// Requests in flight now, reserved and not yet counted nor given back (all days).
    var reservedCount: Int { counts.withLock { $0.reserved.values.reduce(0, +) } }
}

extension QuotaLedger.Counts {
    /// Counted by this process for `day` and not yet in ``known``: being written, or waiting to be.
    func pending(_ day: String) -> Int {
        QuotaLedger.adding(writing[day, default: 0], unwritten[day, default: 0])
    }
}
