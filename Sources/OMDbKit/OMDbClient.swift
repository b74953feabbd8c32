import Foundation

/// Searches OMDb page by page and fills in each result's record and poster.
///
/// The actor holds the search cursor (query, filters, page, `totalResults`, the IDs already
/// returned) and a session cache, so nothing is asked for twice: search pages by query and
/// number, records by imdbID and plot length, posters by imdbID. Two callers asking for the
/// same thing at once share one request.
///
/// ```swift
/// let client = OMDbClient(configuration: .init(apiKey: key))
/// let page = try await client.search("alien", type: .movie)
/// for await update in client.details(for: page.items, posters: PosterStore(folder: folder)) {
///     if case .record(.success(let movie)) = update.part { print(movie.title, movie.plot ?? "-") }
/// }
/// ```
public actor OMDbClient {
    /// How the client talks to OMDb.
    public struct Configuration: Sendable {
        /// The OMDb API key. Never written into any error or description.
        public var apiKey: String
        /// OMDb's address; a fake server's in tests.
        public var baseURL: URL
        /// Per-request timeout in whole seconds (at least 1: URLSession on Linux rounds lower values down to nothing).
        public var timeout: Int
        /// How many requests may run at once: results filled in at a time, and connections per host.
        public var maxConcurrentRequests: Int

        /// OMDb's public address.
        public static let defaultBaseURL = URL(string: "https://www.omdbapi.com/")!

        public init(apiKey: String, baseURL: URL = Configuration.defaultBaseURL, timeout: Int = 10, maxConcurrentRequests: Int = 10) {
            self.apiKey = apiKey
            self.baseURL = baseURL
            self.timeout = max(1, timeout)
            self.maxConcurrentRequests = max(1, maxConcurrentRequests)
        }
    }

    /// Where the current search stands.
    struct Cursor {
        let query: SearchQuery
        var page: Int
        var total: Int
        var seen: Set<String>
    }

    private struct PageKey: Hashable {
        let query: SearchQuery
        let number: Int
    }

    public let configuration: Configuration
    let transport: any OMDbTransport
    let redactor: Redactor

    private var cursor: Cursor?
    /// Page loads in flight, one per page however many ask (`nextPage()`, prefetches); a new
    /// search cancels them all.
    private var pageLoads: [PageKey: Task<(items: [SearchItem], total: Int), any Error>] = [:]
    private var pages: [PageKey: (items: [SearchItem], total: Int)] = [:]
    /// Records, and the lookups OMDb answered for good with "not found": neither is asked again.
    private var records: [String: Result<Movie, OMDbError>] = [:]
    private var recordLoads: [String: SharedLoad<Movie>] = [:]
    var posters: [String: Result<URL, OMDbError>] = [:]
    var posterLoads: [String: SharedLoad<SavedPoster>] = [:]
    /// Requests sent to OMDb's API in this session (posters not included): what the daily quota counts.
    public private(set) var apiRequestCount = 0

    /// - Parameter transport: `nil` for the live URLSession transport.
    public init(configuration: Configuration, transport: (any OMDbTransport)? = nil) {
        self.configuration = configuration
        self.transport = transport ?? URLSessionTransport(maxConnectionsPerHost: configuration.maxConcurrentRequests)
        redactor = Redactor(apiKey: configuration.apiKey)
    }

    // MARK: Paged search

    /// Starts a new search and returns its first page. Pages still loading for an earlier
    /// search are cancelled, and `nextPage()` belongs to this search from now on, even if it fails.
    /// - Throws: ``OMDbError`` (``OMDbError/notFound(query:)`` when nothing matches), or
    ///   `CancellationError` when cancelled or superseded by a newer search.
    public func search(_ text: String, type: SearchType? = nil, year: Int? = nil) async throws -> SearchPage {
        let query = SearchQuery(text: text.trimmingCharacters(in: .whitespacesAndNewlines), type: type, year: year)
        for load in pageLoads.values { load.cancel() }
        pageLoads.removeAll()
        cursor = nil
        let (items, total) = try await loadPage(query, number: 1)
        var seen = Set<String>()
        let fresh = items.filter { seen.insert($0.imdbID).inserted }
        cursor = Cursor(query: query, page: 1, total: total, seen: seen)
        return SearchPage(query: query, number: 1, totalResults: total, items: fresh, shownSoFar: fresh.count,
                          repeatedCount: items.count - fresh.count)
    }

    /// The next page of the last search, without the results earlier pages already gave.
    /// Never asks for a page past `ceil(totalResults / 10)`.
    /// - Throws: ``OMDbError/noSearchYet``, ``OMDbError/noMorePages(query:shown:total:)``, any other
    ///   ``OMDbError``, or `CancellationError`. The cursor only moves when a page arrives.
    public func nextPage() async throws -> SearchPage {
        guard let current = cursor else { throw OMDbError.noSearchYet }
        let number = current.page + 1
        guard number <= SearchPage.lastPage(forTotal: current.total) else {
            throw OMDbError.noMorePages(query: current.query.text, shown: current.seen.count, total: current.total)
        }
        let items: [SearchItem]
        let total: Int
        do {
            (items, total) = try await loadPage(current.query, number: number)
        } catch OMDbError.notFound {
            // OMDb's total shrank under us: the page past the end answers "Movie not found!".
            throw OMDbError.noMorePages(query: current.query.text, shown: current.seen.count, total: current.total)
        }
        // Another search, or another call for this page, owns the cursor now.
        guard var updated = cursor, updated.query == current.query, updated.page == current.page else {
            throw CancellationError()
        }
        let fresh = items.filter { updated.seen.insert($0.imdbID).inserted }
        updated.page = number
        updated.total = total
        cursor = updated
        return SearchPage(query: current.query, number: number, totalResults: total, items: fresh, shownSoFar: updated.seen.count,
                          repeatedCount: items.count - fresh.count)
    }

    /// Starts loading, in the background, the pages of the current search after the last one
    /// returned, through page `number` but never past the last page: `nextPage()` then joins the
    /// request in flight, or finds the page in the session cache. Each page is one request,
    /// counted like any other, however many times it is prefetched; a new search cancels the
    /// prefetches still running. The prompt prefetches the page after the one shown; `--pages N`
    /// prefetches pages 2 to N together once page 1 gives the total.
    public func prefetch(through number: Int) {
        guard let current = cursor else { return }
        let last = min(number, SearchPage.lastPage(forTotal: current.total))
        guard current.page < last else { return }
        for page in (current.page + 1)...last where pages[PageKey(query: current.query, number: page)] == nil {
            // Failures are left for nextPage() to meet and report; a prefetch only saves time.
            Task { _ = try? await self.loadPage(current.query, number: page) }
        }
    }

    /// One page, from the cache or the network; callers asking for a page already loading share
    /// its request. Throws `CancellationError` when a newer search cancelled it, even if its answer arrived.
    private func loadPage(_ query: SearchQuery, number: Int) async throws -> (items: [SearchItem], total: Int) {
        let key = PageKey(query: query, number: number)
        if let cached = pages[key] { return cached }
        let task: Task<(items: [SearchItem], total: Int), any Error>
        if let loading = pageLoads[key] {
            task = loading
        } else {
            let url = OMDbRequest.search(query, page: number, apiKey: configuration.apiKey, baseURL: configuration.baseURL)
            task = Task { () throws -> (items: [SearchItem], total: Int) in
                let (response, shown) = try await self.fetch(url, countsTowardQuota: true)
                return try OMDbDecoding.searchPage(response, query: query, url: shown, redactor: self.redactor)
            }
            pageLoads[key] = task
        }
        defer { if pageLoads[key] == task { pageLoads[key] = nil } }
        let result = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        if pageLoads[key] == task {
            pages[key] = result
            return result
        }
        // Another caller of the same load got here first, or a new search cancelled it.
        if let cached = pages[key] { return cached }
        throw CancellationError()
    }

    // MARK: Records

    /// The full record for `imdbID`, from the session cache when it was fetched before.
    /// - Throws: ``OMDbError`` or `CancellationError`.
    public func movie(imdbID: String, plot: PlotLength = .short) async throws -> Movie {
        let key = "\(imdbID)|\(plot.rawValue)"
        if let cached = records[key] { return try cached.get() }
        let joinable = recordLoads[key].flatMap { $0.isAbandoned ? nil : $0 }
        let load = joinable ?? SharedLoad { [configuration] in
            let url = OMDbRequest.title(imdbID: imdbID, plot: plot, apiKey: configuration.apiKey, baseURL: configuration.baseURL)
            let (response, shown) = try await self.fetch(url, countsTowardQuota: true)
            return try OMDbDecoding.movie(response, imdbID: imdbID, url: shown, redactor: self.redactor)
        }
        recordLoads[key] = load
        defer { if recordLoads[key] === load { recordLoads[key] = nil } }
        do {
            let movie = try await load.value()
            records[key] = .success(movie)
            return movie
        } catch let error as OMDbError where error.isNoResults {
            // "Error getting data." and its kin are answers, not accidents: asking again costs quota for the same.
            records[key] = .failure(error)
            throw error
        }
    }

    // MARK: Transport

    /// One GET through the transport, with its failures turned into ``OMDbError`` and the key redacted.
    /// Returns the answer and the URL as it may be shown.
    /// - Parameter limit: for posters, the size cap: the transport may stop reading past it.
    func fetch(_ url: URL, countsTowardQuota: Bool, limit: Int? = nil) async throws -> (HTTPResponse, String) {
        if countsTowardQuota { apiRequestCount += 1 }
        let shown = redactor.redact(url)
        do {
            let response = if let limit {
                try await transport.get(url, timeout: configuration.timeout, limit: limit)
            } else {
                try await transport.get(url, timeout: configuration.timeout)
            }
            return (response, shown)
        } catch let error as TransportError {
            switch error {
            case .timedOut: throw OMDbError.timedOut(url: shown, seconds: configuration.timeout)
            case .unreachable(let reason): throw OMDbError.unreachable(url: shown, reason: redactor.redact(reason))
            case .tooLarge(let bytes): throw OMDbError.posterTooLarge(bytes: bytes, limit: limit ?? bytes)
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as OMDbError {
            throw error
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw OMDbError.unreachable(url: shown, reason: redactor.redact(String(describing: error)))
        }
    }
}

// MARK: - Descriptions that never show the key

extension OMDbClient.Configuration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "Configuration(apiKey: ***, baseURL: \(Redactor(apiKey: apiKey).redact(baseURL)), timeout: \(timeout), maxConcurrentRequests: \(maxConcurrentRequests))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["apiKey": "***", "baseURL": Redactor(apiKey: apiKey).redact(baseURL), "timeout": timeout,
                                "maxConcurrentRequests": maxConcurrentRequests])
    }
}
