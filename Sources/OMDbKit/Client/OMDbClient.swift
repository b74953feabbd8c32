import Foundation
import Synchronization

/// Searches OMDb page by page and fills in each result's record and poster.
///
/// Each search belongs to its caller (``search(_:type:year:)`` returns a ``Search``); the client
/// holds what searches share: nothing is asked for twice in a session, and callers asking for the
/// same thing at once share one request. Its methods are `nonisolated`: no request waits to enter the actor.
///
/// ```swift
/// let client = OMDbClient(configuration: .init(apiKey: key), transport: try CurlTransport())
/// let page = try await client.search("alien", type: .movie).next()
/// for await update in client.details(for: page.items, posters: PosterStore(folder: folder)) {
///     if case .record(.success(let movie)) = update.part { print(movie.title, movie.plot ?? "-") }
/// }
/// ```
public actor OMDbClient {
    /// How the client talks to OMDb.
    public struct Configuration: Sendable {
        /// The OMDb API key. Only added to a request where it is handed to the transport;
        /// never written into any URL kept, error, description or mirror.
        public var apiKey: APIKey
        /// OMDb's address; a fake server's in tests.
        public var baseURL: URL
        /// The deadline of one whole request (connect, headers and body), in whole seconds, at least 1.
        public var timeout: Int
        /// How many requests may be in flight at once (records, pages and posters alike), and
        /// connections per host. The default lets a whole page (10 records, 10 posters) go at once.
        public var maxConcurrentRequests: Int
        /// How many times a request is tried in all when it fails for a reason that may pass (a
        /// timeout, a lost connection, a 5xx), with a growing wait in between; 1 tries once.
        public var maxAttempts: Int {
            get { retry.maxAttempts }
            set { retry.maxAttempts = max(1, newValue) }
        }
        /// Which failures are tried again, and how long to wait in between.
        package var retry: RetryPolicy
        /// The largest API answer read, in bytes; OMDb's are a few kB.
        package var maxAnswerBytes: Int
        /// The key's daily count: each API request reserves its place before it is sent, and none
        /// is sent past the limit (``OMDbError/dailyLimitReached(limit:)``).
        package var ledger: QuotaLedger?
        /// Where API answers are kept between runs; `nil` for none (the offline catalogue, `--no-cache`).
        /// An answer it gives is no request: never counted, never sent.
        package var cache: DiskCache?
        /// Set for a key this machine has never seen OMDb accept: the cache is not read (so a wrong
        /// key is refused at once, not hidden behind answers kept for another) until OMDb accepts it,
        /// then this is called, once.
        package var onKeyAccepted: (@Sendable () -> Void)?

        /// OMDb's public address.
        public static let defaultBaseURL = URL(string: "https://www.omdbapi.com/")!
        /// Where OMDb's posters are, for a client of OMDb's public address.
        package static let defaultPostersHost = URL(string: "https://m.media-amazon.com/")!
        package static let defaultMaxAnswerBytes = 4_000_000

        /// A configuration for `apiKey`; `timeout`, `maxConcurrentRequests` and `maxAttempts` below 1 become 1.
        /// - Parameters:
        ///   - apiKey: your OMDb key.
        ///   - baseURL: OMDb's address, or another server's that answers as OMDb does.
        ///   - timeout: the deadline of one whole request, in seconds.
        ///   - maxConcurrentRequests: requests in flight at once; by default 20, a whole page.
        ///   - maxAttempts: tries in all for a request whose failure may pass.
        public init(apiKey: APIKey, baseURL: URL = Configuration.defaultBaseURL, timeout: Int = 10,
                    maxConcurrentRequests: Int = 20, maxAttempts: Int = 3) {
            self.init(apiKey: apiKey, baseURL: baseURL, timeout: timeout, maxConcurrentRequests: maxConcurrentRequests,
                      retry: RetryPolicy(maxAttempts: max(1, maxAttempts)))
        }

        /// A configuration with the tool's and the tests' extras.
        package init(apiKey: APIKey, baseURL: URL = Configuration.defaultBaseURL, timeout: Int = 10,
                     maxConcurrentRequests: Int = 20, retry: RetryPolicy,
                     maxAnswerBytes: Int = Configuration.defaultMaxAnswerBytes) {
            self.apiKey = apiKey
            self.baseURL = baseURL
            self.timeout = max(1, timeout)
            self.maxConcurrentRequests = max(1, maxConcurrentRequests)
            self.retry = retry
            self.maxAnswerBytes = max(1, maxAnswerBytes)
        }
    }

    /// How this client was set up; fixed for its life.
    public nonisolated var configuration: Configuration { sender.configuration }
    let sender: RequestSender

    /// Search pages, by the request that asks for them; failures are not remembered.
    nonisolated let pages = Memo<OMDbRequest, (items: [SearchItem], total: Int)>()
    /// Records, and the lookups OMDb answered "not found" for good, by request.
    nonisolated let records = Memo<OMDbRequest, Movie>(isFinal: \.isNoResults)
    /// Season lists, and the ones OMDb answered "not found", by request.
    nonisolated let seasons = Memo<OMDbRequest, Season>(isFinal: \.isNoResults)
    /// One poster load per folder and title (`[path, imdbID]`), each checking the disk: files may change under
    /// us. A cancelled caller that is the last of its load gets what it came to (a poster put in place).
    nonisolated let posters = SingleFlight<[String], SavedPoster>(lastWaiterStays: true)
    /// What each title's poster came to in this session, whichever folder: saved where, or refused for good.
    nonisolated let posterOutcomes = Mutex<[String: Result<SavedPoster, OMDbError>]>([:])

    /// Requests handed to the transport for OMDb's API by this client, retries included (posters
    /// not included): what the key's daily quota counts.
    public nonisolated var apiRequestCount: Int { sender.sent.value }

    /// - Parameters:
    ///   - configuration: the key, the address and the limits; fixed for the client's life.
    ///   - transport: how requests go out: the live `CurlTransport` (target `OMDbCurl`),
    ///     the offline `CatalogueTransport` (target `OMDbCatalogue`), or a test double.
    public init(configuration: Configuration, transport: any OMDbTransport) {
        sender = RequestSender(transport: transport, configuration: configuration,
                               gate: RequestGate(limit: configuration.maxConcurrentRequests),
                               keyCheck: configuration.onKeyAccepted.map(KeyCheck.init(onAccepted:)))
    }

    /// The transport requests go through, for what only it offers (`CurlTransport` opens
    /// connections before they are needed).
    public nonisolated var transport: any OMDbTransport { sender.transport }

    // MARK: Search

    /// A search for `text` (trimmed), narrowed by `type` and `year` when given: the caller keeps it
    /// and asks it for pages (``Search/next()``). Nothing is sent until then.
    public nonisolated func search(_ text: String, type: SearchType? = nil, year: Int? = nil) -> Search {
        Search(client: self, query: SearchQuery(text: text.trimmingCharacters(in: .whitespacesAndNewlines), type: type, year: year))
    }

    /// One page, from the cache or the network (one request however many ask at once).
    nonisolated func loadPage(_ query: SearchQuery, number: Int) async throws -> (items: [SearchItem], total: Int) {
        try await answer(.search(query, page: number), in: pages) { [key = sender.key] response, shown in
            try OMDbDecoding.searchPage(response, query: query, url: shown, key: key)
        }
    }

    /// The answer to `request`, decoded: the one `memo` remembers, else one request shared by every caller asking at once.
    private nonisolated func answer<T: Sendable>(_ request: OMDbRequest, in memo: Memo<OMDbRequest, T>,
                                                 _ decode: @escaping @Sendable (HTTPResponse, String) throws -> T) async throws -> T {
        try await memo.value(for: request) { [sender] in try await sender.api(request, decode: decode) }
    }

    // MARK: Records

    /// The full record for `imdbID`, from the session cache when it was fetched before.
    /// - Throws: ``OMDbError`` or `CancellationError`.
    public nonisolated func movie(imdbID: String, plot: PlotLength = .short) async throws -> Movie {
        // "Error getting data." and its kin are answers, not accidents: asking again costs quota for the same.
        try await answer(.title(imdbID: imdbID, plot: plot), in: records) { [key = sender.key] response, shown in
            try OMDbDecoding.decode(Movie.self, response, query: imdbID, url: shown, key: key)
        }
    }

    /// OMDb's one best match for exactly this title (`t=`), with the query's type and year
    /// filters: the way out when a search answers `Too many results.` (`Up`, `It`, `9`).
    /// One request (none when the disk cache has it); not remembered in the session.
    /// - Throws: ``OMDbError`` (``OMDbError/notFound(query:)`` when nothing has that title) or `CancellationError`.
    public nonisolated func movie(exactTitle query: SearchQuery, plot: PlotLength = .short) async throws -> Movie {
        try await sender.api(.exactTitle(query, plot: plot)) { [sender] response, shown in
            try OMDbDecoding.decode(Movie.self, response, query: query.text, url: shown, key: sender.key)
        }
    }

    /// Season `number` of the series `imdbID`: its episodes as OMDb lists them (at most 100,
    /// gaps and an "Episode 0" included), in episode order. Sent like every other API request
    /// (key at the edge, counted, retried), one request however many ask at once, and
    /// remembered for the session, "not found" included.
    /// - Throws: ``OMDbError/seasonNotFound(imdbID:season:)`` when OMDb answers
    ///   `Series or season not found!`, any other ``OMDbError``, or `CancellationError`.
    public nonisolated func season(imdbID: String, number: Int) async throws -> Season {
        // Not found is an answer, not an accident: asking again costs quota for the same.
        try await answer(.season(imdbID: imdbID, number: number), in: seasons) { [key = sender.key] response, shown in
            try OMDbDecoding.season(response, imdbID: imdbID, number: number, url: shown, key: key)
        }
    }
}

// MARK: - Descriptions that never show the key

extension OMDbClient.Configuration: CustomStringConvertible, CustomReflectable {
    /// The settings, with the key as `***` and the base URL redacted (it may carry credentials).
    public var description: String {
        "Configuration(apiKey: ***, baseURL: \(apiKey.redact(baseURL)), timeout: \(timeout), "
            + "maxConcurrentRequests: \(maxConcurrentRequests), maxAttempts: \(maxAttempts))"
    }

    /// As ``description``, so `dump` shows no secret in the base URL either.
    public var customMirror: Mirror {
        Mirror(self, children: ["apiKey": apiKey, "baseURL": apiKey.redact(baseURL), "timeout": timeout,
                                "maxConcurrentRequests": maxConcurrentRequests, "maxAttempts": maxAttempts])
    }
}
