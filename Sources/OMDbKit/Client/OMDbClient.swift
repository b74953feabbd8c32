import Foundation

/// Searches OMDb page by page and fills in each result's record and poster.
///
/// The actor holds the search cursor (query, filters, page, `totalResults`, the IDs already
/// returned). What the session learnt is kept in one `Memo` per kind, so nothing is asked for
/// twice: search pages by query and number, records by imdbID and plot length, seasons, posters.
/// Callers asking for the same thing at once share one request. Requests themselves run off the
/// actor through a `RequestSender`: key at the edge, deadline, size limits, retries, a limit in flight.
///
/// ```swift
/// let client = OMDbClient(configuration: .init(apiKey: key), transport: try CurlTransport(maxConnectionsPerHost: 20))
/// let page = try await client.search("alien", type: .movie)
/// for await update in client.details(for: page.items, posters: PosterStore(folder: folder)) {
///     if case .record(.success(let movie)) = update.part { print(movie.title, movie.plot ?? "-") }
/// }
/// ```
public actor OMDbClient {
    /// How the client talks to OMDb.
    public struct Configuration: Sendable {
        /// The OMDb API key. Only added to a request where it is handed to the transport;
        /// never written into any URL kept, error, description or mirror.
        public var apiKey: String
        /// OMDb's address; a fake server's in tests.
        public var baseURL: URL
        /// The deadline of one whole request (connect, headers and body), in whole seconds, at least 1.
        public var timeout: Int
        /// How many requests may be in flight at once (records, pages and posters alike), and
        /// connections per host. The default lets a whole page (10 records, 10 posters) go at once.
        public var maxConcurrentRequests: Int
        /// Which failures are tried again, and how long to wait in between.
        public var retry: RetryPolicy
        /// The largest API answer read, in bytes; OMDb's are a few kB.
        public var maxAnswerBytes: Int
        /// Called once for each OMDb API (non-poster) request actually handed to the transport,
        /// retries included: what the daily quota counts.
        public var onAPIRequestSent: (@Sendable () -> Void)?
        /// The key's daily count: each API request reserves its place in it before it is sent,
        /// and none is sent once the limit is reached (``OMDbError/dailyLimitReached(limit:)``).
        /// `nil` counts nothing and stops nothing.
        public var ledger: QuotaLedger?
        /// Where API answers are kept between runs; `nil` for none (the offline catalogue, `--no-cache`).
        /// An answer it gives is no request: never counted, never sent.
        public var cache: DiskCache?
        /// Set for a key this machine has never seen OMDb accept: the cache is not read until an
        /// answer from OMDb shows that the key is accepted (the first request goes past the cache,
        /// so a wrong key is refused at once instead of hidden behind answers kept for another),
        /// then this is called, once. `nil`: the cache is read from the start.
        public var onKeyAccepted: (@Sendable () -> Void)?

        /// OMDb's public address.
        public static let defaultBaseURL = URL(string: "https://www.omdbapi.com/")!
        /// Where OMDb's posters are, for a client of OMDb's public address.
        public static let defaultPostersHost = URL(string: "https://m.media-amazon.com/")!
        /// The default of ``maxConcurrentRequests``.
        public static let defaultMaxConcurrentRequests = 20
        /// The default of ``maxAnswerBytes``: 4 MB.
        public static let defaultMaxAnswerBytes = 4_000_000

        /// A configuration for `apiKey`; `timeout`, `maxConcurrentRequests` and `maxAnswerBytes` below 1 become 1.
        public init(apiKey: String, baseURL: URL = Configuration.defaultBaseURL, timeout: Int = 10,
                    maxConcurrentRequests: Int = Configuration.defaultMaxConcurrentRequests, retry: RetryPolicy = .standard,
                    maxAnswerBytes: Int = Configuration.defaultMaxAnswerBytes, onAPIRequestSent: (@Sendable () -> Void)? = nil) {
            self.apiKey = apiKey
            self.baseURL = baseURL
            self.timeout = max(1, timeout)
            self.maxConcurrentRequests = max(1, maxConcurrentRequests)
            self.retry = retry
            self.maxAnswerBytes = max(1, maxAnswerBytes)
            self.onAPIRequestSent = onAPIRequestSent
        }
    }

    /// Where the current search stands.
    struct Cursor {
        let query: SearchQuery
        var page: Int
        var total: Int
        var seen: Set<String>
        /// The page last returned, for a second `nextPage()` that raced the first for it.
        var last: SearchPage
    }

    struct PageKey: Hashable, Sendable {
        let query: SearchQuery
        let number: Int
    }

    struct PageResult: Sendable {
        let items: [SearchItem]
        let total: Int
    }

    struct RecordKey: Hashable, Sendable {
        let imdbID: String
        let plot: PlotLength
    }

    /// How this client was set up; fixed for its life.
    public nonisolated let configuration: Configuration
    let sender: RequestSender
    let redactor: Redactor

    private var cursor: Cursor?
    /// Bumped by every search: an answer for an older one must not move the cursor.
    private var generation = 0
    /// Search pages by query and number. Failures are not remembered.
    nonisolated let pages = Memo<PageKey, PageResult>()
    /// Records, and the lookups OMDb answered for good with "not found": neither is asked again.
    nonisolated let records = Memo<RecordKey, Movie>(isFinal: \.isNoResults)
    /// Season lists, and the ones OMDb answered "not found" for: neither is asked again.
    let seasons = Memo<SeasonKey, Season>(isFinal: \.isNoResults)
    /// One poster load per folder and title; the loads remember by hand what a title's poster
    /// came to (saved where, or refused for good), under ``PosterKey/title(_:)``.
    nonisolated let posters = Memo<PosterKey, SavedPoster>(recall: .byHand)

    /// Requests handed to the transport for OMDb's API in this session, retries included
    /// (posters not included): what the daily quota counts.
    public var apiRequestCount: Int { sender.sent.value }

    /// The most requests that were in flight at once in this session.
    public var peakRequestsInFlight: Int { sender.gate.peak }

    /// - Parameters:
    ///   - configuration: the key, the address and the limits; fixed for the client's life.
    ///   - transport: how requests go out: the live `CurlTransport` (target `OMDbCurl`),
    ///     the offline `CatalogueTransport` (target `OMDbCatalogue`), or a test double.
    public init(configuration: Configuration, transport: any OMDbTransport) {
        self.configuration = configuration
        let redactor = Redactor(apiKey: configuration.apiKey)
        self.redactor = redactor
        sender = RequestSender(transport: transport,
                               key: APIKey(configuration.apiKey), baseURL: configuration.baseURL, timeout: configuration.timeout,
                               retry: configuration.retry, gate: RequestGate(limit: configuration.maxConcurrentRequests),
                               maxAnswerBytes: configuration.maxAnswerBytes, onAPIRequestSent: configuration.onAPIRequestSent,
                               ledger: configuration.ledger, sent: RequestCounter(), redactor: redactor, cache: configuration.cache,
                               keyCheck: configuration.onKeyAccepted.map(KeyCheck.init(onAccepted:)))
    }

    /// Opens the connections a search will need before it needs them: OMDb's host and, when
    /// known, the posters host. Sends no key and counts no request.
    public nonisolated func preconnect(postersHost: URL?) {
        sender.transport.preconnect(configuration.baseURL)
        if let postersHost { sender.transport.preconnect(postersHost) }
    }

    /// Opens a connection to `origin` (a posters host) before a request needs it.
    /// - Parameter afterNextRequest: open it behind the client's next request (whichever it is)
    ///   instead of now, so that it never holds that request up: a one-shot search starts OMDb's
    ///   connection first, and the posters host's behind it. When no request follows, nothing opens.
    public nonisolated func preconnect(origin: URL, afterNextRequest: Bool = false) {
        if afterNextRequest {
            sender.preconnectsAfterNext.add(origin)
        } else {
            sender.transport.preconnect(origin)
        }
    }

    // MARK: Paged search

    /// Starts a new search and returns its first page. Pages still loading for an earlier
    /// search are cancelled, and `nextPage()` belongs to this search while it loads; when it fails
    /// (finds nothing, say) the earlier search is the one `nextPage()` continues, so a typo does
    /// not lose the results on screen.
    /// - Throws: ``OMDbError`` (``OMDbError/notFound(query:)`` when nothing matches), or
    ///   `CancellationError` when cancelled or superseded by a newer search.
    public func search(_ text: String, type: SearchType? = nil, year: Int? = nil) async throws -> SearchPage {
        let query = SearchQuery(text: text.trimmingCharacters(in: .whitespacesAndNewlines), type: type, year: year)
        generation += 1
        let mine = generation
        pages.cancelAll()
        let earlier = cursor
        cursor = nil
        let result: PageResult
        do {
            result = try await loadPage(query, number: 1)
        } catch {
            if generation == mine { cursor = earlier }
            throw error
        }
        guard generation == mine else { throw CancellationError() }
        var seen = Set<String>()
        let fresh = result.items.filter { seen.insert($0.imdbID).inserted }
        let page = SearchPage(query: query, number: 1, totalResults: result.total, items: fresh, shownSoFar: fresh.count,
                              repeatedCount: result.items.count - fresh.count)
        cursor = Cursor(query: query, page: 1, total: result.total, seen: seen, last: page)
        return page
    }

    /// The next page of the last search, without the results earlier pages already gave.
    /// Never asks for a page past `ceil(totalResults / 10)`. Two calls at once share one
    /// request and both return that page.
    /// - Throws: ``OMDbError/noSearchYet``, ``OMDbError/noMorePages(query:shown:total:)``, any other
    ///   ``OMDbError``, or `CancellationError`. The cursor only moves when a page arrives.
    public func nextPage() async throws -> SearchPage {
        guard let current = cursor else { throw OMDbError.noSearchYet }
        return try await move(to: current.page + 1, from: current, aheadIsDone: true)
    }

    /// Page `number` of the last search, without the results earlier pages already gave; the
    /// cursor moves to it, so `nextPage()` goes on after it (`page 5`, then `more`: page 6).
    /// For a page after the next one (`page 5` after page 1), only that page is asked for.
    /// - Throws: as ``nextPage()``: ``OMDbError/noMorePages(query:shown:total:)`` past the last page.
    public func page(_ number: Int) async throws -> SearchPage {
        guard let current = cursor else { throw OMDbError.noSearchYet }
        guard number != current.page else { return current.last }
        return try await move(to: number, from: current, aheadIsDone: false)
    }

    /// Loads page `number` of the cursor's search and moves the cursor there: the one way
    /// ``nextPage()`` and ``page(_:)`` change pages. The cursor only moves when the page arrives.
    /// - Parameter aheadIsDone: `more` asked for the page after `current`: a cursor another call
    ///   has moved to it or past it has done what was asked (it answers with the cursor's page).
    private func move(to number: Int, from current: Cursor, aheadIsDone: Bool) async throws -> SearchPage {
        let mine = generation
        guard number >= 1, number <= SearchPage.lastPage(forTotal: current.total) else {
            throw OMDbError.noMorePages(query: current.query.text, shown: current.seen.count, total: current.total)
        }
        let result: PageResult
        do {
            result = try await loadPage(current.query, number: number)
        } catch let error as OMDbError where error.isNotFound {
            // OMDb's total shrank under us: the page past the end answers "Movie not found!".
            throw OMDbError.noMorePages(query: current.query.text, shown: current.seen.count, total: current.total)
        }
        // A newer search owns the cursor now.
        guard generation == mine, var updated = cursor else { throw CancellationError() }
        // Another call for the same page got here first: it is the page both asked for.
        if updated.page == number || (aheadIsDone && updated.page > number) { return updated.last }
        let fresh = result.items.filter { updated.seen.insert($0.imdbID).inserted }
        let page = SearchPage(query: current.query, number: number, totalResults: result.total, items: fresh,
                              shownSoFar: updated.seen.count, repeatedCount: result.items.count - fresh.count)
        updated.page = number
        updated.total = result.total
        updated.last = page
        cursor = updated
        return page
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
        for page in (current.page + 1)...last where pages.remembered(PageKey(query: current.query, number: page)) == nil {
            // Failures are left for nextPage() to meet and report; a prefetch only saves time.
            Task { _ = try? await self.loadPage(current.query, number: page) }
        }
    }

    /// One page, from the cache or the network (one request however many ask at once).
    private func loadPage(_ query: SearchQuery, number: Int) async throws -> PageResult {
        try await pages.value(for: PageKey(query: query, number: number)) { [sender, redactor] in
            try await sender.api(.search(query, page: number)) { response, shown in
                let (items, total) = try OMDbDecoding.searchPage(response, query: query, url: shown, redactor: redactor)
                return PageResult(items: items, total: total)
            }
        }
    }

    // MARK: Records

    /// The full record for `imdbID`, from the session cache when it was fetched before.
    /// - Throws: ``OMDbError`` or `CancellationError`.
    public func movie(imdbID: String, plot: PlotLength = .short) async throws -> Movie {
        // "Error getting data." and its kin are answers, not accidents: asking again costs quota for the same.
        try await records.value(for: RecordKey(imdbID: imdbID, plot: plot)) { [sender, redactor] in
            try await sender.api(.title(imdbID: imdbID, plot: plot)) { response, shown in
                try OMDbDecoding.movie(response, imdbID: imdbID, url: shown, redactor: redactor)
            }
        }
    }
}

// MARK: - Descriptions that never show the key

extension OMDbClient.Configuration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The settings, with the key as `***` and the base URL redacted.
    public var description: String {
        "Configuration(apiKey: ***, baseURL: \(Redactor(apiKey: apiKey).redact(baseURL)), timeout: \(timeout), "
            + "maxConcurrentRequests: \(maxConcurrentRequests), maxAttempts: \(retry.maxAttempts))"
    }

    /// As ``description``: no key.
    public var debugDescription: String { description }

    /// The settings, key masked, so `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["apiKey": "***", "baseURL": Redactor(apiKey: apiKey).redact(baseURL), "timeout": timeout,
                                "maxConcurrentRequests": maxConcurrentRequests, "maxAttempts": retry.maxAttempts])
    }
}

extension OMDbClient: CustomReflectable {
    /// Only the configuration, whose mirror masks the key: `dump(client)` shows no secret.
    public nonisolated var customMirror: Mirror {
        Mirror(self, children: ["configuration": configuration])
    }
}
