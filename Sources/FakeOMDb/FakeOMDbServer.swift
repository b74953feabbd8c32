import Foundation
import OMDbKit
import Synchronization

/// A fake OMDb on 127.0.0.1: the offline ``Catalogue`` served over real HTTP, with its posters,
/// plus a hook to inject faults (statuses, HTML bodies, delays, dropped connections).
///
/// Only ever binds the loopback address. Every test gets its own server.
public final class FakeOMDbServer: Sendable {
    /// The key the fake accepts; any other key gets OMDb's `Invalid API key!` with HTTP 401.
    public static let validKey = "fake-test-key-0123"

    private let server: HTTPServer
    private let state = State()

    private final class State: Sendable {
        let log = Mutex<[ServerRequest]>([])
        let posterBase = Mutex<URL?>(nil)
    }

    /// - Parameters:
    ///   - latency: added before every answer, as a far-away server would.
    ///   - fault: looked at first for every request; a non-nil answer replaces the catalogue's.
    public init(catalogue: Catalogue, latency: Duration = .zero,
                fault: @escaping @Sendable (ServerRequest) -> ServerResponse? = { _ in nil }) throws {
        let state = self.state
        server = try HTTPServer { request in
            state.log.withLock { $0.append(request) }
            let posterBase = state.posterBase.withLock { $0 } ?? URL(string: "http://127.0.0.1/")!
            var response = fault(request) ?? Self.answer(request, catalogue: catalogue, posterBase: posterBase)
            if response.delay == .zero { response.delay = latency }
            return response
        }
        let base = server.baseURL
        state.posterBase.withLock { $0 = base }
    }

    /// `http://127.0.0.1:PORT/`
    public var baseURL: URL { server.baseURL }

    /// Every request received so far, in arrival order.
    public var requests: [ServerRequest] { state.log.withLock { $0 } }

    /// The requests that were OMDb API calls (not posters).
    public var apiRequests: [ServerRequest] { requests.filter { !$0.path.hasPrefix("/posters/") } }

    /// The requests for posters.
    public var posterRequests: [ServerRequest] { requests.filter { $0.path.hasPrefix("/posters/") } }

    public func shutdown() { server.shutdown() }

    private static func answer(_ request: ServerRequest, catalogue: Catalogue, posterBase: URL) -> ServerResponse {
        let answer = catalogue.answer(path: request.path, query: request.queryItems, posterBase: posterBase) { $0 == validKey }
        var headers = ["Content-Type": answer.contentType ?? "application/octet-stream"]
        // What OMDb's CDN sends with every API answer, errors included: the disk cache reads it.
        if !request.path.hasPrefix("/posters/") { headers["Cache-Control"] = "public, max-age=86400" }
        return ServerResponse(status: answer.statusCode, headers: headers, body: answer.body)
    }
}
