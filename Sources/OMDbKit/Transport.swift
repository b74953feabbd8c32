import Foundation
import Synchronization
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

    /// Fetches `url` but gives up once the body is known to exceed `limit` bytes, throwing
    /// ``TransportError/tooLarge(bytes:)``, so a huge poster is never held in memory.
    /// The default reads the whole body; the caller checks its size anyway.
    func get(_ url: URL, timeout: Int, limit: Int) async throws -> HTTPResponse
}

extension OMDbTransport {
    public func get(_ url: URL, timeout: Int, limit: Int) async throws -> HTTPResponse {
        try await get(url, timeout: timeout)
    }
}

/// A failure below HTTP, as a transport reports it. Its text may contain the URL.
public enum TransportError: Error, Sendable, Equatable {
    case timedOut
    case unreachable(reason: String)
    /// The body passed the limit: `bytes` is what was announced or received when reading stopped.
    case tooLarge(bytes: Int)
}

/// The live transport: URLSession, with as many connections per host as the concurrency limit.
public final class URLSessionTransport: OMDbTransport {
    private let session: URLSession
    /// A second session whose delegate sees the body as it arrives, for downloads with a size limit.
    private let limitedSession: URLSession
    private let downloads = LimitedDownloads()

    /// - Parameter maxConnectionsPerHost: how many requests may run at once against one host.
    public init(maxConnectionsPerHost: Int) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(1, maxConnectionsPerHost)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpAdditionalHeaders = ["User-Agent": "movies/\(OMDbKit.version) (OMDbKit)"]
        session = URLSession(configuration: configuration)
        limitedSession = URLSession(configuration: configuration, delegate: downloads, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
        limitedSession.invalidateAndCancel()
    }

    public func get(_ url: URL, timeout: Int) async throws -> HTTPResponse {
        try Task.checkCancellation()
        do {
            let (data, response) = try await session.data(for: Self.request(url, timeout: timeout))
            try Task.checkCancellation()
            return HTTPResponse(data, response)
        } catch let error as URLError {
            throw Self.transportError(error)
        }
    }

    public func get(_ url: URL, timeout: Int, limit: Int) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let task = limitedSession.dataTask(with: Self.request(url, timeout: timeout))
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    downloads.start(task, limit: limit, continuation: continuation)
                }
            } onCancel: {
                task.cancel()
            }
        } catch let error as URLError {
            throw Self.transportError(error)
        }
    }

    private static func request(_ url: URL, timeout: Int) -> URLRequest {
        var request = URLRequest(url: url)
        request.timeoutInterval = TimeInterval(max(1, timeout))
        return request
    }

    /// Never the URLError's own text: it holds the whole URL, API key included.
    private static func transportError(_ error: URLError) -> any Error {
        // On Linux a cancelled task surfaces as URLError(.cancelled), not CancellationError.
        if error.code == .cancelled || Task.isCancelled { return CancellationError() }
        if error.code == .timedOut { return TransportError.timedOut }
        let reason = switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .cannotFindHost, .dnsLookupFailed: "host not found"
        case .notConnectedToInternet: "no network"
        case .networkConnectionLost: "connection lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate: "TLS failed"
        case .badServerResponse: "bad server response"
        case .unsupportedURL: "unsupported URL"
        default: "URLError \(error.code.rawValue)"
        }
        return TransportError.unreachable(reason: reason)
    }
}

extension HTTPResponse {
    init(_ data: Data, _ response: URLResponse?) {
        let http = response as? HTTPURLResponse
        self.init(statusCode: http?.statusCode ?? 200, body: data, contentType: http?.value(forHTTPHeaderField: "Content-Type"))
    }
}

/// Collects bodies as they arrive and stops a download the moment it passes its limit.
private final class LimitedDownloads: NSObject, URLSessionDataDelegate, Sendable {
    private struct Download {
        let limit: Int
        let continuation: CheckedContinuation<HTTPResponse, any Error>
        var response: URLResponse?
        var body = Data()
    }

    private let downloads = Mutex<[Int: Download]>([:])

    func start(_ task: URLSessionDataTask, limit: Int, continuation: CheckedContinuation<HTTPResponse, any Error>) {
        downloads.withLock { $0[task.taskIdentifier] = Download(limit: limit, continuation: continuation) }
        // A cancel that came before registration found nothing to complete, and a task cancelled
        // before it started may never report back: answer now instead of waiting forever.
        if Task.isCancelled {
            if let download = downloads.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) {
                download.continuation.resume(throwing: CancellationError())
            }
            task.cancel()
            return
        }
        task.resume()
    }

    /// Ends a download early: the continuation is resumed once, here, and the task cancelled.
    private func refuse(_ task: URLSessionTask, bytes: Int) {
        guard let download = downloads.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        download.continuation.resume(throwing: TransportError.tooLarge(bytes: bytes))
        task.cancel()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let announced = response.expectedContentLength
        let limit = downloads.withLock { state -> Int? in
            state[dataTask.taskIdentifier]?.response = response
            return state[dataTask.taskIdentifier]?.limit
        }
        if let limit, announced > Int64(limit) {
            refuse(dataTask, bytes: Int(announced))
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = downloads.withLock { state -> Int? in
            // Appended in place: copying the entry out would copy the body on every chunk.
            state[dataTask.taskIdentifier]?.body.append(data)
            guard let download = state[dataTask.taskIdentifier] else { return nil }
            return download.body.count > download.limit ? download.body.count : nil
        }
        if let over { refuse(dataTask, bytes: over) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let download = downloads.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            download.continuation.resume(throwing: error)
        } else {
            download.continuation.resume(returning: HTTPResponse(download.body, download.response ?? task.response))
        }
    }
}

/// The library's version, shown by `movies --version`.
public enum OMDbKit {
    public static let version = "0.2.0"
}
