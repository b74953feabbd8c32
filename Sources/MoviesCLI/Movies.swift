import Foundation
import OMDbKit

/// The `movies` command: reads the command line, settles the configuration, and runs the
/// prompt or the one-shot search. `main` calls ``run(arguments:environment:)`` and exits with its status.
public enum Movies {
    /// Exit statuses.
    public enum Status {
        public static let success: Int32 = 0
        /// Something failed at run time: key rejected, quota spent, server unreachable.
        public static let failure: Int32 = 1
        /// The tool was called wrongly.
        public static let usage: Int32 = 2
        /// Stopped by Ctrl-C.
        public static let interrupted: Int32 = 130
        /// stdout was closed by its reader (`movies search … | head`): 128 + SIGPIPE.
        public static let outputClosed: Int32 = 141
        /// Stopped by SIGHUP (129) or SIGTERM (143): 128 + the signal.
        public static let hangUp: Int32 = 129
        public static let terminated: Int32 = 143
    }

    /// Runs the tool and returns its exit status. Takes over the process's signals first
    /// (SIGPIPE ignored; SIGINT, SIGTERM, SIGHUP caught: see ``Interrupts``), so call it only
    /// from `main`. A SIGTERM, SIGHUP or closed stdout ends the process from within, after
    /// poster writes in progress are done, with 128 + the signal; this then never returns.
    @MainActor
    public static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        StandardOutput.holdClosedStandardStreams()
        let interrupts = Interrupts.shared
        interrupts.start()
        // Until a command runs, Ctrl-C ends the tool as it would have without the handler.
        interrupts.whenIdle { @Sendable in interrupts.stop(status: Status.interrupted) }
        let status = await runCommand(arguments: arguments, environment: environment)
        // A stop under way (SIGTERM, closed stdout) ends the process with its own status.
        interrupts.waitIfStopping()
        return status
    }

    /// Ends the process with `status` once poster writes in progress are done. `_exit`, not
    /// `exit`: URLSession threads may still be running, and exit handlers must not race them.
    public static func exit(_ status: Int32) -> Never {
        PosterStore.finishWrites()
        // A request sent is counted even when the process ends right after it.
        QuotaLedger.finishWrites()
        Interrupts.exitNow(status)
    }

    @MainActor
    private static func runCommand(arguments: [String], environment: [String: String]) async -> Int32 {
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let options: Options
        let settings: Settings
        let dotEnv = DotEnv.read(from: directory)
        do {
            options = try Options.parse(arguments)
            settings = try Settings.resolve(options, environment: environment, dotEnv: dotEnv.values, currentDirectory: directory)
        } catch {
            let console = Console.standard(environment: environment)
            for warning in dotEnv.warnings { console.note(warning.description) }
            console.error(error.message)
            return Status.usage
        }
        let console = Console.standard(environment: environment, noColor: options.noColor)
        let budget = RequestBudget(settings: settings)
        // Line numbers only: a skipped line may hold the key.
        for warning in dotEnv.warnings { console.note(warning.description) }

        switch options.mode {
        case .help:
            console.out(helpText)
            if let line = budget.statusLine { console.out("\n" + line) }
            return Status.success
        case .quota:
            console.out(budget.quotaReport)
            return Status.success
        case .cache(let clear):
            console.out(clear ? budget.clearCache() : budget.cacheReport)
            return Status.success
        case .version:
            console.out("movies \(OMDbKit.version)")
            return Status.success
        case .interactive:
            guard postersFolderIsUsable(settings, console: console) else { return Status.usage }
            guard let client = makeClient(settings, budget: budget, console: console, announceOffline: true) else { return Status.failure }
            let presenter = self.presenter(console: console, directory: directory, client: client, moreHint: nil)
            let session = Session(client: client, settings: settings, console: console, presenter: presenter, currentDirectory: directory,
                                  budget: budget)
            (presenter as? LivePresenter)?.postersOn = { [unowned session] in session.settings.posters != nil }
            session.inlineImages = InlineImages.detect(settings.inlineImages, environment: environment, outputIsTerminal: isatty(STDOUT_FILENO) == 1)
            session.opener = Opener.find(environment: environment)
            let prompt = Prompt(session: session, console: console)
            if let reader = lineEditor(settings: settings, environment: environment, directory: directory) {
                await prompt.run(reader: reader)
            } else {
                await prompt.run(lines: LineReader.lines())
            }
            return Status.success
        case let .search(query, pages, json):
            guard settings.apiKey != nil || settings.offline else {
                console.error("No OMDb API key: set OMDB_API_KEY, put OMDB_API_KEY=… in .env, pass --api-key KEY, or use --offline for the offline catalogue.")
                return Status.usage
            }
            guard postersFolderIsUsable(settings, console: console) else { return Status.usage }
            guard let client = makeClient(settings, budget: budget, console: console, announceOffline: false) else { return Status.failure }
            let presenter: any Presenter = json ? JSONPresenter(console: console)
                : self.presenter(console: console, directory: directory, client: client, moreHint: Self.pagesHint)
            let session = Session(client: client, settings: settings, console: console, presenter: presenter, currentDirectory: directory,
                                  budget: budget)
            if let live = presenter as? LivePresenter {
                live.postersOn = { [unowned session] in session.settings.posters != nil }
                // Keys typed meanwhile must not be echoed into the page (restored on exit).
                if Terminal.shared.start() { Terminal.shared.set(.quiet) }
            }
            return await OneShot(session: session, console: console).run(query: query, pages: pages)
        case let .episodes(target, season, json):
            guard let client = makeClient(settings, console: console, announceOffline: false) else { return Status.failure }
            let session = Session(client: client, settings: settings, console: console,
                                  presenter: TextPresenter(console: console, currentDirectory: directory), currentDirectory: directory)
            return await EpisodesOneShot(session: session, console: console).run(target: target, season: season, json: json)
        }
    }

    /// A page that fills in place on a terminal that can show it (stdout a terminal, colour
    /// allowed: not `NO_COLOR`, `--no-color` or `TERM=dumb`); plain lines otherwise.
    @MainActor
    static func presenter(console: Console, directory: URL, client: OMDbClient, moreHint: ((SearchPage) -> String)?) -> any Presenter {
        let plain = moreHint.map { TextPresenter(console: console, currentDirectory: directory, moreHint: $0) }
            ?? TextPresenter(console: console, currentDirectory: directory)
        guard console.style.enabled, Terminal.size() != nil else { return plain }
        Terminal.shared.watchResizes()
        return LivePresenter(plain: plain) { await client.apiRequestCount }
    }

    /// The line editor when a person types at a terminal (stdin and stdout both terminals,
    /// and a terminal that understands cursor codes); nil for pipes, files and `TERM=dumb`.
    static func lineEditor(settings: Settings, environment: [String: String], directory: URL) -> TerminalLineReader? {
        guard isatty(STDOUT_FILENO) == 1, environment["TERM"] != "dumb", Terminal.shared.start() else { return nil }
        let history = History.file(environment: environment).map { History(file: $0, secret: settings.apiKey) }
        return TerminalLineReader(prompt: Prompt.text, history: history, completer: .fileSystem(base: directory, home: settings.home.map { URL(fileURLWithPath: $0) }))
    }

    /// False, with one line on stderr, when the poster folder is a file, under a file, or not
    /// writable: said before any download, not after every poster failed.
    @MainActor
    static func postersFolderIsUsable(_ settings: Settings, console: Console) -> Bool {
        guard let folder = settings.posters, let problem = Session.posterFolderProblem(folder) else { return true }
        console.error("Cannot save posters in \(safe(folder.path)): \(problem). Choose another folder with --posters (or MOVIES_POSTERS).")
        return false
    }

    /// One-shot mode's way to more results: as many pages as were shown, plus one. After a failed
    /// page that is the failed page itself, since `--pages` counts from the first.
    static func pagesHint(after page: SearchPage) -> String {
        "Use --pages \(page.number + 1) to see more."
    }

    /// The live client, or the offline catalogue's when there is no key or `--offline` says so.
    @MainActor
    static func makeClient(_ settings: Settings, budget: RequestBudget? = nil, console: Console, announceOffline: Bool) -> OMDbClient? {
        if let key = settings.apiKey, !settings.offline {
            var configuration = OMDbClient.Configuration(apiKey: key, baseURL: settings.baseURL, timeout: settings.timeout)
            budget?.configure(&configuration)
            return OMDbClient(configuration: configuration)
        }
        guard let folder = Catalogue.defaultFolder(), var catalogue = try? Catalogue(folder: folder) else {
            console.error("The offline catalogue (Fixtures/catalogue.json) was not found: run from the repository root, or set MOVIES_CATALOGUE to its folder.")
            return nil
        }
        // Only then: offline poster URLs stay as they always were unless a width needs Amazon's names.
        catalogue.amazonStylePosters = settings.posterWidth != .standard
        if announceOffline {
            let why = settings.offline ? "--offline" : "no API key"
            console.note("Offline catalogue (\(why)): \(catalogue.count) titles. To search OMDb itself, set OMDB_API_KEY or put it in .env.")
        }
        return OMDbClient(configuration: .init(apiKey: CatalogueTransport.apiKey, baseURL: CatalogueTransport.baseURL, timeout: settings.timeout),
                          transport: CatalogueTransport(catalogue: catalogue))
    }

    static let helpText = """
    movies: search the Open Movie Database (OMDb) from a prompt.

    Usage:
      movies [options]                          the prompt: type a title, more, show N, help, quit
      movies search QUERY... [--pages N] [--json] [options]
                                                one search for scripts; results on stdout
      movies episodes IMDBID|QUERY [--season S] [--json] [options]
                                                a season's episodes (default season 1); a QUERY
                                                means the first series a search finds
      movies quota                              requests sent today with the key (UTC day)
      movies cache [clear]                      the answers kept on disk; clear empties it

    Options:
      --api-key KEY        OMDb API key (default: $OMDB_API_KEY, then .env)
      --base-url URL       OMDb address (default: $OMDB_BASE_URL, then https://www.omdbapi.com/)
      --posters DIR        save posters into DIR, created if missing (default: $MOVIES_POSTERS; off)
      --poster-width W     300 (OMDb's, default), 600, 1000 or original (default: $MOVIES_POSTER_WIDTH);
                           a wider poster replaces a narrower file; if it fails, OMDb's is saved
      --inline-images M    auto, iterm, kitty, blocks or off: draw posters in show N (default:
                           $MOVIES_INLINE_IMAGES, then auto; never when output is not a terminal)
      --type T             movie, series, episode or any
      --year YYYY          only titles of that year, or any
      --plot short|full    plot length in results (default short)
      --timeout SECONDS    per request, whole seconds from 1 (default 10)
      --offline            use the offline catalogue shipped in Fixtures/, no key needed
      --no-cache           neither read nor keep answers on disk (also MOVIES_CACHE=off)
      --cache-ttl TIME     keep answers for TIME (3600, 30m, 24h, 7d) instead of OMDb's
                           max-age, a day (default: $MOVIES_CACHE_TTL)
      --daily-limit N      the key's requests a day, or unlimited (default: $MOVIES_DAILY_LIMIT, 1000)
      --pages N            with search: load N pages (default 1)
      --json               with search or episodes: one JSON object per line
      --season S           with episodes: the season (default 1)
      --no-color           no colour (also when NO_COLOR is set or output is not a terminal)
      -h, --help           this help
      -V, --version        the version

    With no key, the prompt runs on the offline catalogue. Settings come from the options,
    then the environment, then a .env file in the working directory (see .env.example).

    OMDb's answers are kept in $XDG_CACHE_HOME/movies (default ~/.cache/movies), at most
    $MOVIES_CACHE_SIZE (default 50MB): a search repeated within a day costs no request.
    Requests sent are counted per key and per UTC day in $XDG_STATE_HOME/movies (default
    ~/.local/state/movies); a warning comes at 90 % of the daily limit.

    Exit status: 0 success (no results included), 1 a failure at run time (key rejected,
    quota spent, server unreachable), 2 a usage error, 130 interrupted (Ctrl-C), 141 output
    closed (as by head), 143 or 129 stopped by SIGTERM or SIGHUP.
    """
}
