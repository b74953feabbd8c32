import Foundation
import OMDbKit
import TerminalImages
import OMDbCatalogue

/// One run of the front end: runs each command (``handle(_:)``) over the shared context; the commands
/// are its extensions, in Commands/ and TitleDetails.swift.
@MainActor
final class Session: SessionPart {
    let context: SessionContext
    let searchController: SearchController
    /// How `show` draws posters; `nil`: it does not (not a terminal, or none detected).
    var inlineImages: InlineImages.Kind?
    /// What `open` runs; by default none, so the address is printed.
    var opener = Opener(executable: nil)
    /// Asks before `open` opens many pages or `save` replaces a file, and reads the answer; `nil` refuses.
    var ask: ((String) async -> String?)?

    init(client: OMDbClient, settings: Settings, console: Console, presenter: any Presenter, currentDirectory: URL,
         budget: RequestBudget? = nil, offlineCatalogue: Catalogue? = nil, warmup: Warmup? = nil) {
        context = SessionContext(client: client, settings: settings, console: console, presenter: presenter,
                                 currentDirectory: currentDirectory, budget: budget, offlineCatalogue: offlineCatalogue, warmup: warmup)
        searchController = SearchController(context: context)
        // The store lists its folder in the background from now on, beside the first search.
        _ = context.posterStore
    }

    /// Whether `question`, asked through ``ask``, was answered yes (`y`); no when nothing can ask.
    func answersYes(_ question: String) async -> Bool {
        ["y", "yes"].contains(await ask?(question)?.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// Runs one command: `.failure` when something failed at run time; `nil` when the person asked to leave.
    @discardableResult
    func handle(_ command: Command) async -> ExitStatus? {
        switch command {
        case .quit: return nil
        case .nothing: break
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
        case .search(let text): return await searchController.search(text)
        // The search's pages, or the catalogue's when it is on screen.
        case .more:
            guard let listed = searchController.cataloguePage else { return await searchController.more() }
            listCatalogue(page: listed + 1)
        case .previousPage:
            guard let listed = searchController.cataloguePage else { return await searchController.previousPage() }
            listCatalogue(page: listed - 1)
        case .page(let number):
            guard searchController.cataloguePage != nil else { return await searchController.page(number) }
            listCatalogue(page: number)
        case .show(let list):
            guard let numbers = searchController.numbers(list) else { break }
            var status = ExitStatus.success
            for number in numbers where !Task.isCancelled { status = status.combined(with: await show(number)) }
            return status
        case .number(let number):
            guard searchController.index(of: number) != nil else { return await searchController.search(String(number)) }
            return await show(number)
        case .showTitle(let id): return await show(imdbID: id)
        case let .posters(folder, width): setPosters(folder, width: width)
        case .postersStatus:
            let width = settings.posterWidth == .standard ? "." : ", \(settings.posterWidth) px wide."
            console.out(settings.posters.map { "Posters are saved in \(safe($0.path))" + width }
                        ?? "Posters are off: posters DIR to save them.")
        case let .episodes(list, season):
            guard let numbers = searchController.numbers(list) else { break }
            var status = ExitStatus.success
            for number in numbers where !Task.isCancelled { status = status.combined(with: await episodes(number, season: season)) }
            return status
        case let .poster(list, folder): return await savePosters(list, into: folder)
        case .catalogue(let page): listCatalogue(page: page)
        case let .save(file, force, wholeSession): return await save(file, force: force, session: wholeSession)
        case .open(let list): await open(list)
        case .type(let type):
            context.settings.type = type
            console.out("Next searches: \(type.map { $0 == .series ? "series only" : "\($0.rawValue)s only" } ?? "any type").")
        case .year(let year):
            context.settings.year = year
            console.out("Next searches: \(year.map { "year \($0)" } ?? "any year").")
        case .plot(let plot):
            context.settings.plot = plot
            console.out("Plots in results: \(plot.rawValue).")
        case .typeStatus:
            console.out("Type: \(settings.type?.rawValue ?? "any") (type movie, series, episode or any to change it).")
        case .yearStatus:
            console.out("Year: \(settings.year.map(String.init) ?? "any") (year 1984, or year any, to change it).")
        case .plotStatus: console.out("Plot: \(settings.plot.rawValue) (plot short or plot full to change it).")
        }
        return .success
    }
}
