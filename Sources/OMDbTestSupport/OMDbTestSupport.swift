import Foundation
import OMDbCatalogue
import OMDbKit

// What the test suites of OMDbKit, OMDbCurl, OMDbCatalogue and MoviesCLI share: the repository's fixtures,
// the offline catalogue, quick retries, and a client's updates gathered by row.

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The repository's Fixtures folder: recorded OMDb answers (`omdb-samples/`).
public let fixtures = repository.appendingPathComponent("Fixtures")

/// The offline catalogue's folder in the sources (`catalogue.json`, `episodes.json`, `posters/`):
/// the library's resource, read where it is written.
public let catalogueFolder = repository.appendingPathComponent("Sources/OMDbCatalogue/Catalogue")

/// The offline catalogue, loaded once.
public let catalogue: Catalogue = try! Catalogue(folder: catalogueFolder)

/// Retries without real waiting, so tests of transient failures stay fast.
package let quickRetries = RetryPolicy(baseDelay: .milliseconds(1), maxDelay: .milliseconds(2), maxRetryAfter: .milliseconds(5))

/// Collects a details stream.
public func collect(_ stream: some AsyncSequence<MovieUpdate, Never>) async -> [MovieUpdate] {
    var updates: [MovieUpdate] = []
    for await update in stream { updates.append(update) }
    return updates
}

/// What the updates said of one row.
public struct RowOutcome {
    public var movie: Result<Movie, OMDbError>?
    public var poster: Result<SavedPoster, OMDbError>?
    public init(movie: Result<Movie, OMDbError>? = nil, poster: Result<SavedPoster, OMDbError>? = nil) {
        self.movie = movie
        self.poster = poster
    }
}

/// The updates gathered by imdbID.
public func rows(_ updates: [MovieUpdate]) -> [String: RowOutcome] {
    var rows: [String: RowOutcome] = [:]
    for update in updates {
        switch update.part {
        case .record(let record): rows[update.item.imdbID, default: RowOutcome()].movie = record
        case .poster(let poster): rows[update.item.imdbID, default: RowOutcome()].poster = poster
        }
    }
    return rows
}

extension MovieUpdate {
    /// Whether this update carries the row's record (not its poster).
    public var isRecord: Bool { if case .record = part { true } else { false } }
}

/// A transport whose answers are whole in memory: it implements ``answer(_:timeout:)``.
package protocol InMemoryTransport: OMDbTransport {
    /// The whole answer to a GET for `url`.
    func answer(_ url: URL, timeout: Int) async throws -> HTTPResponse
}

extension InMemoryTransport {
    /// ``answer(_:timeout:)``, handed out as a stream.
    package func send(_ request: TransportRequest) async throws -> TransportResponse {
        TransportResponse(try await answer(request.url, timeout: request.timeout))
    }
}

extension OMDbTransport {
    /// The whole answer to a GET for `url`, with no size limit.
    package func get(_ url: URL, timeout: Int) async throws -> HTTPResponse {
        let response = try await send(TransportRequest(url: url, timeout: timeout))
        return HTTPResponse(statusCode: response.statusCode, body: try await response.body.collect(upTo: .max), headers: response.headers)
    }
}
