import Foundation
import OMDbKit

/// One run of the front end: the search controller and the commands' shared context, and
/// the outcome of the commands so far. Each command is one call to ``handle(_:)``; cancelling
/// the task that runs it (Ctrl-C) stops a load and keeps what already arrived.
@MainActor
public final class Session {
    typealias Row = SearchController.Row

    let context: SessionContext
    let searchController: SearchController
    /// How the commands so far went: a failure at run time (not "no results") stands, and a
    /// one-shot run exits with it.
    private(set) var outcome: ExitStatus = .success
    /// True once a command failed at run time.
    var hadFailure: Bool { outcome != .success }
    /// How `show` draws posters; `nil`: it does not (not a terminal, or none detected).
    var inlineImages: InlineImages.Kind?
    /// What `open` runs.
    var opener: Opener
    /// Asks a yes/no question and reads the answer; `nil` when no one can answer (stdin is not a terminal).
    var confirm: ((String) async -> Bool)?

    /// Everything after `currentDirectory` is the prompt's (tests give what they exercise):
    /// - Parameters:
    ///   - opener: what `open` runs; by default none, so the address is printed.
    ///   - confirm: asks before `save` replaces a file; `nil` refuses without asking.
    init(client: OMDbClient, settings: Settings, console: Console, presenter: any Presenter, currentDirectory: URL,
         budget: RequestBudget? = nil, offlineCatalogue: Catalogue? = nil, warmup: Warmup? = nil,
         inlineImages: InlineImages.Kind? = nil, opener: Opener = Opener(executable: nil),
         confirm: ((String) async -> Bool)? = nil) {
        context = SessionContext(client: client, settings: settings, console: console, presenter: presenter,
                                 currentDirectory: currentDirectory, budget: budget, offlineCatalogue: offlineCatalogue, warmup: warmup)
        searchController = SearchController(context: context)
        self.inlineImages = inlineImages
        self.opener = opener
        self.confirm = confirm
        // The store lists its folder (and sweeps leftovers) in the background from now on,
        // beside the first search rather than before it.
        _ = context.posterStore
    }

    // MARK: What the parts hold

    var client: OMDbClient { context.client }
    var console: Console { context.console }
    var presenter: any Presenter { context.presenter }
    var budget: RequestBudget? { context.budget }
    var currentDirectory: URL { context.currentDirectory }
    var settings: Settings {
        get { context.settings }
        set { context.settings = newValue }
    }
    var exportLog: ExportLog {
        get { context.exportLog }
        set { context.exportLog = newValue }
    }
    var offlineCatalogue: Catalogue? {
        get { context.offlineCatalogue }
        set { context.offlineCatalogue = newValue }
    }
    var rows: [Row] {
        get { searchController.rows }
        set { searchController.rows = newValue }
    }
    var prefetchesNextPage: Bool {
        get { searchController.prefetchesNextPage }
        set { searchController.prefetchesNextPage = newValue }
    }
    var canLoadMore: Bool { searchController.canLoadMore }
    var source: String { context.source }
    var posterStore: PosterStore? { context.posterStore }
    public var requestsToday: String? { context.requestsToday }
    func report(_ error: any Error) -> ExitStatus { context.report(error) }
    func warnIfNearLimit() async { await context.warnIfNearLimit() }
    func search(_ text: String, pages count: Int = 1) async -> ExitStatus { await searchController.search(text, pages: count) }
    func row(_ number: Int, for command: String) -> Row? { searchController.row(number, for: command) }
    nonisolated static func withoutPunctuation(_ text: String) -> String? { SearchController.withoutPunctuation(text) }

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
        case .more: return await searchController.more()
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
}
