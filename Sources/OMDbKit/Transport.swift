import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP answer: status, body, and the content type when the server sent one.
public struct HTTPResponse: Sendable {
    public let statusCode: Int
    public let body: Data
    public let contentType: String?

    public init(statusCode: Int, body: Data, contentType: String? = nil) {
        self.statusCode = statusCode
        self.body = body
        self.contentType = contentType
    }
}

/// The one seam between OMDbKit and the network: a GET that answers whatever the status.
///
/// The live one is ``URLSessionTransport``; ``CatalogueTransport`` answers from the offline
/// catalogue; tests pass closures. Implementations throw `CancellationError` when the
/// calling task is cancelled, and ``TransportError`` for failures below HTTP.
public protocol OMDbTransport: Sendable {
    /// Fetches `url`. A 404 or 500 is an answer, not an error.
    /// - Parameter timeout: whole seconds, at least 1.
    func get(_ url: URL, timeout: Int) async throws -> HTTPResponse
}

/// A failure below HTTP, as a transport reports it. Its text may contain the URL.
public enum TransportError: Error, Sendable, Equatable {
    case timedOut
    case unreachable(reason: String)
}

/// The live transport: one URLSession whose connections per host follow the concurrency limit.
public final class URLSessionTransport: OMDbTransport {
    private let session: URLSession

    /// - Parameter maxConnectionsPerHost: how many requests may run at once against one host.
    public init(maxConnectionsPerHost: Int) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(1, maxConnectionsPerHost)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpAdditionalHeaders = ["User-Agent": "movies/\(OMDbKit.version) (OMDbKit)"]
        session = URLSession(configuration: configuration)
    }

    deinit { session.invalidateAndCancel() }

    public func get(_ url: URL, timeout: Int) async throws -> HTTPResponse {
        try Task.checkCancellation()
        var request = URLRequest(url: url)
        request.timeoutInterval = TimeInterval(max(1, timeout))
        do {
            let (data, response) = try await session.data(for: request)
            try Task.checkCancellation()
            let http = response as? HTTPURLResponse
            return HTTPResponse(statusCode: http?.statusCode ?? 200, body: data,
                                contentType: http?.value(forHTTPHeaderField: "Content-Type"))
        } catch let error as URLError {
            // On Linux a cancelled task surfaces as URLError(.cancelled), not CancellationError.
            if error.code == .cancelled || Task.isCancelled { throw CancellationError() }
            if error.code == .timedOut { throw TransportError.timedOut }
            throw TransportError.unreachable(reason: Self.reason(error))
        }
    }

    private static func reason(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .cannotFindHost, .dnsLookupFailed: "host not found"
        case .notConnectedToInternet: "no network"
        case .networkConnectionLost: "connection lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate: "TLS failed"
        case .badServerResponse: "bad server response"
        case .unsupportedURL: "unsupported URL"
        default: "URLError \(error.code.rawValue)"
        }
    }
}

/// The library's version, shown by `movies --version`.
public enum OMDbKit {
    public static let version = "0.1.0"
}
