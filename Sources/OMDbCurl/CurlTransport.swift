import CCurl
import Files
import Foundation
import OMDbKit
import Synchronization

/// The live transport: libcurl's multi interface, driven directly on one thread of its own.
///
/// One connection per host, kept open across pages (HTTP/2 multiplexes a page's requests onto
/// it), one TLS session and CA store per process, and connections opened before they are needed
/// (``preconnect(_:)``). A body streams to its reader as libcurl decodes it; a reader that falls
/// behind pauses the transfer until it catches up, so nothing piles up in memory. `HTTPS_PROXY`,
/// `ALL_PROXY`, `NO_PROXY`, `CURL_CA_BUNDLE`, `SSL_CERT_FILE` and `SSL_CERT_DIR` work as in curl
/// (with no CA variable, the system's CA folder is read alone, when libcurl has one built in).
///
/// libcurl is loaded at run time (see the `CCurl` target): when it cannot be, ``init(maxConnectionsPerHost:timeout:environment:)``
/// throws ``CurlUnavailable`` with the library's name.
public final class CurlTransport: OMDbTransport {
    private let engine: CurlEngine
    private let setup: CurlTransfer.Setup
    /// `warmed`: when each origin last had a connection opened or used, for ``preconnect(_:)``;
    /// `afterNext`: origins to open behind the next request (``preconnect(_:afterNextRequest:)``).
    private let origins = Mutex((warmed: [String: ContinuousClock.Instant](), afterNext: [URL]()))
    /// libcurl closes a connection idle for 118 s; one used more recently than this is still open.
    static let connectionFreshness: Duration = .seconds(60)

    /// - Parameters:
    ///   - maxConnectionsPerHost: HTTP/1.1 connections to one host at once (HTTP/2 uses one); by
    ///     default as many as the client's default number of requests in flight.
    ///   - timeout: seconds for a warm-up (a request brings its own).
    ///   - environment: where `CURL_CA_BUNDLE`, `SSL_CERT_FILE` and `SSL_CERT_DIR` are read, and
    ///     `MOVIES_LIBCURL`, a libcurl to load instead of the system's (the first transport of a
    ///     process loads it for all).
    public init(maxConnectionsPerHost: Int = 20, timeout: Int = 30,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(CurlUnavailable) {
        let library = environment["MOVIES_LIBCURL"].flatMap { $0.isEmpty ? nil : $0 }
        do {
            engine = try CurlEngine(maxConnectionsPerHost: maxConnectionsPerHost, library: library)
        } catch {
            guard library != nil else { throw error }
            throw CurlUnavailable(reason: error.reason, advice: "Check MOVIES_LIBCURL (the libcurl to load), or unset it for the system's.")
        }
        let caVariable = ["CURL_CA_BUNDLE", "SSL_CERT_FILE"].first { !(environment[$0] ?? "").isEmpty }
        let caFile = caVariable.flatMap { environment[$0] }
        // libcurl would open a FIFO there and wait on it for ever, holding every request.
        var info = stat()
        if let caVariable, let caFile, stat(caFile, &info) == 0, let kind = AtomicFile.kindIfNotRegular(info.st_mode) {
            throw CurlUnavailable(reason: "\(caVariable) names \(caFile), which is \(kind)",
                                  advice: "Point it at a file of PEM certificates, or unset it.")
        }
        let caFolder = environment["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        setup = CurlTransfer.Setup(timeout: max(1, timeout), caFile: caFile, caFolder: caFolder,
                                   systemCA: caFile == nil && caFolder == nil ? SystemCA.found() : nil,
                                   userAgent: "movies/\(OMDbKit.version) (OMDbKit)")
    }

    deinit {
        engine.post(.stop)
    }

    /// Sends `request`, bounded by its timeout in the engine's running time (see ``CurlEngine``:
    /// the time the process was stopped, or a reader behind held the transfer paused, is not
    /// charged). One that carries a secret query item goes direct when it is plain http (a proxy
    /// would read it whole), and follows a redirect only within its origin.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try Task.checkCancellation()
        if let origin = request.url.httpOrigin?.absoluteString { origins.withLock { $0.warmed[origin] = .now } }
        let behind = origins.withLock { origins in defer { origins.afterNext = [] }; return origins.afterNext }
        // The engine starts transfers in the order they are posted: these open behind this request.
        return try await CurlTransfer(url: request.url, setup: setup, engine: engine, timeout: request.timeout,
                                      secretQueryItems: request.secretQueryItems).send { [self] in
            for origin in behind { preconnect(origin) }
        }
    }

    /// Opens a connection to `origin` behind the next request (whichever it is), so that opening it
    /// never holds that request up: a one-shot search opens OMDb's connection first, and the
    /// posters host's behind it. When no request follows, nothing opens.
    public func preconnect(_ origin: URL, afterNextRequest: Bool) {
        guard afterNextRequest else { return preconnect(origin) }
        origins.withLock { $0.afterNext.append(origin) }
    }

    /// Opens a connection to `url`'s origin with a `HEAD /` that carries nothing of the caller's
    /// (no key, no query), unless one was opened or used there lately. Never retried; its answer
    /// and its failure are ignored.
    public func preconnect(_ url: URL) {
        guard let root = url.httpOrigin else { return }
        let origin = root.absoluteString
        let stale = origins.withLock { origins -> Bool in
            let now = ContinuousClock.now
            if let last = origins.warmed[origin], now - last < Self.connectionFreshness { return false }
            origins.warmed[origin] = now
            return true
        }
        guard stale else { return }
        engine.post(.start(CurlTransfer(url: root, setup: setup, engine: engine, isWarmUp: true)))
    }

    /// Times a transfer was paused because its reader was behind (for tests).
    package var pauses: Int { engine.pauses.load(ordering: .relaxed) }
}
