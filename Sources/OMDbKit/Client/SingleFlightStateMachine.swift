/// The rules of a ``SingleFlight`` as a value: each event changes the state and returns what is to
/// be done; generic over what parks a caller and runs a load, so that tests drive it with plain values.
///
/// A key is idle (no call), starting (`load` nil) or running. A call ends when its load ends or its
/// last waiter leaves; later events find no call or one with another `id`, so nobody is resumed twice.
struct SingleFlightStateMachine<Key: Hashable, Waiter, Load> {
    struct Call {
        /// Tells this call from a later one for the same key.
        let id: Int
        /// Nil while the first caller starts it.
        var load: Load?
        /// In the order they joined.
        var waiters: [(id: Int, waiter: Waiter)]
    }

    /// What a caller that asked does once the lock is released.
    enum Join: Equatable {
        /// Parked: a load for its key is in flight.
        case wait
        /// Parked, the first: start the load and tell ``started(_:callID:load:)``.
        case startLoad(callID: Int)
        /// Cancelled before it could wait: resume it with `CancellationError` now.
        case cancelled
    }

    /// What a cancelled caller's leaving comes to.
    enum Leave {
        /// It had been resumed already (its call ended), or it never waited.
        case none
        /// Resume it with `CancellationError`; the others keep waiting.
        case resumeCancelled(Waiter)
        /// It was the last: cancel the load (when it was started), then resume it with `CancellationError`.
        case cancelLoadAndResume(Load?, Waiter)
        /// It was the last, and stays for the outcome of the load it cancels (``lastWaiterStays``).
        case cancelLoad(Load)
    }

    private(set) var calls: [Key: Call] = [:]
    /// Calls whose last waiter, cancelled, stays for the outcome of their cancelled load, by id.
    private var ending: [Int: Call] = [:]
    private var nextID = 0
    /// The last caller, cancelled, waits for what its cancelled load comes to: for outcomes that stay
    /// true after a stop (a poster put in place just before it).
    let lastWaiterStays: Bool

    init(lastWaiterStays: Bool = false) {
        self.lastWaiterStays = lastWaiterStays
    }

    /// How many loads are running (or starting) now.
    var inFlight: Int { calls.count }

    func waiters(for key: Key) -> Int { calls[key]?.waiters.count ?? 0 }

    /// A number for a caller, unique in this machine: what its cancellation names.
    mutating func makeWaiterID() -> Int {
        nextID += 1
        return nextID
    }

    // MARK: Events

    /// Caller `waiterID`, parked on `waiter`, asks for `key`: it joins the call in flight, or starts one.
    mutating func join(_ key: Key, waiterID: Int, waiter: Waiter, cancelled: Bool) -> Join {
        // Cancelled before it could wait: its cancellation found nothing to remove.
        if cancelled { return .cancelled }
        if calls[key] != nil {
            calls[key]?.waiters.append((waiterID, waiter))
            return .wait
        }
        nextID += 1
        calls[key] = Call(id: nextID, load: nil, waiters: [(waiterID, waiter)])
        return .startLoad(callID: nextID)
    }

    /// The first caller started the load; false when every waiter left meanwhile (cancel it).
    mutating func started(_ key: Key, callID: Int, load: Load) -> Bool {
        guard calls[key]?.id == callID else { return false }
        calls[key]?.load = load
        return true
    }

    /// The load of call `callID` ended: the waiters to resume with its outcome.
    mutating func finished(_ key: Key, callID: Int) -> [Waiter] {
        if let call = ending.removeValue(forKey: callID) { return call.waiters.map { $0.waiter } }
        guard calls[key]?.id == callID, let call = calls.removeValue(forKey: key) else { return [] }
        return call.waiters.map { $0.waiter }
    }

    /// Caller `waiterID` was cancelled: it leaves at once; the last one out ends the call.
    mutating func leave(_ key: Key, waiterID: Int) -> Leave {
        guard var call = calls[key], let index = call.waiters.firstIndex(where: { $0.id == waiterID }) else { return .none }
        let waiter = call.waiters.remove(at: index).waiter
        guard call.waiters.isEmpty else {
            calls[key] = call
            return .resumeCancelled(waiter)
        }
        calls[key] = nil
        if lastWaiterStays, let load = call.load {
            call.waiters = [(waiterID, waiter)]
            ending[call.id] = call
            return .cancelLoad(load)
        }
        return .cancelLoadAndResume(call.load, waiter)
    }
}
