// A small, dependency-free HTTP/1.1 server for tests: POSIX sockets, one thread per connection.
// Binds 127.0.0.1 only. Not hardened for anything but local tests.
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public struct ServerRequest: Sendable {
    public let method: String
    public let path: String                 // percent-decoded path, without query
    public let queryItems: [URLQueryItem]   // decoded (URLComponents)
    public let headers: [String: String]    // lower-cased names
    public let target: String               // raw request target as received
    public let body: Data
    public let connection: Int              // the connection it came on, by the order they were accepted (1 first)
}

public struct ServerResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    public var delay: Duration              // the connection's thread sleeps this long before answering
    public var closeWithoutAnswer: Bool     // close the socket without writing anything
    public var reset: Bool                  // abort the connection (RST) instead of answering
    public var trickle: Duration?           // send the body one byte at a time, pausing this long before each
    public var announcedLength: Int?        // Content-Length to announce instead of the body's (then close)
    public var stall: Stall?                // send part of the body, pause, then the rest
    public var flood: Bool                  // send the body over and over, chunked, with no pause and no end

    public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(),
                delay: Duration = .zero, closeWithoutAnswer: Bool = false, reset: Bool = false,
                trickle: Duration? = nil, announcedLength: Int? = nil, stall: Stall? = nil, flood: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.closeWithoutAnswer = closeWithoutAnswer
        self.reset = reset
        self.trickle = trickle
        self.announcedLength = announcedLength
        self.stall = stall
        self.flood = flood
    }

    public static func json(_ text: String, status: Int = 200) -> ServerResponse {
        ServerResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }
}

/// Part of a body, a pause, then the rest: a download caught half-way.
public struct Stall: Sendable {
    /// Body bytes sent before the pause.
    public var after: Int
    /// The longest pause.
    public var pause: Duration
    /// Ends the pause early once opened.
    public var gate: ServerGate?

    public init(after: Int, pause: Duration, gate: ServerGate? = nil) {
        self.after = after
        self.pause = pause
        self.gate = gate
    }
}

/// A switch a test opens to let stalled answers go on: ordering by events, not by sleeps.
public final class ServerGate: Sendable {
    private let opened = Mutex(false)

    public init() {}

    public func open() { opened.withLock { $0 = true } }

    public var isOpen: Bool { opened.withLock { $0 } }
}

public enum HTTPServerError: Error, Sendable {
    case socket(String, Int32)
}

public final class HTTPServer: Sendable {
    public let port: Int
    private let core: Core

    /// Binds 127.0.0.1 on a free port chosen by the kernel (port 0). Never any other address.
    public init(handler: @escaping @Sendable (ServerRequest) -> ServerResponse) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw HTTPServerError.socket("socket", errno) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian   // 127.0.0.1
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, len) == 0 && listen(fd, 128) == 0 && getsockname(fd, sa, &len) == 0
            }
        }
        guard ok else {
            let err = errno
            _ = close(fd)
            throw HTTPServerError.socket("bind/listen", err)
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        core = Core(listenFD: fd, handler: handler)
        let core = self.core   // the threads hold the core, never self, so deinit can run
        let thread = Thread { core.acceptLoop() }
        thread.name = "HTTPServer.accept:\(port)"
        thread.start()
    }

    deinit { shutdown() }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Requests handed to the handler so far (including closeWithoutAnswer ones); counted before
    /// the response is written, so a client that got its answer already sees it counted.
    public var requestCount: Int { core.state.withLock { $0.requestCount } }

    /// Answers written to their end (or as far as the connection let them) so far: a held answer
    /// counts once its body is out, not when its handler returns.
    public var answersWritten: Int { core.state.withLock { $0.answersWritten } }

    /// Connections accepted so far.
    public var connectionCount: Int { core.state.withLock { $0.connectionCount } }

    /// Requests being answered right now: from the moment one is read until its answer is ready
    /// to write (the delay included), so a client's fan-out shows here as it happens.
    public var requestsInFlight: Int { core.state.withLock { $0.inFlight } }

    /// The most requests ever in flight at once since the server started (or since ``resetPeak()``).
    public var peakRequestsInFlight: Int { core.state.withLock { $0.peakInFlight } }

    /// Starts counting the peak again from the requests in flight now.
    public func resetPeak() { core.state.withLock { $0.peakInFlight = $0.inFlight } }

    /// Stops accepting, shuts down open connections (their threads then close them and exit). Idempotent.
    public func shutdown() { core.shutdown() }
}

private struct State: Sendable {
    var stopped = false
    var clients: Set<Int32> = []
    var requestCount = 0
    var answersWritten = 0
    var connectionCount = 0
    var inFlight = 0
    var peakInFlight = 0
}

private final class Core: Sendable {
    let listenFD: Int32
    let handler: @Sendable (ServerRequest) -> ServerResponse
    let state = Mutex(State())

    init(listenFD: Int32, handler: @escaping @Sendable (ServerRequest) -> ServerResponse) {
        self.listenFD = listenFD
        self.handler = handler
    }

    func shutdown() {
        state.withLock { s in
            guard !s.stopped else { return }
            s.stopped = true
            // shutdown(2) makes the kernel stop listening (new connects are refused) and wakes the
            // blocked accept(). The accept thread itself closes listenFD, so the fd number cannot be
            // reused by someone else while that thread may still call accept() on it.
            sysShutdown(listenFD)
            #if canImport(Darwin)
            _ = close(listenFD)   // Darwin's shutdown(2) does not wake accept(); close does.
            #endif
            // Likewise client fds are only shut down here and closed by their own thread.
            for fd in s.clients { sysShutdown(fd) }
        }
    }

    func acceptLoop() {
        while true {
            let fd = accept(listenFD, nil, nil)
            let err = errno
            if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }   // accept4 is not visible from Swift's Glibc
            let (stopped, connection) = state.withLock { s in
                if fd >= 0 && !s.stopped {
                    s.clients.insert(fd)
                    s.connectionCount += 1
                }
                return (s.stopped, s.connectionCount)
            }
            if stopped {
                if fd >= 0 { _ = close(fd) }
                #if !canImport(Darwin)
                _ = close(listenFD)
                #endif
                return
            }
            guard fd >= 0 else {
                if err == EINTR || err == ECONNABORTED { continue }
                if err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM { usleep(10_000); continue }
                return   // unexpected error: stop accepting
            }
            var one: Int32 = 1
            // Head and body are sent apart: without this, Nagle would hold the body back for the head's ACK.
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let thread = Thread { [self] in
                serve(fd, connection: connection)
                state.withLock { s in
                    s.clients.remove(fd)
                    _ = close(fd)   // under the lock, so shutdown() never touches a reused fd number
                }
            }
            thread.name = "HTTPServer.conn:\(fd)"
            thread.start()
        }
    }

    /// Serves requests on one connection until EOF, error, `Connection: close` or shutdown.
    private func serve(_ fd: Int32, connection: Int) {
        var buffer: [UInt8] = []
        let terminator: [UInt8] = [13, 10, 13, 10]
        let headerCap = 64 * 1024
        while !state.withLock({ $0.stopped }) {
            // 1. Read up to the end of the header block.
            var headerEnd: Int?
            var searchFrom = 0
            while true {
                if let r = buffer[searchFrom...].firstRange(of: terminator) { headerEnd = r.lowerBound; break }
                searchFrom = max(0, buffer.count - 3)
                // Not a request line at all (a TLS handshake sent to this plain port): answered at
                // once, as real servers do, instead of waiting for a header that never ends.
                if let first = buffer.first, !(65...90).contains(first) { break }
                if buffer.count > headerCap { break }
                guard receive(fd, into: &buffer) else { return }
            }
            guard let end = headerEnd, end <= headerCap,
                  var request = parseHead(Array(buffer[..<end])) else {
                write(fd, status: 400, headers: [:], body: Data("{\"error\":\"bad request\"}".utf8), close: true, head: false)
                return
            }
            buffer.removeFirst(end + 4)
            // 2. Body (Content-Length only; chunked request bodies are not supported).
            if request.headers["transfer-encoding"] != nil {
                write(fd, status: 501, headers: [:], body: Data(), close: true, head: false)
                return
            }
            let length = request.headers["content-length"].map { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
            guard let length, length >= 0 else {
                write(fd, status: 400, headers: [:], body: Data(), close: true, head: false)
                return
            }
            if length > buffer.count, request.headers["expect"]?.lowercased() == "100-continue" {
                guard sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
            }
            while buffer.count < length {
                guard receive(fd, into: &buffer) else { return }
            }
            request.body = Data(buffer[..<length])
            buffer.removeFirst(length)
            // 3. Answer.
            let req = ServerRequest(method: request.method, path: request.path, queryItems: request.query,
                                  headers: request.headers, target: request.target, body: request.body, connection: connection)
            state.withLock { s in
                s.inFlight += 1
                s.peakInFlight = max(s.peakInFlight, s.inFlight)
            }
            guard answer(req, on: fd, version: request.version) else { return }
        }
    }

    /// Runs the handler, waits its delay and writes its answer. False when the connection must close.
    /// The request is counted in flight until its answer is ready to write: once written, the
    /// client may send its next request before this thread runs again, and must not see it counted.
    private func answer(_ request: ServerRequest, on fd: Int32, version: String) -> Bool {
        var inFlight = true
        func landed() {
            if inFlight { state.withLock { $0.inFlight -= 1 } }
            inFlight = false
        }
        defer { landed() }
        let response = handler(request)
        state.withLock { $0.requestCount += 1 }
        guard pause(response.delay) else { return false }
        if response.closeWithoutAnswer { return false }
        if response.reset {
            // SO_LINGER with a zero timeout: close(2) sends RST instead of FIN.
            var hard = linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, socklen_t(MemoryLayout<linger>.size))
            return false
        }
        let connection = request.headers["connection"]?.lowercased() ?? ""
        let close = (version == "HTTP/1.0" ? !connection.contains("keep-alive") : connection.contains("close"))
            || response.announcedLength != nil || response.trickle != nil || response.flood
        landed()
        if response.flood, request.method != "HEAD" { return flood(fd, status: response.status, headers: response.headers, chunk: response.body) }
        let written = write(fd, status: response.status, headers: response.headers, body: response.body,
                            close: close, head: request.method == "HEAD", announcedLength: response.announcedLength,
                            trickle: response.trickle, stall: response.stall)
        state.withLock { $0.answersWritten += 1 }
        return written && !close
    }

    private struct Head {
        var method: String, target: String, version: String, path: String
        var query: [URLQueryItem], headers: [String: String], body = Data()
    }

    private func parseHead(_ bytes: [UInt8]) -> Head? {
        guard let text = String(bytes: bytes, encoding: .utf8) else { return nil }
        var lines = text.components(separatedBy: "\r\n")
        let parts = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, parts[2].hasPrefix("HTTP/1."),
              let components = URLComponents(string: parts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { return nil }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return Head(method: parts[0], target: parts[1], version: parts[2], path: components.path,
                    query: components.queryItems ?? [], headers: headers)
    }

    /// Appends what recv() returns; false on EOF or error.
    private func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { buffer.append(contentsOf: chunk[..<n]); return true }
            if n < 0 && errno == EINTR { continue }
            return false
        }
    }

    /// Sleeps `duration` in small steps, or less once `gate` opens; false when the server was shut down meanwhile.
    private func pause(_ duration: Duration, until gate: ServerGate? = nil) -> Bool {
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline, !(gate?.isOpen ?? false) {
            if state.withLock({ $0.stopped }) { return false }
            let left = deadline - ContinuousClock.now
            let step = min(left, .milliseconds(20))
            let (seconds, attoseconds) = step.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        }
        return !state.withLock { $0.stopped }
    }

    @discardableResult
    private func write(_ fd: Int32, status: Int, headers: [String: String], body: Data, close: Bool, head: Bool,
                       announcedLength: Int? = nil, trickle: Duration? = nil, stall: Stall? = nil) -> Bool {
        var bytes = self.head(status: status, headers: headers, framing: ["Content-Length: \(announcedLength ?? body.count)",
                                                                          "Connection: \(close ? "close" : "keep-alive")"])
        if let stall, !head {
            let cut = min(max(0, stall.after), body.count)
            return sendAll(fd, bytes + Array(body.prefix(cut))) && pause(stall.pause, until: stall.gate) && sendAll(fd, Array(body.dropFirst(cut)))
        }
        if let trickle, !head {
            guard sendAll(fd, bytes) else { return false }
            for byte in body {
                guard pause(trickle), sendAll(fd, [byte]) else { return false }
            }
            return true
        }
        // A big body goes out from its own storage: a benchmark's 5 MB posters, many at once,
        // are never copied. A small one goes with the head, in one segment.
        let together = head || body.count <= 64 * 1024
        if !head, together { bytes.append(contentsOf: body) }
        guard sendAll(fd, bytes) else { return false }
        return together || body.withUnsafeBytes { sendAll(fd, $0) }
    }

    /// A chunked body that never ends: `chunk` again and again, as fast as the client takes it,
    /// until it hangs up or the server shuts down. Always false: the connection closes after.
    private func flood(_ fd: Int32, status: Int, headers: [String: String], chunk: Data) -> Bool {
        guard sendAll(fd, head(status: status, headers: headers, framing: ["Transfer-Encoding: chunked", "Connection: close"])),
              !chunk.isEmpty else { return false }
        let piece = Array(String(chunk.count, radix: 16).utf8) + [13, 10] + Array(chunk) + [13, 10]
        while !state.withLock({ $0.stopped }), sendAll(fd, piece) {}
        return false
    }

    /// The status line and headers, up to the blank line: the handler's headers (a JSON type when it
    /// gives none), then `framing`, the length and connection lines the server owns.
    private func head(status: Int, headers: [String: String], framing: [String]) -> [UInt8] {
        var lines = ["HTTP/1.1 \(status) \(reason(status))"]
        var hasType = false
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            switch name.lowercased() {
            case "content-length", "connection", "transfer-encoding": continue   // we own these
            case "content-type": hasType = true
            default: break
            }
            lines.append("\(name): \(value)")
        }
        if !hasType { lines.append("Content-Type: application/json") }
        return Array(((lines + framing).joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { sendAll(fd, $0) }
    }

    private func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)   // no SIGPIPE if the peer is gone
        #else
        let flags: Int32 = 0              // SO_NOSIGPIPE is set on the socket instead
        #endif
        var offset = 0
        while offset < bytes.count {
            let n = send(fd, bytes.baseAddress! + offset, bytes.count - offset, flags)
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return false }
        }
        return true
    }

    private func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"; case 200: "OK"; case 201: "Created"; case 204: "No Content"
        case 301: "Moved Permanently"; case 302: "Found"; case 304: "Not Modified"
        case 400: "Bad Request"; case 401: "Unauthorized"; case 403: "Forbidden"; case 404: "Not Found"
        case 405: "Method Not Allowed"; case 408: "Request Timeout"; case 429: "Too Many Requests"
        case 500: "Internal Server Error"; case 501: "Not Implemented"; case 502: "Bad Gateway"
        case 503: "Service Unavailable"; case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}

private func sysShutdown(_ fd: Int32) {
    #if canImport(Glibc)
    _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    #else
    _ = Darwin.shutdown(fd, SHUT_RDWR)
    #endif
}
