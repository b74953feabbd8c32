import Foundation

/// When and how long to wait before sending a transiently failed request again: exponential backoff
/// with full jitter, or the server's `Retry-After`, capped. Clock and randomness are seams for tests.
package struct RetryPolicy: Sendable {
    /// Attempts in all, the first included (1 means no retry).
    package var maxAttempts: Int
    /// The backoff before the second attempt, doubled for each one after.
    package var baseDelay: Duration
    /// No backoff is longer than this.
    package var maxDelay: Duration
    /// A server's `Retry-After` is honoured up to this.
    package var maxRetryAfter: Duration
    /// Waits between attempts. Throws `CancellationError` when cancelled.
    package var sleep: @Sendable (Duration) async throws -> Void
    /// A number in `0..<1`: the draw of full jitter.
    package var random: @Sendable () -> Double

    /// A policy; `maxAttempts` below 1 becomes 1. `sleep` and `random` are seams for tests.
    package init(maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(250), maxDelay: Duration = .seconds(4),
                maxRetryAfter: Duration = .seconds(10),
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },  // timer: the back-off
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.sleep = sleep
        self.random = random
    }

    /// How long to wait after failed attempt number `attempt` (1-based).
    /// - Parameter retryAfter: the server's `Retry-After`, which replaces the backoff (capped).
    func delay(after attempt: Int, retryAfter: Duration?) -> Duration {
        if let retryAfter { return min(max(retryAfter, .zero), maxRetryAfter) }
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(baseDelay * (1 << exponent), maxDelay)
        return ceiling * min(max(random(), 0), 1)
    }

    /// True for the statuses worth another try: 408, 429 and every 5xx.
    static func isTransient(status: Int) -> Bool {
        status == 408 || status == 429 || (500..<600).contains(status)
    }

    /// Reads `Retry-After`: whole seconds, or an HTTP date. `nil` when absent or unreadable.
    static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
    }
}
