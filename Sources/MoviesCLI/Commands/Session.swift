import Foundation
import OMDbKit

/// The state of one run of the front end: the client, the filters, the poster folder and the
/// results shown so far. Each command is one call to ``handle(_:)``; cancelling the task that
/// runs it (Ctrl-C) stops a load and keeps what already arrived.
@MainActor
public final class Session {
    /// One numbered result and what is known of it so far.
    struct Row {
        let item: SearchItem
        var movie: Movie?
        var poster: SavedPoster?
        /// The record's answer came, a failure included; false while loading and after Ctrl-C.
        var loaded = false
        /// An episode listed by `episodes`: numbered with the search's rows, but not one of them.
        var isEpisode = false
    }

    let client: OMDbClient
    let console: Console
    let presenter: any Presenter
    let currentDirectory: URL
    /// The disk cache and the daily count; `nil` in tests that need neither.
    let budget: RequestBudget?
    var settings: Settings
    var rows: [Row] = []
    /// How the commands so far went: a failure at run time (not "no results") stands, and a
    /// one-shot run exits with it.
    private(set) var outcome: ExitStatus = .success
    /// True once a command failed at run time.
    var hadFailure: Bool { outcome != .success }
    /// The last page shown, for `more`.
    var lastPage: SearchPage?

    /// Set when the last page load failed, so `--pages` stops instead of asking again.
    private var lastLoadFailed = false
    /// Set when OMDb said the key's daily quota is spent: `--pages` shows no page after this one
    /// (each would only say so again, and spend nothing but time).
    private var quotaSpent = false
    /// Every movie shown so far, for `save`.
    var exportLog = ExportLog()
    /// How `show` draws posters; `nil`: it does not (not a terminal, or none detected).
    var inlineImages: InlineImages.Kind?
    /// What `open` runs.
    var opener: Opener
    /// Asks a yes/no question and reads the answer; `nil` when no one can answer (stdin is not a terminal).
    var confirm: ((String) async -> Bool)?
    /// Opens connections before they are needed, and remembers the posters host; `nil` offline.
    let warmup: Warmup?
    /// The offline catalogue answering instead of OMDb, for what only it can say (which series
    /// it lists episodes of); `nil` when OMDb answers.
    var offlineCatalogue: Catalogue?

    /// When a page is shown, fetch the next page's search in the background (the prompt, unless
    /// switched off). The one-shot mode knows how many pages it wants and asks for exactly those.
    var prefetchesNextPage: Bool

    /// True when the current search has another page and the last load did not fail.
    var canLoadMore: Bool { !lastLoadFailed && (lastPage?.hasMore ?? false) }

    /// Everything after `currentDirectory` is the prompt's (tests give what they exercise):
    /// - Parameters:
    ///   - opener: what `open` runs; by default none, so the address is printed.
    ///   - confirm: asks before `save` replaces a file; `nil` refuses without asking.
    init(client: OMDbClient, settings: Settings, console: Console, presenter: any Presenter, currentDirectory: URL,
         budget: RequestBudget? = nil, offlineCatalogue: Catalogue? = nil, warmup: Warmup? = nil,
         inlineImages: InlineImages.Kind? = nil, opener: Opener = Opener(executable: nil),
         confirm: ((String) async -> Bool)? = nil) {
        self.budget = budget
        self.client = client
        self.settings = settings
        self.console = console
        self.presenter = presenter
        self.currentDirectory = currentDirectory
        self.offlineCatalogue = offlineCatalogue
        self.warmup = warmup
        self.inlineImages = inlineImages
        self.opener = opener
        self.confirm = confirm
        prefetchesNextPage = settings.prefetch
        // The store lists its folder (and sweeps leftovers) in the background from now on,
        // beside the first search rather than before it.
        _ = posterStore
    }

    /// Runs one command and records its outcome. Returns false when the person asked to leave.
    @discardableResult
    func handle(_ command: Command) async -> Bool {
        if case .quit = command { return false }
        outcome = outcome.combined(with: await run(command))
        return true
    }

    /// Runs one command: `.failure` when something failed at run time.
    private func run(_ command: Command) async -> ExitStatus {
        switch command {
        case .nothing, .quit: break
        case .help:
            console.out(Command.help(width: console.width))
            if let line = requestsToday { console.out(line) }
        case .quota: console.out(budget?.quotaReport ?? "Nothing is counted in this session.")
        case .cache(let clear):
            guard let budget else { console.out("There is no cache in this session."); break }
            console.out(clear ? budget.clearCache() : budget.cacheReport)
        // Hints quote what was typed: shown like network text, so no escape code reaches the terminal.
        case .invalid(let hint): console.err(safe(hint))
        case .search(let text): return await search(text)
        case .more: return await more()
        case .show(let number): return await show(number)
        case .showTitle(let id): return await show(imdbID: id)
        case .posters(let folder): setPosters(folder)
        case .postersStatus:
            console.out(settings.posters.map {
                "Posters are saved in \(safe($0.path))" + (settings.posterWidth == .standard ? "." : ", \(settings.posterWidth) px wide.")
            } ?? "Posters are off: posters DIR to save them.")
        case let .postersAt(folder, width): setPosters(folder, width: width)
        case let .episodes(number, season): return await episodes(number, season: season)
        case let .save(file, force, wholeSession): return await save(file, force: force, session: wholeSession)
        case .open(let number): await open(number)
        case .type(let type):
            settings.type = type
            console.out("Next searches: \(type.map { $0 == .series ? "series only" : "\($0.rawValue)s only" } ?? "any type").")
        case .year(let year):
            settings.year = year
            console.out("Next searches: \(year.map { "year \($0)" } ?? "any year").")
        case .plot(let plot):
            settings.plot = plot
            console.out("Plots in results: \(plot.rawValue).")
        }
        return .success
    }

    // MARK: Searching

    /// Starts a search and shows its first `pages` pages. Past the first, the searches for pages
    /// 2…N go out together as soon as page 1 gives the total, and every page's rows are fetched
    /// the moment the page arrives, so the pages overlap; the output stays in page order.
    func search(_ text: String, pages count: Int = 1) async -> ExitStatus {
        let (type, year) = (settings.type, settings.year)
        // The new search owns `more` and `show` from now on, even if it fails.
        rows.removeAll()
        lastPage = nil
        let query = SearchQuery(text: text.trimmingCharacters(in: .whitespacesAndNewlines), type: type, year: year)
        let waiting = "Searching \(source) for \"\(safe(query.text))\"…"
        let (first, status) = await fetch(recovering: query, { [client, presenter] in
            try await presenter.waiting(waiting) { try await client.search(text, type: type, year: year) }
        })
        guard let first else { return status }
        return count > 1 ? await showPages(first, through: count) : await show(first)
    }

    func more() async -> ExitStatus {
        let waiting = lastPage.map { "Loading page \($0.number + 1) of \"\(safe($0.query.text))\" from \(source)…" } ?? "Loading…"
        return await load { [client, presenter] in try await presenter.waiting(waiting) { try await client.nextPage() } }
    }

    /// Who answers, for the line shown while an answer is awaited.
    var source: String { settings.sendsKey ? "OMDb" : "the offline catalogue" }

    /// Fetches a page and shows it.
    func load(_ fetchPage: () async throws -> SearchPage) async -> ExitStatus {
        let (page, status) = await fetch(fetchPage)
        guard let page else { return status }
        return await show(page)
    }

    /// The page; or `nil` when it failed (then reported, or answered by ``recover(from:query:)``),
    /// with how that went.
    private func fetch(recovering query: SearchQuery? = nil,
                       _ fetchPage: () async throws -> SearchPage) async -> (page: SearchPage?, status: ExitStatus) {
        do {
            let page = try await fetchPage()
            lastLoadFailed = false
            return (page, .success)
        } catch {
            lastLoadFailed = true
            if let query, let error = error as? OMDbError, let recovered = await recover(from: error, query: query) {
                return (nil, recovered)
            }
            let status = report(error)
            await warnIfNearLimit()
            return (nil, status)
        }
    }

    /// Page 1 is in: pages 2…`count` are loaded together, each page's rows start as soon as it
    /// arrives (within ``pagesLoadingAhead``), and the pages are shown one after another as they complete.
    private func showPages(_ first: SearchPage, through count: Int) async -> ExitStatus {
        let (plot, store, window) = (settings.plot, posterStore, Self.pagesLoadingAhead(concurrency: settings.concurrency))
        await client.prefetch(through: count)
        let firstUpdates = client.details(for: first.items, plot: plot, posters: store)
        // A page's updates wait in its stream until the pages before it are shown. Dropping the
        // streams (Ctrl-C, a failed page) cancels the work they stand for.
        let (later, feed) = AsyncStream.makeStream(of: Result<(SearchPage, AsyncStream<MovieUpdate>), any Error>.self)
        // One token each time a page is shown: the producer starts a page's rows only while fewer
        // than `window` pages are loading, so `--pages 30` does not hold 600 tasks waiting at the gate.
        let (shown, shownFeed) = AsyncStream.makeStream(of: Void.self)
        let producer = Task { [client] in
            var page = first
            var pagesShown = 0
            var tokens = shown.makeAsyncIterator()
            while page.number < count, page.hasMore, !Task.isCancelled {
                do {
                    page = try await client.nextPage()
                    while page.number - 1 - pagesShown >= window {
                        guard await tokens.next() != nil else { break }
                        pagesShown += 1
                    }
                    guard !Task.isCancelled else { break }
                    feed.yield(.success((page, client.details(for: page.items, plot: plot, posters: store))))
                } catch {
                    feed.yield(.failure(error))
                    break
                }
            }
            feed.finish()
        }
        defer {
            producer.cancel()
            shownFeed.finish()
        }
        var status = await show(first, updates: firstUpdates)
        shownFeed.yield(())
        for await next in later {
            guard !Task.isCancelled, !quotaSpent else { break }
            switch next {
            case .success(let (page, updates)):
                lastLoadFailed = false
                status = status.combined(with: await show(page, updates: updates))
            case .failure(let error):
                lastLoadFailed = true
                status = status.combined(with: report(error))
                // The pages before it were shown without the hint, as more were to follow:
                // `--pages` counts from the first, so the way on is the page that failed.
                if let shown = lastPage, shown.hasMore, !quotaSpent {
                    console.out(console.style.dim("Use --pages \(shown.number + 1) to see more."))
                }
            }
            shownFeed.yield(())
        }
        return status
    }

    /// How many pages' rows may load at once in `--pages N`: enough to keep `concurrency`
    /// requests busy (a page is 20: 10 records, 10 posters), plus the one being shown.
    static func pagesLoadingAhead(concurrency: Int) -> Int {
        max(2, (concurrency + 19) / 20 + 1)
    }

    /// One store per folder for the whole session: it keeps one index of the folder, so a folder
    /// of many files is listed once, not once a page (nor again when only the width changes).
    var posterStore: PosterStore? {
        guard let folder = settings.posters?.standardizedFileURL else { return nil }
        if let store = currentStore, store.folder == folder {
            if store.width == settings.posterWidth { return store }
            currentStore = store.atWidth(settings.posterWidth)
            return currentStore
        }
        let store = PosterStore(folder: folder, width: settings.posterWidth)
        currentStore = store
        return store
    }

    private var currentStore: PosterStore?

    /// Shows a page's rows at once (numbered on from the rows already shown), then fills each
    /// in as its record and poster arrive.
    /// - Parameter updates: the page's details, when they were started before it was its turn.
    private func show(_ page: SearchPage, updates: AsyncStream<MovieUpdate>? = nil) async -> ExitStatus {
        let updates = updates ?? client.details(for: page.items, plot: settings.plot, posters: posterStore)
        lastPage = page
        warmup?.remember(postersOf: page)
        let first = rows.count
        rows += page.items.map { Row(item: $0) }
        for item in page.items { exportLog.note(item) }
        presenter.pageArrived(page, first: first + 1, savingPosters: settings.posters != nil)
        // While the person reads this page, the next one's search is already on its way: `more`
        // then only waits for the rows. Not awaited: the rows are shown without waiting for the client.
        if prefetchesNextPage {
            let (client, next) = (client, page.number + 1)
            Task { await client.prefetch(through: next) }
        }

        var done = 0
        var status = ExitStatus.success
        for await update in updates {
            let row = first + update.index
            switch update.part {
            case .record(let result):
                done += 1
                rows[row].movie = try? result.get()
                rows[row].loaded = true
                if case .failure(let error) = result, !error.isNoResults { status = .failure }
                if case .failure(.quotaExhausted) = result { quotaSpent = true }
            case .poster(let result):
                rows[row].poster = try? result.get()
                if case .failure(.posterNotWritten) = result { status = .failure }
            }
            exportLog.note(update.item, movie: rows[row].movie, poster: rows[row].poster?.file)
            presenter.rowUpdated(update, number: row + 1)
        }
        // The page is finished (and a live page let go of the screen) before the note is printed.
        await presenter.pageFinished(page)
        if Task.isCancelled {
            console.note("Stopped: \(done) of \(page.items.count) rows of this page were filled in; they are kept.")
        }
        await warnIfNearLimit()
        return status
    }

    // MARK: Details

    func show(_ number: Int) async -> ExitStatus {
        guard !rows.isEmpty else { console.err("No results yet: search for a title first."); return .success }
        guard number <= rows.count else {
            console.err("There is no result \(number): choose 1 to \(rows.count)" + (canLoadMore ? ", or type more for the next page." : "."))
            return .success
        }
        let row = rows[number - 1]
        var status = ExitStatus.success
        do {
            let movie = try await presenter.waiting("Asking \(source) about \(TextPresenter.titleAndYear(row.item))…") {
                try await client.movie(imdbID: row.item.imdbID, plot: .full)
            }
            exportLog.note(row.item, movie: movie)
            for line in Details.lines(for: movie, poster: row.poster, console: console, display: presenter.display,
                                      number: number) {
                console.out(line)
            }
            await drawPoster(of: number)
        } catch {
            status = report(error)
        }
        await warnIfNearLimit()
        return status
    }

    // MARK: Settings

    /// - Parameter width: the new width; `nil` keeps the current one.
    func setPosters(_ folder: String?, width: PosterWidth? = nil) {
        guard let folder else {
            settings.posters = nil
            console.out("Posters are off.")
            return
        }
        guard !folder.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            console.error("\"\(safe(folder))\" holds control characters (such as Escape), which make a folder name that cannot be shown or typed: choose a name without them.")
            return
        }
        let url = Settings.posterFolder(folder, relativeTo: currentDirectory, home: settings.home)
        let stay = "Posters stay \(settings.posters.map { "in \(safe($0.path))" } ?? "off")."
        if let problem = Self.posterFolderProblem(url) {
            console.error("Cannot use \"\(safe(folder))\" for posters: \(problem). \(stay)")
            return
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            settings.posters = url
            if let width { settings.posterWidth = width }
            _ = posterStore   // starts the new folder's listing and sweep now, not at the next search
            console.out("Posters will be saved in \(safe(url.path))" + (settings.posterWidth == .standard ? "." : ", \(settings.posterWidth) px wide."))
        } catch {
            console.error("Cannot use \"\(safe(folder))\" for posters: \(safe(PosterStore.describe(fileError: error))). \(stay)")
        }
    }

    /// Why `folder` cannot hold posters (a file, under a file, not writable), or `nil` when it can:
    /// asked before any download, so a bad folder is refused up front and not after every poster failed.
    static func posterFolderProblem(_ folder: URL) -> String? {
        do {
            try PosterStore.checkFolder(folder)
            return nil
        } catch {
            if case .posterNotWritten(_, let reason) = error { return safe(reason) }
            return safe(error.description)
        }
    }

    // MARK: Errors

    /// Filters are easy to forget: name them when a search finds nothing.
    private var filtersInUse: String {
        let filters = [settings.type.map { "type \($0.rawValue)" }, settings.year.map { "year \($0)" }].compactMap { $0 }
        return filters.isEmpty ? "" : " Filters in use: \(filters.joined(separator: ", "))."
    }

    /// Says what went wrong. Returns `.failure` for a failure at run time; "no results", no
    /// more pages and Ctrl-C are answers, not failures.
    func report(_ error: any Error) -> ExitStatus {
        switch error {
        case is CancellationError:
            console.note("Stopped.")
            return .success
        case let error as OMDbError:
            switch error {
            case let .seasonNotFound(imdbID, season):
                console.err(offlineCatalogue.map { Self.missingSeason(season, of: imdbID, in: $0) } ?? safe(error.description))
                return .success
            case .notFound:
                console.err(safe(error.description) + filtersInUse)
                return .success
            case .tooManyResults:
                // The search did not run: a script should know.
                console.err(safe(error.description) + filtersInUse)
                return .failure
            case .noMorePages, .noSearchYet:
                console.err(safe(error.description))
                return .success
            case .quotaExhausted:
                console.error(safe(budget?.limitMessage ?? error.description))
                return .failure
            default:
                console.error(safe(error.description))
                return .failure
            }
        default:
            console.error(safe(String(describing: error)))
            return .failure
        }
    }
}
