import Foundation
import OMDbKit
import OMDbTestSupport
import Synchronization
import Testing
@testable import MoviesCLI
@testable import OMDbCatalogue

/// Collects what a `Console` writes, stdout and stderr apart.
final class Capture: Sendable {
    private let outBuffer = Mutex("")
    private let errBuffer = Mutex("")

    var out: String { outBuffer.withLock { $0 } }
    var err: String { errBuffer.withLock { $0 } }
    var outLines: [String] { out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty() }
    var errLines: [String] { err.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty() }

    func console(style: Style = .plain, width: Int = 80) -> Console {
        Console(writeOut: { text in self.outBuffer.withLock { $0 += text } },
                writeErr: { text in self.errBuffer.withLock { $0 += text } },
                style: style, errorStyle: style, measureWidth: { width })
    }

    func clear() {
        outBuffer.withLock { $0 = "" }
        errBuffer.withLock { $0 = "" }
    }

    /// stdout and stderr together, to compare in one expectation.
    var said: Said { Said(out: out, err: err) }
}

/// What a console said on stdout and on stderr.
struct Said: Equatable {
    var out = ""
    var err = ""
}

extension Array where Element == String {
    func dropLastIfEmpty() -> [String] { last == "" ? Array(dropLast()) : self }
}

/// The message of the ``UsageError`` that `body` throws; "" (and an issue recorded) when it throws none.
func usageMessage<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) -> String {
    #expect(throws: UsageError.self, sourceLocation: sourceLocation) { _ = try body() }?.message ?? ""
}


/// A client over the offline catalogue (the library's resource, `Sources/OMDbCatalogue/Catalogue/`).
///
/// The catalogue is OMDbTestSupport's, read once for the whole run (a value no test can change):
/// read again for each of the 45 clients, it took about 2 s of the suite's CPU.
func catalogueClient() throws -> OMDbClient {
    OMDbClient(configuration: .init(apiKey: CatalogueTransport.apiKey, baseURL: CatalogueTransport.baseURL),
               transport: CatalogueTransport(catalogue: catalogue))
}

/// A session over the catalogue, writing into `capture`.
@MainActor
func catalogueSession(_ capture: Capture, style: Style = .plain, width: Int = 80, json: Bool = false,
                      settings: Settings = Settings(), directory: URL? = nil) throws -> Session {
    let console = capture.console(style: style, width: width)
    let directory = directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    let presenter: any Presenter = json ? JSONPresenter(console: console) : TextPresenter(console: console, currentDirectory: directory)
    return Session(client: try catalogueClient(), settings: settings, console: console, presenter: presenter,
                   currentDirectory: directory)
}

/// Answers like OMDb from a few hand-written records: for titles and plots no catalogue holds.
struct StubTransport: InMemoryTransport {
    static let baseURL = URL(string: "http://stub.invalid/")!
    /// The rows of every search.
    var searchRows: [[String: String]] = []
    /// By-ID records; an ID not here answers `Error getting data.`
    var records: [String: [String: String]] = [:]

    /// A poster URL the stub answers with a tiny JPEG.
    static func posterURL(_ name: String) -> URL { baseURL.appendingPathComponent("posters/\(name).jpg") }
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0xFF, 0xD9])

    func answer(_ url: URL, timeout: Int) async throws -> HTTPResponse {
        if url.path.hasPrefix("/posters/") {
            return HTTPResponse(statusCode: 200, body: Self.jpeg, contentType: "image/jpeg")
        }
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { items.last { $0.name == name }?.value }
        if value("s") != nil {
            return Self.json(["Search": searchRows, "totalResults": String(searchRows.count), "Response": "True"])
        }
        if let id = value("i"), var record = records[id] {
            record["Response"] = "True"
            return Self.json(record)
        }
        return Self.json(["Response": "False", "Error": "Error getting data."])
    }

    static func json(_ object: [String: Any]) -> HTTPResponse {
        HTTPResponse(statusCode: 200, body: try! JSONSerialization.data(withJSONObject: object), contentType: "application/json")
    }

    func client() -> OMDbClient {
        OMDbClient(configuration: .init(apiKey: "stub-key", baseURL: Self.baseURL), transport: self)
    }
}

/// A search's JSON line for `row`, as `search --json` prints it on page `page`.
@MainActor
func jsonLine(_ row: LivePage.Row, page: Int) -> String {
    LineFormat.json(fields: nil).line(JSONPresenter.output(row, page: page, rank: row.number))
}

/// What `details(for:)` yields, gathered into one row per item, in item order, numbered from `first`.
@MainActor
func updates(_ client: OMDbClient, for items: [SearchItem], posters: PosterStore? = nil, first: Int = 1) async -> [LivePage.Row] {
    var page = LivePage(heading: "", first: first, items: items, postersOn: posters != nil)
    for await update in client.details(for: items, posters: posters) { page.update(update, number: first + update.index) }
    return page.rows
}
