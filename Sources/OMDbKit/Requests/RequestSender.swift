import Foundation
import Synchronization

/// Sends requests with every rule the client owns, whatever the transport: the key added at the
/// edge, the count, the limit on requests in flight, size limits, retries. Off the client's actor.
struct RequestSender: Sendable {
    let transport: any OMDbTransport
    /// The client's: the key, the address, the deadline of an attempt, the retries, the size limit,
    /// the daily count (checked before each API request) and the cache (a fresh answer there is no request).
    let configuration: OMDbClient.Configuration
    let gate: RequestGate
    let sent = RequestCounter()
    /// A key not yet seen accepted, which keeps the cache unread until OMDb accepts it; `nil` for none.
    let keyCheck: KeyCheck?

    var key: APIKey { configuration.apiKey }

    private enum Attempt<T: Sendable>: Sendable {
        case done(T)
        case retry(OMDbError, after: Duration?)
    }

    /// One OMDb API request, its answer read whole and given to `decode` with the URL as shown (no key).
    /// Only an answer that decoded, or OMDb's error envelope, is kept in the cache; a kept answer that
    /// no longer decodes is removed and asked for again.
    func api<T>(_ request: OMDbRequest, decode: (HTTPResponse, String) throws -> T) async throws -> T {
        // The request without the key: what the cache is keyed by and, redacted, what is shown.
        let plain = request.url(base: configuration.baseURL)
        // A careless --base-url may carry the key itself (`…/?apikey=KEY`, `user:KEY@host`).
        let shown = key.redact(plain)
        // Before the gate and the count: an answer from disk is not a request. Off the client's actor.
        if let cache = configuration.cache, keyCheck?.isAccepted ?? true, let kept = cache.kept(for: plain) {
            let cached = kept.response
            do {
                return try decode(cached, shown)
            } catch let error as OMDbError where OMDbAnswer.envelope(in: cached.body) != nil {
                // Said as kept: OMDb may answer otherwise now (a title added within the hour).
                throw OMDbError.fromCache(error, since: kept.since)
            } catch where OMDbAnswer.envelope(in: cached.body) != nil {
                throw error
            } catch {
                cache.remove(for: plain)
            }
        }
        let response = try await withRetries(shown: shown, isAPI: true) { [self] () async throws -> Attempt<HTTPResponse> in
            // The edge: the key joins the request here and goes nowhere else.
            let url = request.url(base: configuration.baseURL, key: key)
            // The daily limit is checked here, once the request has its place and before it leaves.
            let reservation = try reserve()
            let streamed: TransportResponse
            do {
                // Which query item is secret is the client's rule, handed over with the request.
                streamed = try await transport.send(TransportRequest(url: url, timeout: configuration.timeout,
                                                                     secretQueryItems: OMDbClient.secretQueryItems))
            } catch let error as TransportError where error.isNotSent {
                // Never reached OMDb (refused, no such host, TLS failed): not a request the quota counts.
                if let reservation { configuration.ledger?.release(reservation) }
                throw error
            } catch {
                countSent(reservation)
                throw error
            }
            countSent(reservation)
            let body = try await streamed.body.collect(upTo: configuration.maxAnswerBytes)
            let response = HTTPResponse(statusCode: streamed.statusCode, body: body, headers: streamed.headers)
            // The CDN's challenge or block page: not OMDb's answer, and the same if asked again at once.
            if Self.isCDNRefusal(response) { throw OMDbError.cdnRefused(status: response.statusCode, url: shown) }
            // OMDb's own error envelope is an answer, whatever its status, and never retried; but a
            // 5xx is the server's trouble ("Something went wrong." with a 500), not the request's.
            if RetryPolicy.isTransient(status: response.statusCode),
               (500..<600).contains(response.statusCode) || OMDbAnswer.envelope(in: body) == nil {
                return .retry(.httpStatus(response.statusCode, url: shown), after: RetryPolicy.retryAfter(response.headers["retry-after"]))
            }
            return .done(response)
        }
        let value: T
        do {
            value = try decode(response, shown)
        } catch {
            if OMDbAnswer.envelope(in: response.body) != nil { configuration.cache?.store(response, for: plain) }
            if let error = error as? OMDbError, KeyCheck.accepts(error) { keyCheck?.accept() }
            throw error
        }
        keyCheck?.accept()
        configuration.cache?.store(response, for: plain)
        return value
    }

    /// OMDb's CDN (Cloudflare) answering instead of OMDb, refusing this network or client for now:
    /// `cf-mitigated: challenge` whatever the status, or a 403, 429 or 503 whose HTML is
    /// Cloudflare's challenge or block page (markers OMDb's own answers never carry).
    private static func isCDNRefusal(_ response: HTTPResponse) -> Bool {
        if response.headers["cf-mitigated"]?.lowercased().contains("challenge") == true { return true }
        guard [403, 429, 503].contains(response.statusCode) else { return false }
        // A page is a few kB: the markers are near its top, and a huge body is read no further.
        let head = String(decoding: response.body.prefix(64 * 1024), as: UTF8.self).lowercased()
        guard head.contains("<html") || head.contains("<!doctype html") else { return false }
        let markers = ["cloudflare", "cf-chl", "challenge-platform", "cf-error-details", "cf-ray"]
        return markers.contains { head.contains($0) }
    }

    /// A place in the day's count: the row's ticket, else a fresh one; `nil` when nothing is counted.
    /// - Throws: ``OMDbError/dailyLimitReached(limit:)`` when the key's daily limit is reached.
    private func reserve() throws(OMDbError) -> QuotaLedger.Reservation? {
        guard let ledger = configuration.ledger else { return nil }
        if let ticketed = QuotaTicket.current?.take() { return ticketed }
        guard let reservation = ledger.reserve() else { throw .dailyLimitReached(limit: ledger.dailyLimit ?? 0) }
        return reservation
    }

    /// One API request that reached OMDb (or may have: a timeout or a lost connection counts).
    private func countSent(_ reservation: QuotaLedger.Reservation?) {
        sent.add()
        if let reservation { configuration.ledger?.commit(reservation) }
    }

    /// A download from any host (a poster), a 2xx body handed to `consume` as it streams.
    func download<T: Sendable>(_ url: URL, _ consume: @escaping @Sendable (TransportResponse, String) async throws -> T) async throws -> T {
        let shown = key.redact(url)
        return try await withRetries(shown: shown, isAPI: false) { [self] () async throws -> Attempt<T> in
            // A poster's address carries no key: nothing of it is secret.
            let streamed = try await transport.send(TransportRequest(url: url, timeout: configuration.timeout))
            if RetryPolicy.isTransient(status: streamed.statusCode) {
                return .retry(.httpStatus(streamed.statusCode, url: shown), after: RetryPolicy.retryAfter(streamed.headers["retry-after"]))
            }
            guard (200..<300).contains(streamed.statusCode) else { throw OMDbError.httpStatus(streamed.statusCode, url: shown) }
            return .done(try await consume(streamed, shown))
        }
    }

    private func withRetries<T: Sendable>(shown: String, isAPI: Bool,
                                          _ attempt: @escaping @Sendable () async throws -> Attempt<T>) async throws -> T {
        var number = 1
        while true {
            let outcome: Attempt<T>
            do {
                // The transport's deadline starts once the request has its place: waiting in line is not the server's fault.
                outcome = try await gate.withPlace { try await attempt() }
            } catch where Task.isCancelled {
                // Ctrl-C, not the deadline: whatever the transport said of the request given up.
                throw CancellationError()
            } catch let error as TransportError where error.isTransient {
                outcome = .retry(failure(error, shown: shown, isAPI: isAPI, tries: number), after: nil)
            } catch let error as TransportError {
                throw failure(error, shown: shown, isAPI: isAPI, tries: number)
            } catch let error as OMDbError {
                throw error
            } catch {
                if error is CancellationError || Task.isCancelled { throw CancellationError() }
                throw failure(.unreachable(reason: String(describing: error)), shown: shown, isAPI: isAPI, tries: number)
            }
            switch outcome {
            case .done(let value):
                return value
            case let .retry(error, after):
                guard number < configuration.retry.maxAttempts else { throw error }
                try await configuration.retry.sleep(configuration.retry.delay(after: number, retryAfter: after))
                number += 1
            }
        }
    }

    /// A transport failure after `tries` attempts as the person reads it: the host named, the key nowhere.
    private func failure(_ error: TransportError, shown: String, isAPI: Bool, tries: Int) -> OMDbError {
        switch (error, isAPI) {
        case (.timedOut, true): .timedOut(url: shown, seconds: configuration.timeout, tries: tries)
        case (.timedOut, false):
            .posterDownloadFailed(url: shown, reason: "no complete answer within \(configuration.timeout) s"
                                      + OMDbError.eachOf(tries))
        case (.tooLarge, true): .answerTooLarge(url: shown, limit: configuration.maxAnswerBytes)
        // A poster's cap is the store's, checked as it streams (posterTooLarge): the transport's never throws for one.
        case (_, true): .unreachable(url: shown, reason: key.redact(error.reason))
        case (_, false): .posterDownloadFailed(url: shown, reason: key.redact(error.reason))
        }
    }
}

/// A key this machine has not seen OMDb accept: accepted by an answer of the request itself, not the key.
final class KeyCheck: Sendable {
    private let accepted = Atomic<Bool>(false)
    private let onAccepted: @Sendable () -> Void

    init(onAccepted: @escaping @Sendable () -> Void) { self.onAccepted = onAccepted }

    var isAccepted: Bool { accepted.load(ordering: .acquiring) }

    /// Whether OMDb looked past the key to give `error`: it answered of the request itself.
    static func accepts(_ error: OMDbError) -> Bool {
        if error.isNoResults { return true }
        if case .tooManyResults = error.underlying { return true }
        return false
    }

    /// Marks the key accepted; the first call tells ``onAccepted``.
    func accept() {
        if accepted.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged { onAccepted() }
    }
}

/// Counts requests from any thread.
final class RequestCounter: Sendable {
    private let count = Atomic<Int>(0)

    func add() { count.add(1, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}
