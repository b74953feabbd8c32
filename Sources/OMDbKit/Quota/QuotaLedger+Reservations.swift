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
    }

    /// A place in today's count, or `nil` when the key's daily limit is reached by this tool's
    /// count (this process's requests in flight included). Always a place with no limit.
    ///
    /// Reads the file once a day, the first time (another process's count up to then included);
    /// after that, the check is in memory: another process's later requests show from this
    /// process's next write.
    public func reserve() -> Reservation? {
        let day = Self.utcDay(now())
        if counts.withLock({ $0.known?.day != day }) { _ = usage() }
        // The program is ending: a request that starts now counts at once (see countRequestsInFlight).
        if counts.withLock({ $0.closed }) {
            count(day: day, reserved: false)
            return Reservation(day: day)
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

    /// The reserved request was sent (or may have been: a timeout, a lost connection): it counts.
    public func commit(_ reservation: Reservation) {
        count(day: reservation.day, reserved: true)
    }

    /// The reserved request never left: its place is free again, and nothing is counted.
    public func release(_ reservation: Reservation) {
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
