import Foundation

/// A whole HTTP answer in memory: status, body, and the headers the client reads.
///
/// What the decoder and the offline catalogue work with. A transport hands out a
/// ``StreamedResponse`` instead; the client collects it into this within its size limit.
public struct HTTPResponse: Sendable {
    /// The HTTP status.
    public let statusCode: Int
    /// The whole body.
    public let body: Data
    /// Header fields, names lower-cased.
    public let headers: [String: String]

    /// The `Content-Type`, when the server sent one.
    public var contentType: String? { headers["content-type"] }

    /// An answer; header names are lower-cased, and `contentType`, when given, wins over a header of that name.
    public init(statusCode: Int, body: Data, contentType: String? = nil, headers: [String: String] = [:]) {
        self.statusCode = statusCode
        self.body = body
        var fields = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        if let contentType { fields["content-type"] = contentType }
        self.headers = fields
    }
}

/// An HTTP answer whose body is still arriving: what a transport returns once the headers are in.
public struct StreamedResponse: Sendable {
    /// The HTTP status.
    public let statusCode: Int
    /// Header fields, names lower-cased.
    public let headers: [String: String]
    /// The body, read as it arrives.
    public let body: HTTPBody

    /// The `Content-Type`, when the server sent one.
    public var contentType: String? { headers["content-type"] }

    /// An answer whose `body` streams; header names are lower-cased.
    public init(statusCode: Int, headers: [String: String] = [:], body: HTTPBody) {
        self.statusCode = statusCode
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// A whole answer handed out as a stream (the offline catalogue, test doubles).
    public init(_ response: HTTPResponse, chunkSize: Int = 64 * 1024) {
        self.init(statusCode: response.statusCode, headers: response.headers, body: HTTPBody(response.body, chunkSize: chunkSize))
    }
}

/// A GET as the client hands it to a transport: the URL, the deadline, and which of the URL's
/// query items carry a secret. Where a secret goes is the client's rule, handed over as data here:
/// a transport knows nothing of OMDb's `apikey`.
public struct TransportRequest: Sendable, Hashable {
    /// What to GET, the secret among its query items.
    public var url: URL
    /// The deadline in whole seconds (at least 1) of the whole exchange.
    public var timeout: Int
    /// The names of the query items whose values are secret. A transport sends a request with
    /// one of them only where no one else reads it (no proxy on plain http, no redirect to
    /// another origin), and never shows their values.
    public var secretQueryItems: Set<String>
    /// Origins to open connections to (as ``OMDbTransport/preconnect(_:)`` does) once this request
    /// is on its way: after it, so that opening them never holds it up. A one-shot search opens
    /// the posters host this way, behind OMDb's.
    public var preconnectAfter: [URL]

    /// A GET for `url`; by default none of its query items is secret and nothing opens after it.
    public init(url: URL, timeout: Int, secretQueryItems: Set<String> = [], preconnectAfter: [URL] = []) {
        self.url = url
        self.timeout = timeout
        self.secretQueryItems = secretQueryItems
        self.preconnectAfter = preconnectAfter
    }

    /// True when `url` has a query item named in `secretQueryItems`.
    public var carriesSecret: Bool { Self.carriesSecret(url, names: secretQueryItems) }

    /// True when `url` has a query item named in `names`: also for the URL a redirect leads to.
    public static func carriesSecret(_ url: URL, names: Set<String>) -> Bool {
        guard !names.isEmpty else { return false }
        return URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.contains { names.contains($0.name) } ?? false
    }
}

/// The one seam between OMDbKit and the network: a GET that answers whatever the status.
///
/// The live one is `CurlTransport` (the `OMDbCurl` target); `CatalogueTransport` answers from
/// the offline catalogue; tests pass closures. A transport returns as soon as the headers are in
/// and streams the body; the client owns every rule around it (the key, the deadline, the size
/// limits, retries, how many requests run at once), so a transport need not enforce any of them.
/// Implementations throw `CancellationError` when the calling task is cancelled, and
/// ``TransportError`` for failures below HTTP (also from the body's stream).
///
/// The client sends through ``send(_:)``, whose request names the query items that
/// carry a secret; a transport that puts requests where others may read them (a proxy, a
/// redirect) implements it. The default forwards to ``send(_:timeout:)``, enough for a transport
/// that answers in memory.
public protocol OMDbTransport: Sendable {
    /// Sends a GET for `url` and returns once the headers are in. A 404 or 500 is an answer, not an error.
    /// - Parameters:
    ///   - url: what to GET.
    ///   - timeout: the deadline in whole seconds (at least 1) of the whole exchange; the
    ///     client enforces it itself unless the transport does (``boundsExchanges``).
    func send(_ url: URL, timeout: Int) async throws -> StreamedResponse

    /// Sends `request` as ``send(_:timeout:)`` does, keeping its secret query items where only
    /// the server they are for reads them, then opens its ``TransportRequest/preconnectAfter``
    /// origins behind it. The default is ``send(_:timeout:)``.
    func send(_ request: TransportRequest) async throws -> StreamedResponse

    /// Opens a connection to `url`'s host before a request needs it, sending nothing of `url` but
    /// its origin. A hint: never retried, never reported; the default does nothing.
    func preconnect(_ url: URL)

    /// True when the transport bounds each exchange by `timeout` itself, and better than a clock
    /// on the wall can: by the time it spent on it, without the time the process was stopped or
    /// a reader behind held the transfer paused. The client then sets no deadline of its own.
    /// The default is false.
    var boundsExchanges: Bool { get }
}

extension OMDbTransport {
    /// Sends `request.url` through ``send(_:timeout:)``: a transport that answers in memory needs no more.
    /// Its ``TransportRequest/preconnectAfter`` origins go to ``preconnect(_:)`` as it sends (this
    /// default cannot put them behind the request).
    public func send(_ request: TransportRequest) async throws -> StreamedResponse {
        for origin in request.preconnectAfter { preconnect(origin) }
        return try await send(request.url, timeout: request.timeout)
    }

    /// Does nothing.
    public func preconnect(_ url: URL) {}

    /// False: the client sets its own deadline.
    public var boundsExchanges: Bool { false }

    /// The whole answer to a GET for `url`, with no size limit: for tests and in-memory answers.
    public func get(_ url: URL, timeout: Int) async throws -> HTTPResponse {
        let response = try await send(url, timeout: timeout)
        return HTTPResponse(statusCode: response.statusCode, body: try await response.body.collect(upTo: .max), headers: response.headers)
    }
}

/// A transport whose answers are whole in memory (the offline catalogue, test doubles): it
/// implements ``answer(_:timeout:)``, and its ``OMDbTransport/send(_:timeout:)`` streams that answer.
public protocol InMemoryTransport: OMDbTransport {
    /// The whole answer to a GET for `url`.
    func answer(_ url: URL, timeout: Int) async throws -> HTTPResponse
}

extension InMemoryTransport {
    /// ``answer(_:timeout:)``, handed out as a stream.
    public func send(_ url: URL, timeout: Int) async throws -> StreamedResponse {
        StreamedResponse(try await answer(url, timeout: timeout))
    }
}

/// A failure below HTTP, as a transport reports it. Never carries a URL: the client names the host.
public enum TransportError: Error, Sendable, Equatable {
    /// No complete answer within the deadline.
    case timedOut
    /// The connection dropped or was reset before the answer was complete: worth another try.
    case connectionLost
    /// The body ended before the length the server announced.
    case truncated(received: Int, expected: Int)
    /// The request never left: the host could not be reached, or would not be trusted, before a
    /// byte of it was sent; `reason` says why in words ("connection refused"). Not a request the
    /// server saw, so not one its quota counts.
    case notSent(reason: String)
    /// The exchange failed below HTTP after the request went out, or may have; `reason` says how
    /// ("too many redirects", "the server's answer was not valid HTTP").
    case unreachable(reason: String)
    /// The body passed the limit: `bytes` is what was announced or received when reading stopped.
    case tooLarge(bytes: Int)

    /// Worth trying again: the same request may well succeed in a moment.
    public var isTransient: Bool {
        switch self {
        case .timedOut, .connectionLost, .truncated: true
        case .notSent, .unreachable, .tooLarge: false
        }
    }

    /// True when the request never left (``notSent(reason:)``).
    public var isNotSent: Bool {
        if case .notSent = self { true } else { false }
    }

    /// What happened, in words, for a message that names the host.
    public var reason: String {
        switch self {
        case .timedOut: "timed out"
        case .connectionLost: "the connection was lost or reset"
        case let .truncated(received, expected): "the answer was cut short: \(received) of \(expected) bytes"
        case let .notSent(reason), let .unreachable(reason): reason
        case let .tooLarge(bytes): "the answer is too large (\(bytes) bytes or more)"
        }
    }
}
