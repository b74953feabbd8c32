/// Runs `body` within `seconds`: past it, `body` is cancelled and ``TransportError/timedOut`` thrown.
///
/// A transport's own timeout only bounds silence, so a server trickling one byte at a time would
/// hold a request for ever; this bounds the whole exchange (connect, headers and body), whatever
/// the transport.
func withDeadline<T: Sendable>(seconds: Int, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(max(1, seconds)))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            // The timer won: the group's exit waits for `body` to notice its cancellation.
            try Task.checkCancellation()
            throw TransportError.timedOut
        }
        return value
    }
}
