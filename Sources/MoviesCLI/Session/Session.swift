import Foundation
import OMDbKit
import TerminalImages
import OMDbCatalogue

/// One run of the front end: runs each command (``handle(_:)``) over the shared context, and keeps
/// their outcome.
@MainActor
final class Session {
    let context: SessionContext
    let searchController: SearchController
    /// How the commands so far went: a failure at run time stands.
    private(set) var outcome: ExitStatus = .success
    /// True once a command failed at run time.
    var hadFailure: Bool { outcome != .success }
    /// How `show` draws posters; `nil`: it does not (not a terminal, or none detected).
    var inlineImages: InlineImages.Kind?
    /// What `open` runs; by default none, so the address is printed.
    var opener: Opener
    /// Asks before `save` replaces a file; `nil` (stdin is not a terminal) refuses without asking.
    var confirm: ((String) async -> Bool)?
    /// Asks before `open` opens many pages, and reads a line, from a terminal or a pipe; `nil` refuses without asking.
    var ask: ((String) async -> String?)?

    init(client: OMDbClient, settings: Settings, console: Console, presenter: any Presenter, currentDirectory: URL,
         budget: RequestBudget? = nil, offlineCatalogue: Catalogue? = nil, warmup: Warmup? = nil,
         inlineImages: InlineImages.Kind? = nil, opener: Opener = Opener(executable: nil),
         confirm: ((String) async -> Bool)? = nil, ask: ((String) async -> String?)? = nil) {
        context = SessionContext(client: client, settings: settings, console: console, presenter: presenter,
                                 currentDirectory: currentDirectory, budget: budget, offlineCatalogue: offlineCatalogue, warmup: warmup)
        searchController = SearchController(context: context)
        self.inlineImages = inlineImages
        self.opener = opener
        self.confirm = confirm
        self.ask = ask
        // The store lists its folder in the background from now on, beside the first search.
        _ = context.posterStore
    }

    // MARK: What the parts hold

    var client: OMDbClient { context.client }
    var console: Console { context.console }
    var rows: [SearchController.Row] {
        get { searchController.rows }
        set { searchController.rows = newValue }
    }
    var prefetchesNextPage: Bool {
        get { searchController.prefetchesNextPage }
        set { searchController.prefetchesNextPage = newValue }
    }

    // MARK: The handlers

    private var details: TitleDetails {
        TitleDetails(context: context, searchController: searchController, inlineImages: inlineImages)
    }
    private var episodes: EpisodesCommand { EpisodesCommand(context: context, searchController: searchController) }
    private var settingsCommands: SettingsCommands { SettingsCommands(context: context) }
    private var catalogue: CatalogueCommand { CatalogueCommand(context: context, searchController: searchController) }

    /// `more`, `prev`, `first` and `page N`: the search's pages, or the catalogue's when it is on screen.
    private func turnPage(_ command: Command) async -> ExitStatus {
        if let listed = searchController.cataloguePage {
            switch command {
            case .more: catalogue.list(page: listed + 1)
            case .previousPage: catalogue.list(page: listed - 1)
            case .page(let number): catalogue.list(page: number)
            default: catalogue.list(page: 1)
            }
            return .success
        }
        switch command {
        case .more: return await searchController.more()
        case .previousPage: return await searchController.previousPage()
        case .page(let number): return await searchController.page(number)
        default: return await searchController.page(1)
        }
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
        case .help(nil):
            console.out(PromptHelp.overview(width: console.width))
            if let line = context.budget?.ledger?.estimatedUsage().description { console.out(line) }
        case .help(let word?):
            // The parser let through only a word `help` knows.
            console.out(PromptHelp.detail(word, width: console.width) ?? PromptHelp.overview(width: console.width))
        case .quota: console.say(context.budget?.quotaReport ?? "Nothing is counted in this session.")
        case .cache(let clear):
            guard let budget = context.budget else { console.say("There is no cache in this session."); break }
            console.say(clear ? budget.clearCache() : budget.cacheReport)
        // Hints quote what was typed: shown like network text, so no escape code reaches the terminal.
        case .invalid(let hint): console.err(safe(hint))
        case .search(let text): return await search(text)
        case .more, .previousPage, .firstPage, .page:
            return await turnPage(command)
        case .show(let list):
            guard let numbers = searchController.numbers(list) else { break }
            var status = ExitStatus.success
            for number in numbers where !Task.isCancelled { status = status.combined(with: await details.show(number)) }
            return status
        case .number(let number):
            guard searchController.index(of: number) != nil else { return await search(String(number)) }
            return await details.show(number)
        case .showTitle(let id): return await details.show(imdbID: id)
        case .posters(let folder): settingsCommands.setPosters(folder)
        case .postersStatus: settingsCommands.showPosters()
        case let .postersAt(folder, width): settingsCommands.setPosters(folder, width: width)
        case let .episodes(list, season):
            guard let numbers = searchController.numbers(list) else { break }
            var status = ExitStatus.success
            for number in numbers where !Task.isCancelled { status = status.combined(with: await episodes.episodes(number, season: season)) }
            return status
        case let .poster(list, folder):
            return await PosterCommand(context: context, searchController: searchController).save(list, into: folder)
        case .catalogue(let page): catalogue.list(page: page)
        case let .save(file, force, wholeSession):
            return await SaveCommand(context: context, searchController: searchController, confirm: confirm)
                .save(file, force: force, session: wholeSession)
        case .open(let list):
            guard let numbers = searchController.numbers(list) else { break }
            let command = OpenCommand(context: context, searchController: searchController, opener: opener)
            guard await command.mayOpen(numbers.count, ask: ask) else { break }
            for number in numbers where !Task.isCancelled { await command.open(number) }
        case .type(let type): settingsCommands.setType(type)
        case .year(let year): settingsCommands.setYear(year)
        case .plot(let plot): settingsCommands.setPlot(plot)
        case .settingStatus(let name): settingsCommands.showSetting(name)
        }
        return .success
    }

    // MARK: For the one-shot runners and tests

    func search(_ text: String, pages count: Int = 1) async -> ExitStatus { await searchController.search(text, pages: count) }
    func showOne(_ target: String, lines: LineFormat?) async -> ExitStatus { await details.showOne(target, lines: lines) }
    @discardableResult
    func listSeason(of seriesID: String, season: Int, title: String? = nil) async -> ExitStatus {
        await episodes.listSeason(of: seriesID, season: season, title: title)
    }
    func report(_ error: any Error) -> ExitStatus { context.report(error) }
}
