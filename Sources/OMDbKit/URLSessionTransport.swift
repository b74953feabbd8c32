import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live transport: URLSession, the body handed on chunk by chunk as it arrives.
///
/// `bytes(for:)` does not exist on Linux, so a data task's delegate feeds each body into an
/// ``HTTPBody`` stream. Dropping the stream (the consumer stopped, or hit its limit) cancels the task.
public final class URLSessionTransport: OMDbTransport {
    private let session: URLSession
    private let streams = BodyStreams()
    /// How long a call into the session may wait before new requests fail at once (``SessionCalls``).
    private let stuckAfter: Duration

    /// - Parameter maxConnectionsPerHost: how many requests may run at once against one host
    ///   (URLSession's default of 6 would queue the rest of a page inside the session).
    public convenience init(maxConnectionsPerHost: Int) {
        self.init(maxConnectionsPerHost: maxConnectionsPerHost, stuckAfter: .seconds(10))
    }

    init(maxConnectionsPerHost: Int, stuckAfter: Duration) {
        self.stuckAfter = stuckAfter
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(1, maxConnectionsPerHost)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpAdditionalHeaders = ["User-Agent": "movies/\(OMDbKit.version) (OMDbKit)"]
        #if canImport(FoundationNetworking)
        session = URLSession(configuration: configuration, delegate: streams, delegateQueue: CallerQueue())
        #else
        session = URLSession(configuration: configuration, delegate: streams, delegateQueue: nil)
        #endif
    }

    deinit {
        // Through the calls queue, never here: invalidating waits for URLSession's one queue, which
        // a body flooding in can keep busy for as long as it flows, and the last reference may be
        // dropped on the way out of the program.
        streams.calls.async { [session] in session.invalidateAndCancel() }
    }

    /// Where tasks are created, resumed and cancelled (for tests: holding it is what a session too
    /// busy to take a call looks like to the callers).
    var calls: SessionCalls { streams.calls }

    public func send(_ url: URL, timeout: Int) async throws -> StreamedResponse {
        try Task.checkCancellation()
        // The session cannot take a call, and will not until the flood ends: every request would
        // only wait out its deadline (three times over), so say what is wrong, now.
        if streams.calls.isStuck(after: stuckAfter) {
            throw TransportError.stuck
        }
        var request = URLRequest(url: url)
        // Only URLSession's idle timeout: the client's deadline bounds the whole request.
        request.timeoutInterval = TimeInterval(max(1, timeout))
        let start = TaskStart(on: streams.calls)
        let answer = HeadAnswer()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard answer.wait(with: continuation) else { return }
                // Creating and resuming a task waits (`workQueue.sync`) for the session's one serial
                // queue, which also reads every socket: on the cooperative pool (two threads here)
                // that wait stalled every other request, answer and row behind it. So tasks start
                // on a queue of their own, and the caller's thread goes back to the pool at once.
                streams.calls.async { [session, streams, request] in
                    // Given up while waiting here: no task (making one waits for the session too).
                    guard !start.isCancelled else { return }
                    streams.start(session.dataTask(with: request), answer: answer, start: start)
                }
            }
        } onCancel: {
            // Answered here and now, not when URLSession gets to the cancel: a body flooding in
            // (no pause, no end) keeps URLSession's one queue busy, and every call into the session
            // waits for that queue. The task is cancelled as soon as the session takes it.
            answer.resume(throwing: CancellationError())
            start.cancel()
        }
    }

    /// Never the URLError's own text: it holds the whole URL. Words only, and no code numbers.
    static func transportError(_ error: any Error) -> any Error {
        guard let error = error as? URLError else { return error }
        // On Linux a cancelled task surfaces as URLError(.cancelled), not CancellationError.
        if error.code == .cancelled || Task.isCancelled { return CancellationError() }
        switch error.code {
        case .timedOut: return TransportError.timedOut
        case .networkConnectionLost: return TransportError.connectionLost
        default: break
        }
        let reason = switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .cannotFindHost, .dnsLookupFailed: "host not found"
        case .notConnectedToInternet: "no network, or no route to the host"
        case .httpTooManyRedirects, .redirectToNonExistentLocation: "too many redirects"
        case .secureConnectionFailed: "the TLS handshake failed"
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot,
             .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired:
            "the server's TLS certificate was refused"
        case .badServerResponse, .cannotParseResponse: "the server's answer was not valid HTTP"
        case .zeroByteResource: "the server sent nothing"
        case .unsupportedURL, .badURL: "the address is not a URL it can fetch"
        case .resourceUnavailable, .cannotLoadFromNetwork: "the host did not answer"
        // corelibs maps libcurl's TLS failures to .unknown: its text (never shown) says which.
        case .unknown: tlsReason(libcurlSays: error.localizedDescription) ?? "the connection failed"
        default: "the connection failed"
        }
        return TransportError.unreachable(reason: reason)
    }
}

extension URLSessionTransport {
    /// The reason in words for libcurl's TLS errors ("SSL certificate problem: unable to get local
    /// issuer certificate", "error:0A00010B:SSL routines::wrong version number"), which corelibs
    /// reports as `URLError(.unknown)` with libcurl's text; `nil` for any other text.
    static func tlsReason(libcurlSays text: String) -> String? {
        let text = text.lowercased()
        if text.contains("certificate") || text.contains("subject name") { return "the server's TLS certificate was refused" }
        if text.contains("ssl") || text.contains("tls") { return "the TLS handshake failed" }
        return nil
    }
}

#if canImport(FoundationNetworking)
/// The live session's delegate "queue" on Linux: each delegate call runs at once, on the thread
/// that posts it, which is libcurl's own.
///
/// URLSession on Linux has no flow control: libcurl reads as fast as the network gives, and each
/// chunk is posted to the delegate queue with nothing to slow libcurl down when that queue falls
/// behind (a busy machine, a slow disk). Measured: 100 posters of 5 MB held 80 MB of chunks there,
/// 300 MB of RSS. Called in place, a chunk is written to its poster file (``HTTPBody/drain(into:)``)
/// before libcurl reads the next one, so what waits is the kernel's socket buffer, not our memory.
/// The delegate calls below never call back into the session on this thread: `cancel()` waits for
/// the session's queue, so it is sent from another thread.
private final class CallerQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) { block() }
    override func addOperation(_ operation: Operation) { operation.start() }
}
#endif

/// Turns each data task's delegate calls into a ``StreamedResponse``: the headers resume the
/// caller, the data feeds the body's stream, the end finishes it (or throws into it).
private final class BodyStreams: NSObject, URLSessionDataDelegate, Sendable {
    private struct Entry {
        var head: HeadAnswer?
        var body: BodyFeed?
        var expected: Int64 = -1
        var received = 0
    }

    private let entries = Mutex<[Int: Entry]>([:])

    /// Where tasks are created, resumed and cancelled.
    let calls = SessionCalls()

    func start(_ task: URLSessionDataTask, answer: HeadAnswer, start: TaskStart) {
        entries.withLock { $0[task.taskIdentifier] = Entry(head: answer) }
        // A task cancelled before it was resumed may never report back: one the caller gave up on
        // before now (and was answered then) is never started.
        guard start.resume(task) else {
            entries.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
            return
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        // The consumer stopped reading (done with what it wanted, over a limit, cancelled): stop the
        // download. Never from here: this may run on the session's own queue, which cancel() waits for.
        let body = BodyFeed { [calls, weak dataTask] in
            guard let dataTask else { return }
            calls.async { dataTask.cancel() }
        }
        let head = entries.withLock { state -> HeadAnswer? in
            guard state[dataTask.taskIdentifier] != nil else { return nil }
            state[dataTask.taskIdentifier]?.body = body
            state[dataTask.taskIdentifier]?.expected = response.expectedContentLength
            defer { state[dataTask.taskIdentifier]?.head = nil }
            return state[dataTask.taskIdentifier]?.head
        }
        guard let head else {
            completionHandler(.cancel)
            return
        }
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        let announced = response.expectedContentLength
        let delivered = head.resume(returning: StreamedResponse(statusCode: http?.statusCode ?? 200, headers: headers,
                                                                body: HTTPBody(feed: body, length: announced >= 0 ? Int(announced) : nil)))
        // A caller who gave up was answered then, and this body has no reader: dropping it (and
        // ``TaskStart``) sends the task's cancel. On Linux that is what stops the transfer: corelibs
        // ignores the disposition (`.cancel` stops it on Darwin only).
        completionHandler(delivered ? .allow : .cancel)
    }

    /// A request carrying the key follows a redirect only within its origin (same host and port,
    /// or the same host upgraded to https): a `Location` that echoes the query would otherwise hand
    /// the key to another host, or send it in clear text. Refused, the 3xx is the answer.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        guard let from = task.originalRequest?.url, let to = request.url else { return completionHandler(nil) }
        completionHandler(Self.mayFollow(from: from, to: to) ? request : nil)
    }

    /// Whether a redirect from `from` to `to` may be followed: always for a request without the key.
    static func mayFollow(from: URL, to: URL) -> Bool {
        let carriesKey = URLComponents(url: from, resolvingAgainstBaseURL: false)?.queryItems?.contains { $0.name == "apikey" } ?? false
        guard carriesKey else { return true }
        guard let fromHost = from.host?.lowercased(), fromHost == to.host?.lowercased() else { return false }
        let fromScheme = from.scheme?.lowercased(), toScheme = to.scheme?.lowercased()
        if fromScheme == "http", toScheme == "https" { return true }
        return fromScheme == toScheme && from.port == to.port
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let body = entries.withLock { state in
            state[dataTask.taskIdentifier]?.received += data.count
            return state[dataTask.taskIdentifier]?.body
        }
        body?.receive(data)
    }

    /// Once the headers are in, a failure is the connection's: cut short, lost, or timed out.
    private static func bodyError(_ error: any Error, _ entry: Entry) -> any Error {
        let mapped = URLSessionTransport.transportError(error)
        if mapped is CancellationError || mapped as? TransportError == .timedOut { return mapped }
        if entry.expected > Int64(entry.received) { return TransportError.truncated(received: entry.received, expected: Int(entry.expected)) }
        return TransportError.connectionLost
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let head = entry.head {
            head.resume(throwing: error.map(URLSessionTransport.transportError) ?? TransportError.unreachable(reason: "the server sent no answer"))
        } else if let error {
            entry.body?.finish(throwing: Self.bodyError(error, entry))
        } else {
            entry.body?.finish()
        }
    }
}
