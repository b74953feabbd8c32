import CCurl
import Files
import Foundation
import OMDbKit
import Synchronization

/// One request on the ``CurlEngine``, and the one answer its caller gets. Its life is
/// ``CurlTransferStateMachine``'s, under a lock: the caller's task and the engine's thread feed it
/// events and do what each returns outside the lock. Its easy handle is a ``CurlEasy``.
final class CurlTransfer: Sendable {
    /// How the transfer's easy handle is set up, the same for every transfer of a transport.
    struct Setup: Sendable {
        let timeout: Int
        /// The CA file named by `CURL_CA_BUNDLE` or `SSL_CERT_FILE`, trusted alone (unless `caFolder`).
        let caFile: String?
        /// The CA folder named by `SSL_CERT_DIR`.
        let caFolder: String?
        /// With neither named: libcurl's built-in CA folder, read alone (see ``SystemCA``); nil
        /// keeps libcurl's defaults.
        var systemCA: SystemCA? = nil
        let userAgent: String
    }

    typealias Machine = CurlTransferStateMachine<CheckedContinuation<TransportResponse, any Error>, BodyFeed>

    let engine: CurlEngine
    let setup: Setup
    /// A warm-up: a keyless HEAD that only opens the connection; nobody waits for it.
    let isWarmUp: Bool
    let secretQueryItems: Set<String>
    /// The engine's thread feeds it the events that need nothing resumed here itself.
    let machine: Mutex<Machine>

    /// - Parameter timeout: seconds of the engine's running time for the whole exchange (the
    ///   setup's when nil), the time paused for a reader behind not counted.
    /// - Parameter secretQueryItems: the query items the client names as secret (``TransportRequest/secretQueryItems``).
    init(url: URL, setup: Setup, engine: CurlEngine, timeout: Int? = nil, isWarmUp: Bool = false, secretQueryItems: Set<String> = []) {
        self.setup = setup
        self.engine = engine
        self.isWarmUp = isWarmUp
        self.secretQueryItems = secretQueryItems
        let limit = Duration.seconds(max(1, timeout ?? setup.timeout))
        machine = Mutex(Machine(url: url, limit: limit, secretQueryItems: secretQueryItems))
    }

    // MARK: The caller's side

    /// Starts the transfer and returns once the headers are in.
    /// - Parameter afterPosting: run once the transfer is posted to the engine (not when it was
    ///   cancelled before): what it posts, the engine starts after this transfer.
    func send(afterPosting: () -> Void = {}) async throws -> TransportResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard machine.withLock({ $0.send(continuation) }) else {
                    return continuation.resume(throwing: CancellationError())
                }
                engine.post(.start(self))
                afterPosting()
            }
        } onCancel: {
            // Answered now, whatever libcurl is doing; the engine drops the transfer when it gets to it.
            if let (continuation, error) = machine.withLock({ $0.giveUp() }) { continuation.resume(throwing: error) }
            engine.post(.cancel(self))
        }
    }

    // MARK: The engine's side (its thread only: the engine's loop and libcurl's callbacks)

    /// `bytes` without HTTP's whitespace (space, tab) and the line's end (CR, LF) at either end.
    static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }

    /// One header line; the response code is read from the handle (`code`) only at the end of a
    /// block. Returns false to stop the transfer.
    func header(_ line: UnsafeRawBufferPointer, code: () -> Int) -> Bool {
        // Read as bytes: on the engine's thread, for every line of every answer.
        let text = Self.trimmed(line[...])
        if text.starts(with: "HTTP/".utf8) {
            machine.withLock { $0.statusLine() }
            return true
        }
        guard text.isEmpty else {
            if let colon = text.firstIndex(of: UInt8(ascii: ":")) {
                let name = String(decoding: Self.trimmed(text[..<colon]), as: UTF8.self)
                let value = String(decoding: Self.trimmed(text[(colon + 1)...]), as: UTF8.self)
                machine.withLock { $0.header(name: name, value: value) }
            }
            return true
        }
        let code = code()
        let end = machine.withLock { machine in
            machine.headersEnded(code: code) {
                BodyFeed(resumeTransfer: { [engine, self] in engine.post(.resume(self)) },
                         cancelTransfer: { [engine, self] in engine.post(.cancel(self)) })
            }
        }
        switch end {
        case .proceed:
            return true
        case let .answer(continuation, head, feed):
            continuation.resume(returning: TransportResponse(statusCode: head.status, headers: head.headers,
                                                            body: HTTPBody(feed: feed, length: head.length)))
            return true
        case let .fail(continuation, error):
            continuation.resume(throwing: error)
            return false
        case .stop:
            return false
        }
    }

    /// Body bytes, decoded: to the reader, or, when its queue is full, not taken (the transfer
    /// pauses). Returns what libcurl's write callback returns.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch machine.withLock({ $0.write() }) {
        case .discard: return bytes.count
        case .stop: return 0
        case .deliver(let feed):
            let intake = feed.receive(Data(bytes))
            machine.withLock { $0.delivered(intake, count: bytes.count) }
            switch intake {
            case .taken: return bytes.count
            case .full:
                engine.pauses.add(1, ordering: .relaxed)
                return Int(CCURL_WRITEFUNC_PAUSE)
            case .stopped: return 0
            }
        }
    }

    /// libcurl finished the transfer with `result`; `systemError` is the `errno` of a socket that could not be opened (0: none).
    func complete(_ result: Int32, systemError: Int32 = 0) {
        switch machine.withLock({ $0.complete(result) }) {
        case let .fail(continuation, error): continuation.resume(throwing: explained(error, result: result, systemError: systemError))
        case let .finish(feed, error): feed.finish(throwing: error)
        case .nothing: break
        }
    }

    /// A connection that failed for want of a descriptor says so (`ulimit -n`), not "connection
    /// refused"; a certificate refused under a CA file or the system's folder read alone says so,
    /// and which variable trusts more (OpenSSL's programs add the default folder to a file).
    private func explained(_ error: TransportError, result: Int32, systemError: Int32) -> TransportError {
        if error.isNotSent, systemError == EMFILE || systemError == ENFILE, let shortage = ProcessLimit.shortage(systemError) {
            return .notSent(reason: shortage)
        }
        guard result == CCURLE_PEER_FAILED_VERIFICATION else { return error }
        if let system = setup.systemCA {
            return .notSent(reason: "the server's TLS certificate was refused by the system's CA folder \(system.folder), read alone; "
                                + "CURL_CA_BUNDLE=\(system.bundle ?? "FILE") trusts a bundle file instead")
        }
        guard setup.caFile != nil, setup.caFolder == nil else { return error }
        return .notSent(reason: "the server's TLS certificate was refused by the CA file in CURL_CA_BUNDLE or SSL_CERT_FILE, "
                            + "trusted alone; SSL_CERT_DIR=/etc/ssl/certs adds the system's")
    }

    /// Given up (by its reader or caller) or the engine stopped: nobody is answered but with this.
    func abandon() {
        let (continuation, feed) = machine.withLock { $0.abandon() }
        continuation?.resume(throwing: CancellationError())
        feed?.finish(throwing: CancellationError())
    }
}

/// A transfer's easy handle: only the engine's loop holds one, and libcurl's callbacks reach it
/// through their context pointer, on that thread too. Not `Sendable`: the compiler keeps it there.
final class CurlEasy {
    let handle: OpaquePointer
    let transfer: CurlTransfer
    /// Why a socket of the handle's could not be opened (`errno`; 0: none did fail), written by libcurl's callback.
    let socketError: UnsafeMutablePointer<Int32>

    /// A handle for `transfer`, set up for `url`; nil when libcurl cannot make one.
    init?(for transfer: CurlTransfer, url: URL, share: OpaquePointer) {
        guard let handle = ccurl_easy_init() else { return nil }
        self.handle = handle
        self.transfer = transfer
        socketError = .allocate(capacity: 1)
        let setup = transfer.setup
        // The context the callbacks get: this object, which the engine's table keeps alive for as
        // long as libcurl holds the handle.
        let context = Unmanaged.passUnretained(self).toOpaque()
        socketError.initialize(to: 0)
        ccurl_easy_setopt_socket_errors(handle, socketError)
        ccurl_easy_setopt_long(handle, CCURLOPT_NOSIGNAL, 1)
        ccurl_easy_setopt_long(handle, CCURLOPT_HTTP_VERSION, Int(CCURL_HTTP_VERSION_2TLS))
        ccurl_easy_setopt_long(handle, CCURLOPT_PROTOCOLS, Int(CCURLPROTO_HTTP | CCURLPROTO_HTTPS))
        // Redirects are followed here, one by one, so that the key never follows one off its origin.
        ccurl_easy_setopt_long(handle, CCURLOPT_FOLLOWLOCATION, 0)
        // Every encoding this libcurl decodes; the body's reader counts the decoded bytes.
        ccurl_easy_setopt_pointer(handle, CCURLOPT_ACCEPT_ENCODING, "")
        ccurl_easy_setopt_pointer(handle, CCURLOPT_USERAGENT, setup.userAgent)
        ccurl_easy_setopt_pointer(handle, CCURLOPT_SHARE, UnsafeRawPointer(share))
        ccurl_easy_setopt_long(handle, CCURLOPT_TCP_KEEPALIVE, 1)
        // libcurl's default 16 kB receive buffer never completes an HTTP/2 answer whose headers
        // pass it (7.88: a CDN's cookies and security headers are enough); curl the tool sets 100 kB.
        ccurl_easy_setopt_long(handle, CCURLOPT_BUFFERSIZE, 100 * 1024)
        // No timeout of libcurl's: those run on the wall clock, and a process stopped for longer
        // would fail every transfer on being continued. The engine charges the deadline instead
        // (``CurlTransferStateMachine/charge(_:)``), connecting included; libcurl's own connect limit (300 s) is a backstop.
        if let caFile = setup.caFile {
            ccurl_easy_setopt_pointer(handle, CCURLOPT_CAINFO, caFile)
            // That file alone, as the variable says: beside a CA folder libcurl parses the file again
            // for every connection; from a file alone it keeps the parsed store for the process (7.87+).
            if setup.caFolder == nil { ccurl_easy_setopt_pointer(handle, CCURLOPT_CAPATH, nil) }
        }
        if let caFolder = setup.caFolder { ccurl_easy_setopt_pointer(handle, CCURLOPT_CAPATH, caFolder) }
        // The system's certificates from its folder alone, each read when a handshake needs it,
        // instead of its bundle file parsed whole for every connection as well. The bundle is
        // dropped only once libcurl took the folder: one that cannot use a folder would trust nothing.
        if let system = setup.systemCA, ccurl_easy_setopt_pointer(handle, CCURLOPT_CAPATH, system.folder) == CCURLE_OK {
            ccurl_easy_setopt_pointer(handle, CCURLOPT_CAINFO, nil)
        }
        if transfer.isWarmUp { ccurl_easy_setopt_long(handle, CCURLOPT_NOBODY, 1) }
        ccurl_easy_setopt_header(handle) { data, size, count, context in
            guard let data, let context else { return 0 }
            let easy = Unmanaged<CurlEasy>.fromOpaque(context).takeUnretainedValue()
            return easy.transfer.header(UnsafeRawBufferPointer(start: data, count: size * count)) { easy.responseCode } ? size * count : 0
        }
        ccurl_easy_setopt_pointer(handle, CCURLOPT_HEADERDATA, context)
        ccurl_easy_setopt_write(handle) { data, size, count, context in
            guard let data, let context else { return 0 }
            return Unmanaged<CurlEasy>.fromOpaque(context).takeUnretainedValue().transfer.write(UnsafeRawBufferPointer(start: data, count: size * count))
        }
        ccurl_easy_setopt_pointer(handle, CCURLOPT_WRITEDATA, context)
        let tracked = ccurl_easy_setopt_prereq(handle, { context, _, _, _, _ in
            guard let context else { return 0 }
            // False when the caller already gave up: it was answered "not sent", and the request never is.
            let transfer = Unmanaged<CurlEasy>.fromOpaque(context).takeUnretainedValue().transfer
            return transfer.machine.withLock { $0.prerequest() } ? 0 : 1
        }, context) == CCURLE_OK
        // A libcurl before 7.80 cannot say when the request is written: every request counts.
        if !tracked { _ = transfer.machine.withLock { $0.prerequest() } }
        point(at: url)
    }

    deinit {
        ccurl_easy_cleanup(handle)
        socketError.deallocate()
    }

    /// The status of the answer being read.
    private var responseCode: Int {
        var code = 0
        ccurl_easy_getinfo_long(handle, CCURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// Points the handle at `url`: the request's, or a redirect's (then the engine adds it again).
    func point(at url: URL) {
        ccurl_easy_setopt_pointer(handle, CCURLOPT_URL, url.absoluteString)
        // A proxy would read a plain-http request whole, key included (an https CONNECT carries only
        // host and port): such a request goes direct. Set only then: it overrides the person's NO_PROXY.
        if TransportRequest.carriesSecret(url, names: transfer.secretQueryItems), url.scheme?.lowercased() == "http" { ccurl_easy_setopt_pointer(handle, CCURLOPT_NOPROXY, "*") }
        // Wait for the host's connection in the making rather than open another: once it speaks
        // HTTP/2 every request of the page shares it. Plain HTTP is HTTP/1.1 here, and waits for nothing.
        ccurl_easy_setopt_long(handle, CCURLOPT_PIPEWAIT, url.scheme?.lowercased() == "https" ? 1 : 0)
    }

    /// The reader caught up: libcurl delivers what it held back (through the write callback,
    /// before this returns), then reads on.
    func continueIfPaused() {
        if transfer.machine.withLock({ $0.readerCaughtUp() }) { ccurl_easy_pause(handle, CCURLPAUSE_CONT) }
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
        case CCURLE_FAILED_INIT: "libcurl could not make a request"
        default: nil
        }
        if let notSent { return .notSent(reason: notSent) }
        let reason = switch result {
        case CCURLE_GOT_NOTHING: "the server sent nothing"
        // libcurl answers a reply with no status line (HTTP/0.9) with "unsupported protocol".
        case CCURLE_WEIRD_SERVER_REPLY, CCURLE_UNSUPPORTED_PROTOCOL: "the server's answer was not valid HTTP"
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
        guard TransportRequest.carriesSecret(from, names: secrets) else { return true }
        guard let fromHost = from.host?.lowercased(), fromHost == to.host?.lowercased() else { return false }
        let fromScheme = from.scheme?.lowercased(), toScheme = to.scheme?.lowercased()
        // The upgrade of an origin: http on its usual port to https on its usual port, nothing else.
        if fromScheme == "http", toScheme == "https" {
            return (from.port ?? 80) == 80 && (to.port ?? 443) == 443
        }
        return fromScheme == toScheme && from.port == to.port
    }
}
