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
    }

    let client: OMDbClient
    let console: Console
    let presenter: any Presenter
    let currentDirectory: URL
    /// The disk cache and the daily count; `nil` in tests that need neither.
    let budget: RequestBudget?
    var settings: Settings
    var rows: [Row] = []
    /// Set when something failed at run time (not "no results"): the one-shot mode exits 1.
    var hadFailure = false
    /// The last page shown, for `more`.
    var lastPage: SearchPage?

    /// Set when the last page load failed, so `--pages` stops instead of asking again.
    private var lastLoadFailed = false
    /// Every movie shown so far, for `save`.
    var exportLog = ExportLog()
    /// How `show` draws posters; `nil`: it does not (not a terminal, or none detected).
    var inlineImages: InlineImages.Kind?
    /// What `open` runs.
    var opener = Opener.find(environment: ProcessInfo.processInfo.environment)
    /// Asks a yes/no question and reads the answer; `nil` when no one can answer (stdin is not a terminal).
    var confirm: ((String) async -> Bool)?

    /// True when the current search has another page and the last load did not fail.
    var canLoadMore: Bool { !lastLoadFailed && (lastPage?.hasMore ?? false) }

    init(client: OMDbClient, settings: Settings, console: Console, presenter: any Presenter, currentDirectory: URL,
         budget: RequestBudget? = nil) {
        self.budget = budget
        self.client = client
        self.settings = settings
        self.console = console
        self.presenter = presenter
        self.currentDirectory = currentDirectory
        if let folder = settings.posters { PosterStore(folder: folder).removeLeftovers() }
    }

    /// Runs one command. Returns false when the person asked to leave.
    @discardableResult
    func handle(_ command: Command) async -> Bool {
        switch command {
        case .nothing: break
        case .quit: return false
        case .help:
            console.out(Command.helpText)
            if let line = requestsToday { console.out(line) }
        case .quota: console.out(budget?.quotaReport ?? "Nothing is counted in this session.")
        case .cache(let clear):
            guard let budget else { console.out("There is no cache in this session."); break }
            console.out(clear ? budget.clearCache() : budget.cacheReport)
        // Hints quote what was typed: shown like network text, so no escape code reaches the terminal.
        case .invalid(let hint): console.err(safe(hint))
        case .search(let text): await search(text)
        case .more: await more()
        case .show(let number): await show(number)
        case .posters(let folder): setPosters(folder)
        case .postersStatus:
            console.out(settings.posters.map {
                "Posters are saved in \(safe($0.path))" + (settings.posterWidth == .standard ? "." : ", \(settings.posterWidth) px wide.")
            } ?? "Posters are off: posters DIR to save them.")
        case let .postersAt(folder, width): setPosters(folder, width: width)
        case let .episodes(number, season): await episodes(number, season: season)
        case let .save(file, force): await save(file, force: force)
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
        return true
    }

    // MARK: Searching

    func search(_ text: String) async {
        let (type, year) = (settings.type, settings.year)
        // The new search owns `more` and `show` from now on, even if it fails.
        rows.removeAll()
        lastPage = nil
        let query = SearchQuery(text: text.trimmingCharacters(in: .whitespacesAndNewlines), type: type, year: year)
        await load(recovering: query) { [client] in try await client.search(text, type: type, year: year) }
    }

    func more() async {
        await load { [client] in try await client.nextPage() }
    }

    /// Shows a page's rows at once (numbered on from the rows already shown), then fills each
    /// in as its record and poster arrive.
    /// - Parameter query: the search, when OMDb's "no" may be answered by one more request (see ``recover(from:query:)``).
    func load(recovering query: SearchQuery? = nil, _ fetchPage: () async throws -> SearchPage) async {
        let page: SearchPage
        do {
            page = try await fetchPage()
            lastLoadFailed = false
        } catch {
            lastLoadFailed = true
            if let query, let error = error as? OMDbError, await recover(from: error, query: query) { return }
            report(error)
            warnIfNearLimit()
            return
        }
        lastPage = page
        let first = rows.count
        rows += page.items.map { Row(item: $0) }
        for item in page.items { exportLog.note(item) }
        presenter.pageArrived(page, first: first + 1)

        var done = 0
        let store = settings.posters.map { PosterStore(folder: $0, width: settings.posterWidth) }
        for await update in client.details(for: page.items, plot: settings.plot, posters: store) {
            let row = first + update.index
            switch update.part {
            case .record(let result):
                done += 1
                rows[row].movie = try? result.get()
                if case .failure(let error) = result, !error.isNoResults { hadFailure = true }
            case .poster(let result):
                rows[row].poster = try? result.get()
                if case .failure(.posterNotWritten) = result { hadFailure = true }
            }
            exportLog.note(update.item, movie: rows[row].movie, poster: rows[row].poster?.file)
            presenter.rowUpdated(update, number: row + 1)
        }
        // The page is finished (and a live page let go of the screen) before the note is printed.
        await presenter.pageFinished(page)
        if Task.isCancelled {
            console.note("Stopped: \(done) of \(page.items.count) rows of this page were filled in; they are kept.")
        }
        warnIfNearLimit()
    }

    // MARK: Details

    func show(_ number: Int) async {
        guard !rows.isEmpty else { console.err("No results yet: search for a title first."); return }
        guard number <= rows.count else {
            console.err("There is no result \(number): choose 1 to \(rows.count)" + (canLoadMore ? ", or type more for the next page." : "."))
            return
        }
        let row = rows[number - 1]
        do {
            let movie = try await client.movie(imdbID: row.item.imdbID, plot: .full)
            exportLog.note(row.item, movie: movie)
            for line in Details.lines(for: movie, poster: row.poster, console: console, display: (presenter as? TextPresenter)?.display,
                                      number: number) {
                console.out(line)
            }
            await drawPoster(of: number)
        } catch {
            report(error)
        }
        warnIfNearLimit()
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
            PosterStore(folder: url).removeLeftovers()
            settings.posters = url
            if let width { settings.posterWidth = width }
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

    func report(_ error: any Error) {
        switch error {
        case is CancellationError:
            console.note("Stopped.")
        case let error as OMDbError:
            switch error {
            case .seasonNotFound:
                console.err(safe(error.description))
            case .notFound:
                console.err(safe(error.description) + filtersInUse)
            case .tooManyResults:
                // The search did not run: a script should know.
                hadFailure = true
                console.err(safe(error.description) + filtersInUse)
            case .noMorePages, .noSearchYet:
                console.err(safe(error.description))
            case .quotaExhausted:
                hadFailure = true
                console.error(safe(budget?.limitMessage ?? error.description))
            default:
                hadFailure = true
                console.error(safe(error.description))
            }
        default:
            hadFailure = true
            console.error(safe(String(describing: error)))
        }
    }
}
