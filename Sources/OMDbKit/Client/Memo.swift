import Synchronization

/// Key → one load at a time (``SingleFlight``) → the outcome remembered: what the client keeps of
/// search pages, records and seasons. A failure `isFinal` calls final ("not found": asking again
/// costs quota) is remembered too; any other is forgotten, so the next caller tries again.
final class Memo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The loads in flight: tests wait on their waiters to order events without sleeping.
    let flights = SingleFlight<Key, Value>()
    private let outcomes = Mutex<[Key: Result<Value, OMDbError>]>([:])
    private let isFinal: @Sendable (OMDbError) -> Bool

    /// - Parameter isFinal: the failures remembered like values; none by default.
    init(isFinal: @escaping @Sendable (OMDbError) -> Bool = { _ in false }) {
        self.isFinal = isFinal
    }

    /// The outcome remembered for `key`, else the value of one `load` shared by every caller asking at once.
    /// - Throws: what `load` threw, a remembered final failure, or `CancellationError` as soon
    ///   as this caller is cancelled (the others keep waiting).
    func value(for key: Key, _ load: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let known = remembered(key) { return try known.get() }
        return try await flights.value(for: key) { [self] in
            do {
                let value = try await load()
                outcomes.withLock { $0[key] = .success(value) }
                return value
            } catch let error as OMDbError where isFinal(error) {
                outcomes.withLock { $0[key] = .failure(error) }
                throw error
            }
        }
    }

    func remembered(_ key: Key) -> Result<Value, OMDbError>? {
        outcomes.withLock { $0[key] }
    }
}
