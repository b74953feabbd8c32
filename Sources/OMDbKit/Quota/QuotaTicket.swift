import Synchronization

/// A place in the day's count taken ahead, in a page's rank order, for the record a row will ask
/// for: so when the daily limit falls part way through a page, the places go to ranks 1…k and
/// not to whichever rows' requests happened to reach the network first.
///
/// The row's task carries it as a task-local; the first API request sent under it uses it in
/// place of a fresh reservation. A row that sends nothing (an answer from the cache, a record
/// already loaded) gives it back when it ends.
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
