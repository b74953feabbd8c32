import Synchronization

/// Key → one load at a time → the outcome remembered: what the client keeps of search pages,
/// records, seasons and posters, so that nothing is asked for twice in a session.
///
/// Callers asking for the same key at once share one load (``SingleFlight``'s rules: a cancelled
/// caller leaves alone, the load ends when the last one leaves). What a load returns is
/// remembered, and so is a failure `isFinal` calls final ("not found": asking again costs quota
/// for the same answer); any other failure (the network, a 5xx, a cancellation) is forgotten,
/// so the next caller tries again.
///
/// Thread-safe and not an actor: the client's actor never waits on it, and loads run off it.
final class Memo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Who remembers: the memo, or its owner.
    enum Recall: Sendable {
        /// A load's value, or its final failure, is remembered and answers later callers without a load.
        case answers
        /// Every caller loads (one load at a time per key) and nothing is remembered unless the
        /// owner's load says so (``remember(_:for:)``), for its own use (``remembered(_:)``).
        /// For posters: their files may change under us, so the disk is checked each time. A
        /// cancelled caller that is the last of its load gets what the load came to (a poster
        /// put in place before the stop is said saved).
        case byHand
    }

    private let flights: SingleFlight<Key, Value>
    private let outcomes = Mutex<[Key: Result<Value, OMDbError>]>([:])
    private let recall: Recall
    private let isFinal: @Sendable (OMDbError) -> Bool

    /// - Parameters:
    ///   - recall: whether remembered outcomes answer later callers.
    ///   - isFinal: the failures remembered like values; none by default.
    init(recall: Recall = .answers, isFinal: @escaping @Sendable (OMDbError) -> Bool = { _ in false }) {
        self.recall = recall
        self.isFinal = isFinal
        flights = SingleFlight(lastWaiterStays: recall == .byHand)
    }

    /// The outcome remembered for `key`, else the value of one `load` shared by every caller
    /// asking at once, remembered when it succeeds or fails for good.
    /// - Throws: what `load` threw, a remembered final failure, or `CancellationError` as soon
    ///   as this caller is cancelled (the others keep waiting).
    func value(for key: Key, _ load: @escaping @Sendable () async throws -> Value) async throws -> Value {
        guard recall == .answers else { return try await flights.value(for: key, load) }
        if let known = remembered(key) { return try known.get() }
        return try await flights.value(for: key) { [self] in
            do {
                let value = try await load()
                remember(.success(value), for: key)
                return value
            } catch let error as OMDbError where isFinal(error) {
                remember(.failure(error), for: key)
                throw error
            }
        }
    }

    func remembered(_ key: Key) -> Result<Value, OMDbError>? {
        outcomes.withLock { $0[key] }
    }

    /// Keeps `outcome` for `key`, replacing any earlier one: for an owner that remembers by hand.
    func remember(_ outcome: Result<Value, OMDbError>, for key: Key) {
        outcomes.withLock { $0[key] = outcome }
    }

    var inFlight: Int { flights.inFlight }

    /// How many callers wait for the load of `key`. Observability: nothing decides by it; tests
    /// wait on it to order events (a caller has joined) without sleeping.
    func waiters(for key: Key) -> Int { flights.waiters(for: key) }
}
