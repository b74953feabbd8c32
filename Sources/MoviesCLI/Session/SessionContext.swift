import Foundation
import OMDbKit
import OMDbCatalogue

/// What every command of a session shares: the client, the screen, the settings in force, the log `save`
/// writes from, and the one way errors and the daily count are told.
@MainActor
final class SessionContext {
    let client: OMDbClient
    let console: Console
    let presenter: any Presenter
    let currentDirectory: URL
    /// The disk cache and the daily count; `nil` in tests that need neither.
    let budget: RequestBudget?
    /// Opens connections before they are needed, and remembers the posters host; `nil` offline.
    let warmup: Warmup?
    var settings: Settings
    /// Every movie shown so far, for `save`.
    var exportLog = ExportLog()
    /// The offline catalogue answering instead of OMDb; `nil` when OMDb answers.
    var offlineCatalogue: Catalogue?
    /// A one-shot command, not the prompt: messages name command-line commands.
    var isOneShot = false

    init(client: OMDbClient, settings: Settings, console: Console, presenter: any Presenter, currentDirectory: URL,
         budget: RequestBudget?, offlineCatalogue: Catalogue?, warmup: Warmup?) {
        self.client = client
        self.settings = settings
        self.console = console
        self.presenter = presenter
        self.currentDirectory = currentDirectory
        self.budget = budget
        self.offlineCatalogue = offlineCatalogue
        self.warmup = warmup
    }

    /// Who answers, for the line shown while an answer is awaited.
    var source: String { settings.sendsKey ? "OMDb" : "the offline catalogue" }

    // MARK: Posters

    /// One store per folder for the session, so the folder is listed once, not once a page.
    var posterStore: PosterStore? {
        guard let folder = settings.posters?.standardizedFileURL else { return nil }
        if let store = currentStore, store.folder == folder {
            if store.width != settings.posterWidth { currentStore = store.atWidth(settings.posterWidth) }
        } else {
            currentStore = PosterStore(folder: folder, width: settings.posterWidth)
        }
        return currentStore
    }

    /// The store of the folder in force, once made. Tests set its disk seam (``PosterStore/disk``).
    var currentStore: PosterStore?

    // MARK: Errors

    /// The filters in force: `type movie`, `year 1984`.
    var filters: [String] {
        [settings.type.map { "type \($0.rawValue)" }, settings.year.map { "year \($0)" }].compactMap { $0 }
    }

    /// Filters are easy to forget: name them when a search finds nothing.
    private var filtersInUse: String { filters.isEmpty ? "" : " Filters in use: \(filters.joined(separator: ", "))." }

    /// A miss in the offline catalogue: say how little it holds, and how to search OMDb instead.
    private var offlineMiss: String {
        guard let offlineCatalogue else { return "" }
        let list = isOneShot ? "movies catalogue lists them" : "catalogue lists them"
        return " The offline catalogue holds only \(offlineCatalogue.count) titles (\(list)); to search OMDb, set OMDB_API_KEY."
    }

    /// Why the offline catalogue has no list of season `season` of `seriesID` (it lists a few series only).
    private static func missingSeason(_ season: Int, of seriesID: String, in catalogue: Catalogue) -> String {
        let title = safe(catalogue.title(of: seriesID) ?? seriesID)
        let listed = catalogue.listedSeasons(of: seriesID)
        guard !listed.isEmpty else {
            return "The offline catalogue has no episode lists for \(title): it has them only for \(catalogue.seriesWithEpisodes.map(safe).inWords())."
        }
        return "The offline catalogue lists the episodes of \(title) for season\(listed.count == 1 ? "" : "s") "
            + "\(listed.map(String.init).inWords()) only, not season \(season)."
    }

    /// Says what went wrong: `.failure` for a failure at run time; "no results", no more pages and Ctrl-C are answers.
    func report(_ error: any Error) -> ExitStatus {
        if error is CancellationError {
            console.note("Stopped.")
            return .success
        }
        guard let error = error as? OMDbError else {
            console.error(safe(String(describing: error)))
            return .failure
        }
        switch error.underlying {
        case let .seasonNotFound(imdbID, season):
            console.err(offlineCatalogue.map { Self.missingSeason(season, of: imdbID, in: $0) } ?? safe(error.forPerson))
        case .notFound: console.err(safe(error.forPerson) + filtersInUse + offlineMiss)
        case .noMorePages: console.err(safe(error.forPerson))
        case .tooManyResults:
            // The search did not run: a script should know.
            console.err(safe(error.forPerson) + filtersInUse)
            return .failure
        case .quotaExhausted:
            console.error(safe(budget?.limitMessage ?? error.forPerson))
            return .failure
        default:
            console.error(safe(error.forPerson))
            return .failure
        }
        return .success
    }

    // MARK: The daily count

    /// Warns once a day (across processes) at 90 % of the daily limit; not after Ctrl-C, which returns at once.
    func warnIfNearLimit() async {
        guard !Task.isCancelled, let budget else { return }
        if let warning = await budget.warningAfterCommand(), !console.quiet { console.err(console.errorStyle.yellow(warning)) }
        // A folder of ours tightened by a write since: said once.
        for note in budget.tightenedNotes { console.note(note) }
    }
}

/// A part of a session that works in its ``SessionContext``, with shortcuts to what it holds.
@MainActor
protocol SessionPart {
    var context: SessionContext { get }
}

extension SessionPart {
    var client: OMDbClient { context.client }
    var console: Console { context.console }
    var presenter: any Presenter { context.presenter }
    var settings: Settings { context.settings }
    var source: String { context.source }
    var posterStore: PosterStore? { context.posterStore }
    func report(_ error: any Error) -> ExitStatus { context.report(error) }
    func warnIfNearLimit() async { await context.warnIfNearLimit() }
}
