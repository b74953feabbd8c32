import CCurl
import Foundation
import OMDbKit

/// The life of one ``CurlTransfer`` as a value: each event (the caller asking or giving up, the
/// engine starting it, a callback of libcurl's, a deadline charged, libcurl's end) changes the
/// state and returns what is to be done. Generic over what parks the caller and the body's feed,
/// so that tests drive it with plain values.
///
/// The caller is answered exactly once: with the headers, or an error (``TransportError/notSent(reason:)``
/// while no byte of the request was written, so that the daily count counts only what reached a server).
struct CurlTransferStateMachine<Continuation, Feed> {
    enum State {
        /// Made; nobody waits yet (a warm-up is started as it is, nobody ever waits for it).
        case idle
        /// The caller waits for the headers; the start is on its way to the engine's thread.
        case queued(Continuation)
        /// In libcurl's hands, the connection (TCP, TLS, a proxy's tunnel) in the making: nothing
        /// of the request was written. Nil: a warm-up.
        case connecting(Continuation?)
        /// A request was written (or this libcurl cannot say when: counted as written from the start);
        /// the final header block is awaited.
        case requested(Continuation?)
        /// A 3xx to follow: its body is dropped, and once libcurl is done with it the handle is
        /// pointed at `to`, same caller.
        case redirecting(Continuation?, to: URL)
        /// The caller has the headers; the body streams to its feed (nil: a warm-up, no body).
        case streaming(Feed?)
        /// The feed's reader is behind: libcurl holds the body back until it catches up, and no
        /// time is charged meanwhile.
        case paused(Feed)
        /// The caller was answered before the answer came (it gave up, or too many redirects):
        /// libcurl may still hold the transfer, which stops at its next callback with nothing more to say.
        case stopping
        /// Ended: complete, failed, timed out or abandoned. Every later event is ignored.
        case done
    }

    /// What is known of the answer when its headers are in.
    struct Head: Equatable {
        let status: Int
        let headers: [String: String]
        /// The body's length, when announced and not changed by decoding.
        let length: Int?
    }

    /// What the end of a header block comes to.
    enum HeadersEnd {
        /// Read on (a 1xx, a redirect to follow, a warm-up, trailers).
        case proceed
        /// Answer the caller with the head and `Feed` (which the machine now streams to), read on.
        case answer(Continuation, Head, Feed)
        /// Resume the caller with the error, and stop the transfer.
        case fail(Continuation, TransportError)
        /// Stop the transfer: nobody wants it.
        case stop
    }

    /// What to do with a chunk of the body.
    enum Write {
        /// Take it and drop it (a redirect's body).
        case discard
        /// Hand it to the feed, then tell ``delivered(_:count:)`` what it did.
        case deliver(Feed)
        /// Refuse it: libcurl stops the transfer.
        case stop
    }

    /// What is left of a deadline, once charged.
    enum Deadline: Equatable {
        case left(Duration)
        case overdue
        /// Waiting for its reader (a slow disk): no time is charged.
        case paused
    }

    /// How a transfer ends for those waiting on it.
    enum End {
        /// Resume the caller with the error.
        case fail(Continuation, TransportError)
        /// Finish the body: complete (nil) or cut short by the error.
        case finish(Feed, TransportError?)
        case nothing
    }

    private(set) var state = State.idle
    /// The request's URL: the redirect's once one is followed.
    private(set) var url: URL
    /// The names of the request's secret query items: a redirect is followed only where they may go.
    let secretQueryItems: Set<String>
    /// The header fields of the block being read (names lower-cased; repeated fields joined).
    private(set) var headers: [String: String] = [:]
    private(set) var redirects = 0
    /// Body bytes the feed took.
    private(set) var received = 0
    /// The engine's running time this transfer may take, while not paused for its reader.
    let limit: Duration
    private(set) var spent: Duration = .zero
    /// Redirects followed before the transfer fails with "too many redirects".
    static var maxRedirects: Int { 10 }

    init(url: URL, limit: Duration, secretQueryItems: Set<String> = []) {
        self.url = url
        self.limit = limit
        self.secretQueryItems = secretQueryItems
    }

    // MARK: The caller's events

    /// The caller asks, and waits for the headers: true when parked (hand the transfer to the
    /// engine), false when it gave up first (resume it with `CancellationError`).
    mutating func send(_ continuation: Continuation) -> Bool {
        guard case .idle = state else { return false }
        state = .queued(continuation)
        return true
    }

    /// The caller's task was cancelled: it is answered now, whatever libcurl is doing, with
    /// ``TransportError/notSent(reason:)`` while nothing was written, else `CancellationError`.
    /// Returns whom to resume; the engine is told to drop the transfer in any case.
    mutating func giveUp() -> (Continuation, any Error)? {
        let notSent = TransportError.notSent(reason: "given up before the request was sent")
        switch state {
        case .idle:
            state = .stopping
            return nil
        case .queued(let continuation):
            state = .stopping
            return (continuation, notSent)
        case .connecting(let continuation):
            state = .stopping
            return continuation.map { ($0, notSent) }
        case .requested(let continuation), .redirecting(let continuation, _):
            state = .stopping
            return continuation.map { ($0, CancellationError()) }
        case .streaming, .paused, .stopping, .done:
            // Answered already: the body's reader hears of it when the engine drops the transfer.
            return nil
        }
    }

    // MARK: The engine's events

    /// The engine's thread took the transfer: the URL to make a handle for, nil when the caller gave up.
    mutating func start() -> URL? {
        switch state {
        case .idle:
            state = .connecting(nil)
        case .queued(let continuation):
            state = .connecting(continuation)
        case .stopping:
            state = .done
            return nil
        case .connecting, .requested, .redirecting, .streaming, .paused, .done:
            return nil
        }
        return url
    }

    /// libcurl's connection is ready (TCP, TLS) and the request is about to be written (or, from a
    /// libcurl before 7.80, which cannot say when, the handle was just made): true to write it,
    /// false when the caller already gave up (libcurl aborts).
    mutating func prerequest() -> Bool {
        switch state {
        case .connecting(let continuation):
            state = .requested(continuation)
            return true
        case .requested, .redirecting:
            return true
        case .idle, .queued, .streaming, .paused, .stopping, .done:
            return false
        }
    }

    /// A status line: a new header block begins.
    mutating func statusLine() {
        guard awaitsHeaders else { return }
        headers = [:]
    }

    /// One header field of the block being read. Trailers, after the answer, are not kept.
    mutating func header(name: String, value: String) {
        guard awaitsHeaders else { return }
        let name = name.lowercased()
        headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }

    /// The end of a header block, whose status libcurl reads as `code`. The final block answers
    /// the caller (with the feed `makeFeed` makes) or starts a redirect.
    mutating func headersEnded(code: Int, makeFeed: () -> Feed) -> HeadersEnd {
        let continuation: Continuation?
        switch state {
        case .connecting(let waiting), .requested(let waiting):
            continuation = waiting
        case .streaming, .paused, .redirecting:
            // Trailers (of the answer, or of a redirect to follow).
            return .proceed
        case .idle, .queued, .stopping, .done:
            // A caller who gave up gets nothing: the transfer stops here.
            return .stop
        }
        // A 1xx (or a proxy's tunnel) is followed by the real answer's block.
        guard code >= 200 else { return .proceed }
        // Nobody waits for a warm-up (a keyless HEAD that only opens the connection): it follows no
        // redirect, and its answer goes nowhere.
        guard let continuation else {
            state = .streaming(nil)
            return .proceed
        }
        if (300..<400).contains(code), let next = redirectURL(), CurlTransfer.mayFollow(from: url, to: next, secrets: secretQueryItems) {
            guard redirects < Self.maxRedirects else {
                state = .stopping
                return .fail(continuation, .unreachable(reason: "too many redirects"))
            }
            state = .redirecting(continuation, to: next)
            return .proceed
        }
        let encoded = headers["content-encoding"].map { $0.lowercased() != "identity" } ?? false
        // A compressed body's announced length is not the length of what the reader gets.
        let length = encoded ? nil : headers["content-length"].flatMap { Int($0) }
        let feed = makeFeed()
        state = .streaming(feed)
        return .answer(continuation, Head(status: code, headers: headers, length: length), feed)
    }

    /// A chunk of the body arrived.
    func write() -> Write {
        switch state {
        case .streaming(let feed?), .paused(let feed): .deliver(feed)
        case .redirecting, .streaming(nil), .connecting, .requested: .discard
        case .idle, .queued, .stopping, .done: .stop
        }
    }

    /// The feed took a chunk of `count` bytes, or did not: full, the transfer pauses
    /// (`CURL_WRITEFUNC_PAUSE`) and the chunk is offered again once continued; stopped, it stops.
    mutating func delivered(_ intake: BodyFeed.Intake, count: Int) {
        if case .taken = intake { received += count }
        if case .full = intake, case .streaming(let feed?) = state { state = .paused(feed) }
    }

    /// The reader caught up: true when the transfer is to be continued (`CURLPAUSE_CONT`).
    mutating func readerCaughtUp() -> Bool {
        guard case .paused(let feed) = state else { return false }
        state = .streaming(feed)
        return true
    }

    /// Charges `elapsed` of the engine's running time, unless the transfer is paused for its
    /// reader: the time a reader takes is not the server's. Past the limit, the engine ends it
    /// with libcurl's timeout. The time the process was stopped never reaches here (``CurlEngine``).
    mutating func charge(_ elapsed: Duration) -> Deadline {
        if case .paused = state { return .paused }
        spent += elapsed
        return spent >= limit ? .overdue : .left(limit - spent)
    }

    /// libcurl is done with a request: when it was a redirect to follow and it went well, the
    /// URL to point the handle at (the headers start over, the caller goes on waiting); else nil.
    mutating func follow(after result: Int32) -> URL? {
        guard result == CCURLE_OK, case .redirecting(let continuation, let next) = state else { return nil }
        url = next
        redirects += 1
        headers = [:]
        // A request was written already: a caller giving up from now on is not told "not sent".
        state = .requested(continuation)
        return next
    }

    /// libcurl finished the transfer with `result` (a timeout included).
    mutating func complete(_ result: Int32) -> End {
        defer { state = .done }
        switch state {
        case .connecting(let continuation?):
            return .fail(continuation, result == CCURLE_OK ? Self.noAnswer : CurlTransfer.error(for: result, requestWritten: false))
        case .requested(let continuation?), .redirecting(let continuation?, _):
            return .fail(continuation, result == CCURLE_OK ? Self.noAnswer : CurlTransfer.error(for: result, requestWritten: true))
        case .streaming(let feed?), .paused(let feed):
            return .finish(feed, result == CCURLE_OK ? nil : bodyError(result))
        case .connecting(nil), .requested(nil), .redirecting(nil, _), .streaming(nil), .idle, .queued, .stopping, .done:
            return .nothing
        }
    }

    /// Given up (by its reader or caller), or the engine stopped: whoever still waits gets `CancellationError`.
    mutating func abandon() -> (Continuation?, Feed?) {
        defer { state = .done }
        switch state {
        case .queued(let continuation): return (continuation, nil)
        case .connecting(let continuation), .requested(let continuation), .redirecting(let continuation, _): return (continuation, nil)
        case .streaming(let feed?), .paused(let feed): return (nil, feed)
        case .streaming(nil), .idle, .stopping, .done: return (nil, nil)
        }
    }

    // MARK: Helpers

    private static var noAnswer: TransportError { .unreachable(reason: "the server sent no answer") }

    /// Header blocks are read until the caller is answered.
    private var awaitsHeaders: Bool {
        switch state {
        case .connecting, .requested, .redirecting: true
        case .idle, .queued, .streaming, .paused, .stopping, .done: false
        }
    }

    /// The `Location` of a 3xx, resolved against the request's URL (libcurl's own resolution,
    /// CURLINFO_REDIRECT_URL, is only there once the transfer is done).
    private func redirectURL() -> URL? {
        guard let location = headers["location"], !location.isEmpty else { return nil }
        return URL(string: location, relativeTo: url)?.absoluteURL
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
            return CurlTransfer.error(for: result)
        }
    }
}
