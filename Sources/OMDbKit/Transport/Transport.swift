import Foundation

/// A GET as the client hands it to a transport: the URL, the deadline, and which of the URL's
/// query items carry a secret. Where a secret goes is the client's rule, handed over as data here:
/// a transport knows nothing of OMDb's `apikey`.
public struct TransportRequest: Sendable, Hashable {
    /// What to GET, the secret among its query items.
    public var url: URL
    /// The deadline in whole seconds (at least 1) of the whole exchange: connecting, the headers
    /// and the body. The transport bounds the exchange by it.
    public var timeout: Int
    /// The names of the query items whose values are secret. A transport sends a request with
    /// one of them only where no one else reads it (no proxy on plain http, no redirect to
    /// another origin), and never shows their values.
    public var secretQueryItems: Set<String>

    /// A GET for `url`; by default none of its query items is secret.
    public init(url: URL, timeout: Int, secretQueryItems: Set<String> = []) {
        self.url = url
        self.timeout = timeout
        self.secretQueryItems = secretQueryItems
    }

    /// True when `url` has a query item named in `names`: also for the URL a redirect leads to.
    package static func carriesSecret(_ url: URL, names: Set<String>) -> Bool {
        guard !names.isEmpty else { return false }
        return URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.contains { names.contains($0.name) } ?? false
    }
}

/// An HTTP answer whose body may still be arriving: what a transport returns once the headers are in.
public struct TransportResponse: Sendable {
    /// The HTTP status.
    public let statusCode: Int
    /// Header fields, names lower-cased.
    public let headers: [String: String]
    package let body: HTTPBody

    /// The `Content-Type`, when the server sent one.
    public var contentType: String? { headers["content-type"] }

    /// An answer whose body streams as `chunks`, in order; `length` is what the server announced
    /// (`Content-Length`), if anything: a body that ends short of it is cut short.
    public init(statusCode: Int, headers: [String: String] = [:], chunks: AsyncThrowingStream<Data, any Error>, length: Int? = nil) {
        self.init(statusCode: statusCode, headers: headers, body: HTTPBody(chunks: chunks, length: length))
    }

    /// An answer whose whole body is `body`.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data) {
        self.init(statusCode: statusCode, headers: headers, body: HTTPBody(body))
    }

    /// An answer whose `body` streams; header names are lower-cased.
    package init(statusCode: Int, headers: [String: String] = [:], body: HTTPBody) {
        self.statusCode = statusCode
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }
}

/// The one seam between OMDbKit and the network: one method, a GET answered whatever its status.
///
/// The live one is `CurlTransport` (`OMDbCurl`); `CatalogueTransport` answers from the offline
/// catalogue; tests pass closures. A transport returns once the headers are in and streams the body,
/// bounds each exchange by ``TransportRequest/timeout`` and keeps ``TransportRequest/secretQueryItems``
/// where only their server reads them; the client owns every other rule.
///
/// ```swift
/// struct Recorded: OMDbTransport {
///     func send(_ request: TransportRequest) async throws -> TransportResponse {
///         TransportResponse(statusCode: 200, headers: ["Content-Type": "application/json"],
///                           body: Data(#"{"Response":"False","Error":"Movie not found!"}"#.utf8))
///     }
/// }
/// ```
public protocol OMDbTransport: Sendable {
    /// Sends `request` and returns once the headers are in. A 404 or 500 is an answer, not an error.
    /// - Throws: `CancellationError` when the calling task is cancelled, ``TransportError`` for
    ///   failures below HTTP (also from the body as it streams).
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// A whole HTTP answer in memory: what the decoder, the cache and the offline catalogue work with.
package struct HTTPResponse: Sendable {
    package let statusCode: Int
    package let body: Data
    /// Header fields, names lower-cased.
    package let headers: [String: String]

    package var contentType: String? { headers["content-type"] }

    /// An answer; header names are lower-cased, and `contentType`, when given, wins over a header of that name.
    package init(statusCode: Int, body: Data, contentType: String? = nil, headers: [String: String] = [:]) {
        self.statusCode = statusCode
        self.body = body
        var fields = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        if let contentType { fields["content-type"] = contentType }
        self.headers = fields
    }
}

extension TransportResponse {
    /// A whole answer handed out as a stream (the offline catalogue, test doubles).
    package init(_ response: HTTPResponse) {
        self.init(statusCode: response.statusCode, headers: response.headers, body: HTTPBody(response.body))
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
    package var isTransient: Bool {
        switch self {
        case .timedOut, .connectionLost, .truncated: true
        case .notSent, .unreachable, .tooLarge: false
        }
    }

    /// True when the request never left (``notSent(reason:)``).
    package var isNotSent: Bool {
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

extension URL {
    /// `scheme://host[:port]/` of an http(s) URL, lower-cased, with nothing of its user, path or
    /// query: what a connection is opened to. Nil for another scheme or a URL without a host.
    package var httpOrigin: URL? {
        guard let scheme = scheme?.lowercased(), ["http", "https"].contains(scheme), let host = host?.lowercased(), !host.isEmpty else { return nil }
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return URL(string: "\(scheme)://\(bracketed)" + (port.map { ":\($0)" } ?? "") + "/")
    }
}
