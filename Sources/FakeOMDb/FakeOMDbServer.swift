import Foundation
import OMDbCurl
import OMDbKit
import Synchronization
import OMDbCatalogue
import TestSupport

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
        let log = Watched<[ServerRequest]>([])
        let posterBase = Mutex<URL?>(nil)
    }

    /// - Parameters:
    ///   - latency: added before every answer, as a far-away server would.
    ///   - posterBytes: when set, every poster the catalogue names is served as a generated JPEG of
    ///     exactly this many bytes (one shared buffer), for measuring big downloads.
    ///   - holding: answers held back until the test opens a gate (``HeldAnswers``).
    ///   - fault: looked at first for every request; a non-nil answer replaces the catalogue's.
    public init(catalogue: Catalogue, latency: Duration = .zero, posterBytes: Int? = nil, holding held: HeldAnswers? = nil,
                fault: @escaping @Sendable (ServerRequest) -> ServerResponse? = { _ in nil }) throws {
        let state = self.state
        let synthetic = posterBytes.map(Self.syntheticPoster)
        server = try HTTPServer { request in
            state.log.update { $0.append(request) }
            let posterBase = state.posterBase.withLock { $0 } ?? URL(string: "http://127.0.0.1/")!
            var response = fault(request)
                ?? synthetic.flatMap { Self.poster($0, for: request) }
                ?? Self.answer(request, catalogue: catalogue, posterBase: posterBase)
            if response.delay == .zero { response.delay = latency }
            // A stall the fault set is the fault's own.
            if let held, response.stall == nil, held.picks(request) {
                response.stall = Stall(after: 0, pause: .seconds(60), gate: held.gate)
            }
            return response
        }
        let base = server.baseURL
        state.posterBase.withLock { $0 = base }
    }

    /// `http://127.0.0.1:PORT/`
    public var baseURL: URL { server.baseURL }

    /// Every request received so far, in arrival order.
    public var requests: [ServerRequest] { state.log.value }

    /// Suspends until the requests received so far satisfy `condition`: each request wakes it.
    /// - Throws: ``LatchTimeout`` naming `what` once `timeout` passes without it.
    public func waitForRequests(_ what: String, timeout: Duration = .seconds(60),
                                until condition: @escaping @Sendable ([ServerRequest]) -> Bool) async throws {
        try await state.log.wait(what, timeout: timeout, until: condition)
    }

    /// The requests that were OMDb API calls (not posters, not warm-ups).
    public var apiRequests: [ServerRequest] { requests.filter { !$0.path.hasPrefix("/posters/") && $0.method != "HEAD" } }

    /// The requests for posters.
    public var posterRequests: [ServerRequest] { requests.filter { $0.path.hasPrefix("/posters/") && $0.method != "HEAD" } }

    /// The `HEAD` requests: a client opening its connection before it needs it.
    public var warmUps: [ServerRequest] { requests.filter { $0.method == "HEAD" } }

    /// TCP connections accepted so far.
    public var connectionCount: Int { server.connectionCount }

    /// Requests being answered right now (read, their answer not yet ready to write).
    public var requestsInFlight: Int { server.requestsInFlight }

    /// Answers written to their end so far (``HTTPServer/answersWritten``).
    public var answersWritten: Int { server.answersWritten }

    /// The most requests in flight at once so far: how far a client's fan-out really overlapped.
    public var peakRequestsInFlight: Int { server.peakRequestsInFlight }

    /// Starts counting the peak again, from the requests in flight now.
    public func resetPeak() { server.resetPeak() }

    public func shutdown() { server.shutdown() }

    /// A JPEG of `size` bytes: a real JPEG/JFIF header (so the bytes sniff as an image), filler, end marker.
    public static func syntheticPoster(size: Int) -> Data {
        let head: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
        let tail: [UInt8] = [0xFF, 0xD9]
        var data = Data(head)
        data.append(Data(repeating: 0x5A, count: max(0, size - head.count - tail.count)))
        data.append(contentsOf: tail)
        return data
    }

    private static func poster(_ bytes: Data, for request: ServerRequest) -> ServerResponse? {
        guard request.path.hasPrefix("/posters/") else { return nil }
        return ServerResponse(status: 200, headers: ["Content-Type": "image/jpeg"], body: bytes)
    }

    private static func answer(_ request: ServerRequest, catalogue: Catalogue, posterBase: URL) -> ServerResponse {
        let answer = catalogue.answer(path: request.path, query: request.queryItems, posterBase: posterBase) { $0 == validKey }
        var headers = ["Content-Type": answer.contentType ?? "application/octet-stream"]
        // What OMDb's CDN sends with every API answer, errors included: the disk cache reads it.
        if !request.path.hasPrefix("/posters/") { headers["Cache-Control"] = "public, max-age=86400" }
        return ServerResponse(status: answer.statusCode, headers: headers, body: answer.body)
    }
}

extension OMDbClient {
    /// A client over the live libcurl transport, as `movies` makes it: for tests and benchmarks
    /// against a fake server. Stops the process if libcurl cannot be loaded.
    public static func live(_ configuration: Configuration) -> OMDbClient {
        OMDbClient(configuration: configuration, transport: liveTransport(for: configuration))
    }

    /// The transport ``live(_:)`` gives its client.
    public static func liveTransport(for configuration: Configuration) -> CurlTransport {
        do {
            return try CurlTransport(maxConnectionsPerHost: configuration.maxConcurrentRequests, timeout: configuration.timeout)
        } catch {
            fatalError("libcurl: \(error)")
        }
    }
}

/// Answers a test holds back until it opens a gate: each sends its status and headers, then waits
/// for the gate (a minute at most) before its body. The test sees a page loading for as long as it
/// needs, however slowly it runs, and opens the gate once it has: ordered by events, not by a
/// latency that a loaded machine outruns.
public struct HeldAnswers: Sendable {
    public let gate: ServerGate
    let picks: @Sendable (ServerRequest) -> Bool

    /// Holds the answers to the requests `picks` chooses.
    public init(until gate: ServerGate, picking picks: @escaping @Sendable (ServerRequest) -> Bool) {
        self.gate = gate
        self.picks = picks
    }

    /// Holds every by-ID answer (`i=`: plots, details): the page stays loading.
    public static func records(until gate: ServerGate) -> HeldAnswers {
        HeldAnswers(until: gate) { request in request.queryItems.contains { $0.name == "i" } }
    }
}
