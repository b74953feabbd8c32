import Synchronization

/// A place in the day's count taken ahead for a row, in rank order, so a page cut by the daily limit
/// fills ranks 1…k. Carried as a task-local: the row's first API request uses it; a row that sends
/// nothing gives it back.
final class QuotaTicket: Sendable {
    /// The ticket of the row whose work this task does; `nil` outside a page's rows.
    @TaskLocal static var current: QuotaTicket?

    private let ledger: QuotaLedger
    private let reservation: Mutex<QuotaLedger.Reservation?>

    /// A ticket holding one of `ledger`'s places, or `nil` when none is left.
    init?(_ ledger: QuotaLedger) {
        guard let reservation = ledger.reserve() else { return nil }
        self.ledger = ledger
        self.reservation = Mutex(reservation)
    }

    /// The place, for the first request that asks; `nil` after.
    func take() -> QuotaLedger.Reservation? {
        reservation.withLock { reservation in
            defer { reservation = nil }
            return reservation
        }
    }

    /// Gives the place back when no request took it.
    func giveBack() {
        if let unused = take() { ledger.release(unused) }
    }
}
