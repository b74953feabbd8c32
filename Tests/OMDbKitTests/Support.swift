import Foundation
@testable import OMDbKit
import Synchronization
@testable import OMDbCatalogue
import OMDbTestSupport
import TestSupport

/// A transport backed by a closure: the test decides every answer, handed out in chunks.
struct ClosureTransport: OMDbTransport {
    let handler: @Sendable (URL) async throws -> HTTPResponse

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        TransportResponse(try await handler(request.url))
    }
}

/// Counts and records what went through a transport.
final class RequestLog: Sendable {
    private let urls = Watched<[URL]>([])
    func record(_ url: URL) { urls.update { $0.append(url) } }
    var all: [URL] { urls.value }
    func count(where predicate: (URL) -> Bool) -> Int { all.filter(predicate).count }
    /// Suspends until `count` requests are logged.
    func wait(_ what: String, timeout: Duration = .seconds(60), count: Int) async throws {
        try await urls.wait(what, timeout: timeout) { $0.count == count }
    }
}

extension URL {
    /// The value of query item `name`.
    func query(_ name: String) -> String? {
        URLComponents(url: self, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }
}

/// A JSON answer.
func json(_ text: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(statusCode: status, body: Data(text.utf8), contentType: "application/json")
}


/// A client over the offline catalogue, counting requests.
func catalogueClient(log: RequestLog = RequestLog(), key: APIKey = CatalogueTransport.apiKey) -> OMDbClient {
    let transport = CatalogueTransport(catalogue: catalogue)
    return OMDbClient(configuration: .init(apiKey: key, baseURL: CatalogueTransport.baseURL),
                      transport: ClosureTransport { url in
                          log.record(url)
                          return try await transport.get(url, timeout: 1)
                      })
}

extension PosterStore {
    /// A poster streamed from `body` and put in place, as the client saves one.
    func save(streaming body: HTTPBody, contentType: String? = nil, source: String, title: String, year: String?, imdbID: String) async throws -> URL {
        try await receive(streaming: body, contentType: contentType, source: source, title: title, year: year, imdbID: imdbID).placed()
    }
}

let pngBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
let jpegBytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46])

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let time: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { time = Mutex(start) }
    func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
    func set(_ date: Date) { time.withLock { $0 = date } }
    var now: @Sendable () -> Date { { self.time.withLock { $0 } } }
}

