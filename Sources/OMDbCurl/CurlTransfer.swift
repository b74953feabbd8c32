import CCurl
import Foundation
import OMDbKit
import Synchronization

/// One request on the ``CurlEngine``: its easy handle, the headers as they arrive, the body's
/// feed, and the one answer its caller gets.
///
/// All but the answer is touched on the engine's thread only (libcurl calls the callbacks
/// there, from `curl_multi_perform` and `curl_easy_pause`). The answer is taken under a lock:
/// the engine resumes the caller with the headers or an error, and the caller's task, when it
/// is cancelled, with `CancellationError`: whichever comes first.
final class CurlTransfer: @unchecked Sendable {
    /// How the transfer's easy handle is set up, the same for every transfer of a transport.
    struct Setup: Sendable {
        let timeout: Int
        let caFile: String?
        let caFolder: String?
        let userAgent: String
    }

    private enum Answer {
        case unset
        case waiting(CheckedContinuation<StreamedResponse, any Error>)
        case answered
    }

    private let engine: CurlEngine
    private let setup: Setup
    /// A warm-up: a keyless HEAD that only opens the connection; nobody waits for it.
    let isWarmUp: Bool
    private let answer = Mutex(Answer.unset)
    /// Set (under ``answer``'s lock) once libcurl is about to write the request: the connection,
    /// TLS included, is up. Until then a failure or a caller giving up means the request was not
    /// sent, and the daily count must not count it.
    private let requestWritten = Atomic(false)

    // Engine thread only.
    private var url: URL
    private(set) var easy: OpaquePointer?
    private var status = 0
    private var headers: [String: String] = [:]
    private var headersDone = false
    /// Where a finished 3xx leads, when it is to be followed.
    private(set) var redirect: URL?
    private var redirects = 0
    private var feed: BodyFeed?
    private var paused = false
    private var received = 0
    /// The engine's running time this transfer may take, while not paused for its reader.
    private let limit: Duration
    /// The running time charged so far (see ``charge(_:)``).
    private var spent: Duration = .zero
    /// Redirects followed before the transfer fails with "too many redirects".
    static let maxRedirects = 10
    /// The names of the request's secret query items, as the client handed them over.
    let secretQueryItems: Set<String>

    /// - Parameter timeout: seconds of the engine's running time for the whole exchange (the
    ///   setup's when nil), the time paused for a reader behind not counted.
    /// - Parameter secretQueryItems: the query items the client names as secret (see ``carriesKey(_:secrets:)``).
    init(url: URL, setup: Setup, engine: CurlEngine, timeout: Int? = nil, isWarmUp: Bool = false, secretQueryItems: Set<String> = []) {
        self.url = url
        self.secretQueryItems = secretQueryItems
        self.setup = setup
        limit = .seconds(max(1, timeout ?? setup.timeout))
        self.engine = engine
        self.isWarmUp = isWarmUp
    }

    // MARK: The caller's side

    /// Starts the transfer and returns once the headers are in.
    func send() async throws -> StreamedResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let parked = answer.withLock { state -> Bool in
                    guard case .unset = state else { return false }
                    state = .waiting(continuation)
                    return true
                }
                guard parked else { return continuation.resume(throwing: CancellationError()) }
                engine.post(.start(self))
            }
        } onCancel: {
            // Answered now, whatever libcurl is doing; the engine drops the transfer when it gets to it.
            resumeGivenUp()
            engine.post(.cancel(self))
        }
    }

    /// True once the caller was answered before the transfer started: it gave up.
    var isAbandoned: Bool {
        answer.withLock { if case .answered = $0 { true } else { false } }
    }

    @discardableResult
    private func resume(returning response: StreamedResponse) -> Bool {
        guard let continuation = takeContinuation() else { return false }
        continuation.resume(returning: response)
        return true
    }

    @discardableResult
    private func resume(throwing error: any Error) -> Bool {
        guard let continuation = takeContinuation() else { return false }
        continuation.resume(throwing: error)
        return true
    }

    /// Answers a caller that gave up: `CancellationError` once the request was written, else
    /// ``TransportError/notSent(reason:)``, and then it never will be (``mayWriteRequest()``
    /// sees the answer, under the same lock, and aborts).
    private func resumeGivenUp() {
        let (continuation, written) = answer.withLock { state in
            defer { state = .answered }
            let written = requestWritten.load(ordering: .relaxed)
            if case .waiting(let continuation) = state { return (Optional(continuation), written) }
            return (nil, written)
        }
        continuation?.resume(throwing: written ? CancellationError() : TransportError.notSent(reason: "given up before the request was sent"))
    }

    /// libcurl's connection is ready (TCP, TLS): true to write the request, false when the
    /// caller already gave up.
    private func mayWriteRequest() -> Bool {
        answer.withLock { state in
            if case .answered = state { return false }
            requestWritten.store(true, ordering: .relaxed)
            return true
        }
    }

    private func takeContinuation() -> CheckedContinuation<StreamedResponse, any Error>? {
        answer.withLock { state in
            defer { state = .answered }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
    }

    // MARK: The engine's side

    /// The easy handle for this transfer, set up; nil when libcurl cannot make one.
    func makeHandle(share: OpaquePointer) -> OpaquePointer? {
        guard let easy = ccurl_easy_init() else { return nil }
        self.easy = easy
        let context = Unmanaged.passUnretained(self).toOpaque()
        ccurl_easy_setopt_long(easy, CCURLOPT_NOSIGNAL, 1)
        ccurl_easy_setopt_long(easy, CCURLOPT_HTTP_VERSION, Int(CCURL_HTTP_VERSION_2TLS))
        ccurl_easy_setopt_long(easy, CCURLOPT_PROTOCOLS, Int(CCURLPROTO_HTTP | CCURLPROTO_HTTPS))
        // Redirects are followed here, one by one, so that the key never follows one off its origin.
        ccurl_easy_setopt_long(easy, CCURLOPT_FOLLOWLOCATION, 0)
        // Every encoding this libcurl decodes; the body's reader counts the decoded bytes.
        ccurl_easy_setopt_pointer(easy, CCURLOPT_ACCEPT_ENCODING, "")
        ccurl_easy_setopt_pointer(easy, CCURLOPT_USERAGENT, setup.userAgent)
        ccurl_easy_setopt_pointer(easy, CCURLOPT_SHARE, UnsafeRawPointer(share))
        ccurl_easy_setopt_long(easy, CCURLOPT_TCP_KEEPALIVE, 1)
        // libcurl's default 16 kB receive buffer never completes an HTTP/2 answer whose headers
        // pass it (7.88: a CDN's cookies and security headers are enough); curl the tool sets 100 kB.
        ccurl_easy_setopt_long(easy, CCURLOPT_BUFFERSIZE, 100 * 1024)
        // No timeout of libcurl's: those run on the wall clock, and a process stopped for longer
        // would fail every transfer on being continued. The engine charges the deadline instead
        // (``charge(_:)``), connecting included; libcurl's own connect limit (300 s) is a backstop.
        if let caFile = setup.caFile { ccurl_easy_setopt_pointer(easy, CCURLOPT_CAINFO, caFile) }
        if let caFolder = setup.caFolder { ccurl_easy_setopt_pointer(easy, CCURLOPT_CAPATH, caFolder) }
        if isWarmUp { ccurl_easy_setopt_long(easy, CCURLOPT_NOBODY, 1) }
        ccurl_easy_setopt_header(easy) { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.header(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        ccurl_easy_setopt_pointer(easy, CCURLOPT_HEADERDATA, context)
        ccurl_easy_setopt_write(easy) { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.write(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        ccurl_easy_setopt_pointer(easy, CCURLOPT_WRITEDATA, context)
        let tracked = ccurl_easy_setopt_prereq(easy, { context, _, _, _, _ in
            guard let context else { return 0 }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().mayWriteRequest() ? 0 : 1
        }, context) == CCURLE_OK
        // A libcurl before 7.80 cannot say when the request is written: every request counts.
        if !tracked { requestWritten.store(true, ordering: .relaxed) }
        point(easy, at: url)
        return easy
    }

    private func point(_ easy: OpaquePointer, at url: URL) {
        ccurl_easy_setopt_pointer(easy, CCURLOPT_URL, url.absoluteString)
        // A proxy would see a plain-http request whole, key included (a CONNECT to an https host
        // carries its host and port only): such a request goes direct (the client allows plain
        // http with the key only to this machine).
        // (Set only then: setting it at all overrides the person's NO_PROXY.)
        if Self.carriesKey(url, secrets: secretQueryItems), url.scheme?.lowercased() == "http" { ccurl_easy_setopt_pointer(easy, CCURLOPT_NOPROXY, "*") }
        // Wait for the host's connection in the making rather than open another: once it speaks
        // HTTP/2 every request of the page shares it. Plain HTTP is HTTP/1.1 here, and waits for nothing.
        ccurl_easy_setopt_long(easy, CCURLOPT_PIPEWAIT, url.scheme?.lowercased() == "https" ? 1 : 0)
    }

    /// One header line. The end of the final block answers the caller (or starts a redirect).
    private func header(_ line: UnsafeRawBufferPointer) -> Int {
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("HTTP/") {
            headers = [:]
            return line.count
        }
        guard text.isEmpty else {
            if let colon = text.firstIndex(of: ":") {
                let name = text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                headers[name] = headers[name].map { "\($0), \(value)" } ?? value
            }
            return line.count
        }
        guard let easy else { return 0 }
        var code = 0
        ccurl_easy_getinfo_long(easy, CCURLINFO_RESPONSE_CODE, &code)
        // A 1xx is followed by the real answer's block.
        if code < 200 { return line.count }
        status = code
        if (300..<400).contains(code), !isWarmUp, let next = redirectURL(), Self.mayFollow(from: url, to: next, secrets: secretQueryItems) {
            guard redirects < Self.maxRedirects else {
                resume(throwing: TransportError.unreachable(reason: "too many redirects"))
                return 0
            }
            redirect = next
            return line.count
        }
        headersDone = true
        if isWarmUp { return line.count }
        let encoded = headers["content-encoding"].map { $0.lowercased() != "identity" } ?? false
        // A compressed body's announced length is not the length of what the reader gets.
        let length = encoded ? nil : headers["content-length"].flatMap { Int($0) }
        let feed = BodyFeed(resumeTransfer: { [engine, self] in engine.post(.resume(self)) },
                            cancelTransfer: { [engine, self] in engine.post(.cancel(self)) })
        self.feed = feed
        // A caller who gave up gets nothing: the transfer stops here.
        return resume(returning: StreamedResponse(statusCode: status, headers: headers, body: HTTPBody(feed: feed, length: length))) ? line.count : 0
    }

    /// The `Location` of a 3xx, resolved against the request's URL (libcurl's own resolution,
    /// CURLINFO_REDIRECT_URL, is only there once the transfer is done).
    private func redirectURL() -> URL? {
        guard let location = headers["location"], !location.isEmpty else { return nil }
        return URL(string: location, relativeTo: url)?.absoluteURL
    }

    /// Body bytes, decoded: to the reader, or, when its queue is full, not taken (the transfer pauses).
    private func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard redirect == nil, let feed else { return bytes.count }
        switch feed.receive(Data(bytes)) {
        case .taken:
            received += bytes.count
            return bytes.count
        case .full:
            paused = true
            engine.pauses.add(1, ordering: .relaxed)
            return Int(CCURL_WRITEFUNC_PAUSE)
        case .stopped:
            return 0
        }
    }

    /// What is left of a deadline, once charged.
    enum Deadline {
        case left(Duration)
        case overdue
        /// Waiting for its reader (a slow disk): no time is charged.
        case paused
    }

    /// Charges `elapsed` of the engine's running time to the transfer, unless it is paused for
    /// its reader: the time a reader takes is not the server's.
    func charge(_ elapsed: Duration) -> Deadline {
        guard !paused else { return .paused }
        spent += elapsed
        return spent >= limit ? .overdue : .left(limit - spent)
    }

    /// The reader caught up: libcurl delivers what it held back, then reads on.
    func resumeIfPaused() {
        guard paused, let easy else { return }
        paused = false
        ccurl_easy_pause(easy, CCURLPAUSE_CONT)
    }

    /// Points the handle at the redirect's target, for the engine to add it again.
    func follow(to next: URL) {
        guard let easy else { return }
        url = next
        redirects += 1
        redirect = nil
        headers = [:]
        headersDone = false
        point(easy, at: next)
    }

    /// libcurl finished the transfer with `result`.
    func complete(_ result: Int32) {
        if result == CCURLE_OK {
            if headersDone { feed?.finish() } else { resume(throwing: TransportError.unreachable(reason: "the server sent no answer")) }
            return
        }
        if headersDone {
            feed?.finish(throwing: bodyError(result))
        } else {
            resume(throwing: Self.error(for: result, requestWritten: requestWritten.load(ordering: .relaxed)))
        }
    }

    /// Ends the transfer before libcurl had it.
    func fail(_ error: TransportError) {
        resume(throwing: error)
    }

    /// Given up (by its reader or caller) or the engine stopped: nobody is answered but with this.
    func abandon() {
        resume(throwing: CancellationError())
        feed?.finish(throwing: CancellationError())
    }

    func releaseHandle() {
        if let easy { ccurl_easy_cleanup(easy) }
        easy = nil
        feed = nil
    }

    /// Once the headers are in, a failure is the connection's: cut short, lost, or timed out.
    private func bodyError(_ result: Int32) -> TransportError {
        switch result {
        case CCURLE_PARTIAL_FILE:
            let expected = headers["content-length"].flatMap { Int($0) } ?? received
            return .truncated(received: received, expected: max(expected, received))
        case CCURLE_RECV_ERROR, CCURLE_SEND_ERROR, CCURLE_GOT_NOTHING, CCURLE_HTTP2, CCURLE_HTTP2_STREAM:
            return .connectionLost
        default:
            return Self.error(for: result)
        }
    }
}

extension CurlTransfer {
    /// libcurl's result before any answer: ``TransportError/notSent(reason:)`` whatever it was when
    /// the request was never written (a host that accepts TCP and never completes TLS), since
    /// the daily count counts only what reached a server.
    static func error(for result: Int32, requestWritten: Bool) -> TransportError {
        let error = error(for: result)
        guard !requestWritten, !error.isNotSent else { return error }
        return .notSent(reason: result == CCURLE_OPERATION_TIMEDOUT ? "the connection (TCP and TLS) was not made in time" : error.reason)
    }

    /// libcurl's result in words. Never libcurl's own text: it may hold the URL, and with it the key.
    static func error(for result: Int32) -> TransportError {
        switch result {
        case CCURLE_OPERATION_TIMEDOUT: return .timedOut
        case CCURLE_RECV_ERROR, CCURLE_SEND_ERROR, CCURLE_HTTP2, CCURLE_HTTP2_STREAM, CCURLE_PARTIAL_FILE: return .connectionLost
        default: break
        }
        // Before a byte of the request went out.
        let notSent: String? = switch result {
        case CCURLE_COULDNT_CONNECT: "connection refused"
        case CCURLE_COULDNT_RESOLVE_HOST: "host not found"
        case CCURLE_COULDNT_RESOLVE_PROXY: "the proxy's host was not found"
        case CCURLE_PROXY: "the proxy refused the connection"
        case CCURLE_SSL_CONNECT_ERROR: "the TLS handshake failed"
        case CCURLE_PEER_FAILED_VERIFICATION, CCURLE_SSL_CERTPROBLEM: "the server's TLS certificate was refused"
        case CCURLE_SSL_CACERT_BADFILE: "the CA certificates could not be read (check SSL_CERT_FILE or CURL_CA_BUNDLE)"
        case CCURLE_URL_MALFORMAT: "the address is not a URL it can fetch"
        default: nil
        }
        if let notSent { return .notSent(reason: notSent) }
        let reason = switch result {
        case CCURLE_GOT_NOTHING: "the server sent nothing"
        // libcurl answers a reply with no status line (HTTP/0.9) with "unsupported protocol".
        case CCURLE_WEIRD_SERVER_REPLY, CCURLE_UNSUPPORTED_PROTOCOL: "the server's answer was not valid HTTP"
        case CCURLE_TOO_MANY_REDIRECTS: "too many redirects"
        case CCURLE_BAD_CONTENT_ENCODING: "the answer's compression is broken"
        default: "the connection failed"
        }
        return .unreachable(reason: reason)
    }

    /// Whether a redirect from `from` to `to` may be followed: a request carrying the key only within
    /// its origin (same host and port, or the same host upgraded to https), since a `Location` that
    /// echoes the query would otherwise hand the key to another host, or send it in clear text.
    /// Refused, the 3xx is the answer.
    static func mayFollow(from: URL, to: URL, secrets: Set<String>) -> Bool {
        guard carriesKey(from, secrets: secrets) else { return true }
        guard let fromHost = from.host?.lowercased(), fromHost == to.host?.lowercased() else { return false }
        let fromScheme = from.scheme?.lowercased(), toScheme = to.scheme?.lowercased()
        // The upgrade of an origin: http on its usual port to https on its usual port, nothing else.
        if fromScheme == "http", toScheme == "https" {
            return (from.port ?? 80) == 80 && (to.port ?? 443) == 443
        }
        return fromScheme == toScheme && from.port == to.port
    }

    /// Whether `url` carries the API key: one of the query items the client named as secret with
    /// the request (``TransportRequest/secretQueryItems``); where the key goes is the client's rule, not ours.
    static func carriesKey(_ url: URL, secrets: Set<String>) -> Bool {
        TransportRequest.carriesSecret(url, names: secrets)
    }
}
