import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Testing
import TestSupport
@testable import FakeOMDb

private func makeSession(maxConnections: Int = 6) -> URLSession {
    let config = URLSessionConfiguration.ephemeral
    config.timeoutIntervalForRequest = 5
    config.timeoutIntervalForResource = 10
    config.httpMaximumConnectionsPerHost = maxConnections
    return URLSession(configuration: config)
}

private func url(_ server: HTTPServer, _ path: String, _ items: [URLQueryItem] = []) -> URL {
    var c = URLComponents(url: server.baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
    if !items.isEmpty { c.queryItems = items }
    return c.url!
}

@Suite struct HTTPServerTests {
    @Test func queryItemsArriveDecoded() async throws {
        let seen = Mutex<ServerRequest?>(nil)
        let server = try HTTPServer { req in
            seen.withLock { $0 = req }
            return .json(#"{"ok":true}"#)
        }
        defer { server.shutdown() }
        let items = [URLQueryItem(name: "s", value: "tom & jerry"), URLQueryItem(name: "s", value: "Amélie"),
                     URLQueryItem(name: "apikey", value: "k")]
        let (data, response) = try await makeSession().data(for: URLRequest(url: url(server, "caf é/x", items)))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(String(decoding: data, as: UTF8.self) == #"{"ok":true}"#)
        let req = try #require(seen.withLock { $0 })
        #expect(req.method == "GET")
        #expect(req.path == "/caf é/x")
        #expect(req.queryItems == items)
        #expect(req.target.hasPrefix("/caf%20%C3%A9/x?s=tom%20%26%20jerry&s=Am%C3%A9lie"))
        #expect(req.headers["host"] == "127.0.0.1:\(server.port)")
    }

    @Test func errorStatusKeepsItsBody() async throws {
        let server = try HTTPServer { _ in .json(#"{"Response":"False","Error":"Invalid API key!"}"#, status: 401) }
        defer { server.shutdown() }
        let (data, response) = try await makeSession().data(from: url(server, "/"))
        #expect((response as? HTTPURLResponse)?.statusCode == 401)
        #expect(String(decoding: data, as: UTF8.self) == #"{"Response":"False","Error":"Invalid API key!"}"#)
    }

    @Test func postBodyAndCustomHeaders() async throws {
        let server = try HTTPServer { req in
            ServerResponse(status: 201, headers: ["Content-Type": "text/plain", "X-Echo": req.method], body: req.body)
        }
        defer { server.shutdown() }
        var request = URLRequest(url: url(server, "/echo"))
        request.httpMethod = "POST"
        request.httpBody = Data(repeating: 65, count: 2_000_000)   // big enough for curl to send Expect: 100-continue
        let (data, response) = try await makeSession().data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 201)
        #expect(http.value(forHTTPHeaderField: "X-Echo") == "POST")
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        #expect(data == request.httpBody)
    }

    /// Raw socket: the server answers `100 Continue` before reading a body the client holds back.
    @Test func expectContinueIsAnswered() throws {
        let server = try HTTPServer { req in ServerResponse(status: 201, body: req.body) }
        defer { server.shutdown() }
        let fd = try connectTo(port: server.port)
        defer { _ = close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func receive() -> String {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return n > 0 ? String(decoding: chunk[..<n], as: UTF8.self) : ""
        }
        _ = "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n".withCString { send(fd, $0, strlen($0), 0) }
        #expect(receive() == "HTTP/1.1 100 Continue\r\n\r\n")
        _ = "hello".withCString { send(fd, $0, strlen($0), 0) }
        let answer = receive()
        #expect(answer.hasPrefix("HTTP/1.1 201 Created\r\n"))
        #expect(answer.hasSuffix("\r\n\r\nhello"))
    }

    /// Ten requests meet at a barrier inside the handler: only a server that answers them at the
    /// same time lets all ten arrive (a serial one would leave each waiting alone).
    @Test func requestsAreHandledAtTheSameTime() async throws {
        let arrived = Mutex(0)
        let allIn = Latch()
        let server = try HTTPServer { _ in
            if arrived.withLock({ $0 += 1; return $0 }) == 10 { allIn.open() }
            allIn.wait(timeout: .seconds(10))
            return ServerResponse(body: Data(String(arrived.withLock { $0 }).utf8))
        }
        defer { server.shutdown() }
        let session = makeSession(maxConnections: 20)
        let seen = try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<10 {
                group.addTask {
                    let (data, _) = try await session.data(from: url(server, "/meet", [URLQueryItem(name: "i", value: "\(i)")]))
                    return String(decoding: data, as: UTF8.self)
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(seen == Array(repeating: "10", count: 10))
    }

    @Test func delaysAreHonoured() async throws {
        let server = try HTTPServer { _ in ServerResponse(body: Data("{}".utf8), delay: .milliseconds(200)) }
        defer { server.shutdown() }
        let session = makeSession(maxConnections: 20)
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<10 {
                group.addTask {
                    let (_, response) = try await session.data(from: url(server, "/slow", [URLQueryItem(name: "i", value: "\(i)")]))
                    return (response as? HTTPURLResponse)?.statusCode ?? -1
                }
            }
            for try await status in group { #expect(status == 200) }
        }
        let elapsed = clock.now - start
        // The delay is honoured (an upper bound would only measure how busy the machine is:
        // requestsAreHandledAtTheSameTime shows the overlap).
        #expect(elapsed >= .milliseconds(200))
        #expect(server.requestCount == 10)
    }

    @Test func closeWithoutAnswerMakesURLSessionThrow() async throws {
        let server = try HTTPServer { _ in ServerResponse(closeWithoutAnswer: true) }
        defer { server.shutdown() }
        await #expect(throws: URLError.self) { _ = try await makeSession().data(from: url(server, "/")) }
        #expect(server.requestCount >= 1)
    }

    @Test func requestsFailAfterShutdown() async throws {
        let server = try HTTPServer { _ in .json("{}") }
        let session = makeSession()
        let (_, first) = try await session.data(from: url(server, "/"))
        #expect((first as? HTTPURLResponse)?.statusCode == 200)
        server.shutdown()
        server.shutdown()   // idempotent
        let error = await #expect(throws: URLError.self) { _ = try await session.data(from: url(server, "/")) }
        #expect([.cannotConnectToHost, .networkConnectionLost].contains(error?.code), "got \(String(describing: error))")
        #expect(server.requestCount == 1)
    }

    @Test func requestCountCountsOverKeepAlive() async throws {
        let server = try HTTPServer { req in .json(#"{"n":"\#(req.queryItems.first?.value ?? "")"}"#) }
        defer { server.shutdown() }
        let session = makeSession()
        #expect(server.requestCount == 0)
        for i in 1...5 {
            let (data, _) = try await session.data(from: url(server, "/", [URLQueryItem(name: "n", value: "\(i)")]))
            #expect(String(decoding: data, as: UTF8.self) == #"{"n":"\#(i)"}"#)
            #expect(server.requestCount == i)
        }
    }

    /// Raw socket: two pipelined requests on one connection (keep-alive), then a malformed one → 400 + close.
    @Test func rawKeepAliveAndMalformedRequest() throws {
        let server = try HTTPServer { req in .json(#"{"path":"\#(req.path)"}"#) }
        defer { server.shutdown() }
        let fd = try connectTo(port: server.port)
        defer { _ = close(fd) }
        let wire = "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\nNONSENSE\r\n\r\n"
        _ = wire.withCString { send(fd, $0, strlen($0), 0) }
        var received = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {   // the server closes after the 400, so read to EOF
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += chunk[..<n]
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 200 OK\r\n").count == 3)
        #expect(text.contains(#"{"path":"/a"}"#) && text.contains(#"{"path":"/b"}"#))
        #expect(text.contains("HTTP/1.1 400 Bad Request\r\n"))
        #expect(text.contains("Connection: close\r\n"))
        #expect(server.requestCount == 2)
    }

    @Test func shutdownClosesIdleKeepAliveConnections() throws {
        let server = try HTTPServer { _ in .json("{}") }
        let fds = try (0..<3).map { _ in try connectTo(port: server.port) }
        defer { fds.forEach { _ = close($0) } }
        for fd in fds {   // one request each, leaving the connection open (keep-alive)
            _ = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".withCString { send(fd, $0, strlen($0), 0) }
        }
        // Each answered (its first byte is there, looked at and left): the connections are idle
        // when the server shuts down.
        for fd in fds {
            var timeout = timeval(tv_sec: 20, tv_usec: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var byte: UInt8 = 0
            try #require(recv(fd, &byte, 1, Int32(MSG_PEEK)) == 1, "no answer within 20 s")
        }
        server.shutdown()
        for fd in fds {
            var chunk = [UInt8](repeating: 0, count: 4096)
            var text = ""
            while true {
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n == 0 { break }                              // EOF: the server closed the connection
                try #require(n > 0, "no EOF within 20 s (errno \(errno))")
                text += String(decoding: chunk[..<n], as: UTF8.self)
            }
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
        #expect(server.requestCount == 3)
    }

    @Test func shutdownFromDeinitAndManyServers() async throws {
        var ports: [Int] = []
        for _ in 0..<20 {
            let server = try HTTPServer { _ in .json("{}") }
            ports.append(server.port)
            let (_, response) = try await makeSession().data(from: server.baseURL)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
        }   // each server is released here; deinit shuts it down
        #expect(ports.allSatisfy { $0 > 0 })
        // Released servers refuse connections; a test running alongside may have been given one of the ports again.
        let refused = ports.filter { port in (try? connectTo(port: port)).map { _ = close($0); return false } ?? true }
        #expect(refused.count >= 17)
    }
}

private struct HTTPTestError: Error { let errno: Int32 }

private func connectTo(port: Int) throws -> Int32 {
    var (fd, addr) = loopbackTCPSocket(port: port)
    let rc = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard rc == 0 else {
        let err = errno
        _ = close(fd)
        throw HTTPTestError(errno: err)
    }
    return fd
}
