import Files
import Foundation
import OMDbCurl
import OMDbKit
import TerminalImages
import LineEditing
import OMDbCatalogue

/// The `movies` command: reads the command line, settles the configuration, and runs the prompt or a
/// one-shot command. `main` calls ``run(arguments:environment:runtime:)`` and exits with ``Runtime/exit(_:)``.
public enum Movies {
    /// Runs the tool and returns how it ended. Takes over the process's signals (``Interrupts``), so call
    /// it only from `main`; a SIGTERM, SIGHUP or closed stdout ends the process from within instead.
    @MainActor
    public static func run(arguments: [String], environment: [String: String], runtime: Runtime) async -> ExitStatus {
        StandardOutput.holdClosedStandardStreams()
        let interrupts = runtime.interrupts
        if let failure = interrupts.start() {
            let reason = ProcessLimit.shortage(failure) ?? String(cString: strerror(failure))
            Console.standard(environment: environment, runtime: runtime).error("movies cannot start: \(reason).")
            return .failure
        }
        // Until a command runs, Ctrl-C ends the tool as it would have without the handler.
        interrupts.whenIdle { @Sendable in interrupts.stop(status: .interrupted) }
        let status = await runCommand(arguments: arguments, environment: environment, runtime: runtime)
        // A stop under way (SIGTERM, closed stdout) ends the process with its own status.
        interrupts.waitIfStopping()
        return status
    }

    @MainActor
    private static func runCommand(arguments: [String], environment: [String: String], runtime: Runtime) async -> ExitStatus {
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            Console.standard(environment: environment, runtime: runtime).error(error.message)
            return .usage
        }
        // Texts about the tool need no settings: a broken .env must not stop `--help`.
        if let text = text(for: options.mode) {
            Console.standard(environment: environment, noColor: options.noColor, runtime: runtime).out(text)
            return .success
        }
        var settings: Settings
        let dotEnv = DotEnv.read(from: directory)
        do {
            settings = try Settings.resolve(options, environment: environment, dotEnv: dotEnv.values, currentDirectory: directory)
        } catch {
            let console = Console.standard(environment: environment, runtime: runtime)
            for notice in dotEnv.notices { console.note(notice) }
            console.error(error.message)
            return .usage
        }
        let console = Console.standard(environment: environment, noColor: options.noColor, quiet: options.quiet, runtime: runtime)
        // A key shorter than OMDb's 8 characters (a placeholder, a cut paste) is refused before any request.
        if settings.sendsKey, let length = settings.apiKey?.value.count, length < 8 {
            console.error("The OMDb API key given is \(length) character\(length == 1 ? "" : "s") long; OMDb's keys are 8 (such as 1a2b3c4d): check OMDB_API_KEY, .env or --api-key, or use --offline for the offline catalogue.")
            return .usage
        }
        do throws(RunLimits.Shortage) {
            let limits = try RunLimits.check(concurrency: settings.concurrency)
            if let limit = limits.lowering {
                console.note("Sending \(limits.concurrency) request\(limits.concurrency == 1 ? "" : "s") at a time, not \(settings.concurrency): \(limit.option) is \(limit.value ?? 0)\(RunLimits.openAlready(limit)).")
            }
            settings.concurrency = limits.concurrency
        } catch {
            console.error(error.message)
            return .failure
        }
        let budget = RequestBudget(settings: settings)
        runtime.finishing(budget)
        // Line numbers only: a skipped line may hold the key.
        for notice in dotEnv.notices { console.note(notice) }
        for notice in settings.notices(before: options.mode) + budget.notices + budget.tightenedNotes { console.note(notice) }

        switch options.mode {
        case .help, .version, .completions, .manPage, .optionsMarkdown:
            return .success
        case .quota:
            let report = budget.quotaReport
            if let notice = budget.ledger?.takeNotice() { console.note(notice) }
            console.say(report)
            return .success
        case .cache(let clear):
            console.say(clear ? budget.clearCache() : budget.cacheReport)
            return .success
        case .interactive:
            guard postersFolderIsUsable(settings, console: console) else { return .usage }
            guard case let (client, catalogue)? = makeClient(settings, budget: budget, console: console, announceOffline: true) else { return .failure }
            let presenter = self.presenter(TextPresenter(console: console, currentDirectory: directory), terminal: runtime.terminal, budget: budget)
            // At the prompt a poster may be wanted any time; the connections open while the first title is typed.
            let warmup = settings.sendsKey ? Warmup(client: client, stateFolder: settings.stateFolder, postersToo: true) : nil
            warmup?.openAll()
            let input: Prompt.Input = if let reader = lineEditor(settings: settings, environment: environment, directory: directory,
                                                               console: console, terminal: runtime.terminal, typing: { warmup?.openAll() }) {
                .editor(reader)
            } else {
                .lines(LineReader())
            }
            let prompt = Prompt(console: console, input: input, interrupts: runtime.interrupts)
            let session = Session(client: client, settings: settings, console: console, presenter: presenter, currentDirectory: directory,
                                  budget: budget, offlineCatalogue: catalogue, warmup: warmup)
            session.inlineImages = InlineImages.detect(settings.inlineImages, environment: environment,
                                                       outputIsTerminal: isatty(STDOUT_FILENO) == 1)
            session.opener = Opener.find(environment: environment)
            session.ask = prompt.ask
            await prompt.run(session)
            return .success
        case let .search(query, pages, lines):
            guard hasKeyOrOffline(settings, console: console), postersFolderIsUsable(settings, console: console) else { return .usage }
            guard case let (client, catalogue)? = makeClient(settings, budget: budget, console: console, announceOffline: false) else { return .failure }
            let presenter: any Presenter = lines.map { JSONPresenter(console: console, format: $0) }
                ?? self.presenter(TextPresenter(console: console, currentDirectory: directory,
                                                moreHint: { $0.number < pages ? nil : "Use --pages \($0.number + 1) to see more." }),
                                  terminal: runtime.terminal, budget: budget, quietInput: true)
            let warmup = settings.sendsKey ? Warmup(client: client, stateFolder: settings.stateFolder, postersToo: settings.posters != nil) : nil
            let session = Session(client: client, settings: settings, console: console, presenter: presenter, currentDirectory: directory,
                                  budget: budget, offlineCatalogue: catalogue, warmup: warmup)
            // The search opens OMDb's host; the posters host opens right behind it.
            warmup?.openPostersHostAfterSearch()
            let status = await OneShot(session: session, interrupts: runtime.interrupts).run(query: query, pages: pages)
            // A damaged count found on the way, when no warning gave it already.
            if let notice = budget.ledger?.takeNotice() { console.note(notice) }
            return status
        case let .episodes(target, season, lines):
            guard hasKeyOrOffline(settings, console: console) else { return .usage }
            guard case let (client, catalogue)? = makeClient(settings, budget: budget, console: console, announceOffline: false) else { return .failure }
            let session = Session(client: client, settings: settings, console: console,
                                  presenter: TextPresenter(console: console, currentDirectory: directory), currentDirectory: directory,
                                  budget: budget, offlineCatalogue: catalogue)
            return await OneShot(session: session, interrupts: runtime.interrupts).run(episodesOf: target, season: season, lines: lines)
        case let .show(target, lines):
            guard hasKeyOrOffline(settings, console: console), postersFolderIsUsable(settings, console: console) else { return .usage }
            guard case let (client, _)? = makeClient(settings, budget: budget, console: console, announceOffline: false) else { return .failure }
            let session = Session(client: client, settings: settings, console: console,
                                  presenter: TextPresenter(console: console, currentDirectory: directory), currentDirectory: directory, budget: budget)
            return await OneShot(session: session, interrupts: runtime.interrupts).run { await session.showOne(target, lines: lines) }
        case .catalogue(let lines):
            guard let catalogue = offlineCatalogue(settings, console: console) else { return .failure }
            Session.listAll(catalogue, lines: lines, console: console)
            return .success
        }
    }

    /// What `--help`, `--version`, `completions`, `manpage` and `--help-markdown` print.
    static func text(for mode: Options.Mode) -> String? {
        switch mode {
        case .help: Manual.helpText
        case .version: versionLine
        case .completions(let shell): String(Completions.script(for: shell).dropLast())
        case .manPage: String(Manual.manPage.dropLast())
        case .optionsMarkdown: Manual.optionsMarkdown
        case .interactive, .search, .episodes, .show, .catalogue, .quota, .cache: nil
        }
    }

    /// A page that fills in place where stdout is a terminal (not `TERM=dumb`); `plain` lines otherwise.
    /// - Parameter quietInput: keys typed while the page fills are not echoed (one-shot mode).
    @MainActor
    static func presenter(_ plain: TextPresenter, terminal: Terminal, budget: RequestBudget?,
                          quietInput: Bool = false) -> any Presenter {
        guard plain.console.drawsLive, Terminal.size() != nil else { return plain }
        terminal.watchResizes()
        if quietInput, terminal.start() { terminal.set(.quiet) }
        return LivePresenter(plain: plain, terminal: terminal, budget: budget)
    }

    /// The line editor when stdin and stdout are terminals (not `TERM=dumb`); nil otherwise. History is
    /// off, said in one line, when its file or folder cannot be used.
    /// - Parameter typing: called as the person starts each line (connections that aged out reopen).
    static func lineEditor(settings: Settings, environment: [String: String], directory: URL, console: Console,
                           terminal: Terminal, typing: (@Sendable () -> Void)? = nil) -> TerminalLineReader? {
        guard isatty(STDOUT_FILENO) == 1, environment["TERM"] != "dumb", terminal.start() else { return nil }
        var history = HistoryFile.url(environment: environment).map { History(file: $0, secret: settings.apiKey?.value) }
        if let problem = history.flatMap(HistoryFile.problem(of:)) {
            console.note(problem)
            history = nil
        }
        for note in RequestBudget.tightenedNotes(history.map { [$0.file.deletingLastPathComponent()] } ?? []) { console.note(note) }
        return TerminalLineReader(prompt: Prompt.text, terminal: terminal, history: history, completer: CommandCompletion.fileSystem(base: directory, home: settings.home.map { URL(fileURLWithPath: $0) }),
                                  typing: typing)
    }

    /// False, with one line on stderr, when the poster folder cannot be used: said before any download.
    @MainActor
    static func postersFolderIsUsable(_ settings: Settings, console: Console) -> Bool {
        guard let folder = settings.posters, let problem = Session.posterFolderProblem(folder) else { return true }
        console.error("Cannot save posters in \(safe(folder.path)): \(problem). Choose another folder with --posters (or MOVIES_POSTERS).")
        return false
    }

    /// With no key, the read commands answer from the offline catalogue, saying so, unless a base URL was
    /// chosen: a script pointed at a server without its key must not get the catalogue's answer. False then.
    private static func hasKeyOrOffline(_ settings: Settings, console: Console) -> Bool {
        guard settings.apiKey == nil, !settings.offline else { return true }
        if !settings.baseURLChosen {
            console.note("No OMDb API key: answering from the offline catalogue. To search OMDb, set OMDB_API_KEY or put it in .env.")
            return true
        }
        console.error("No OMDb API key: set OMDB_API_KEY, put OMDB_API_KEY=… in .env, pass --api-key KEY, or use --offline for the offline catalogue.")
        return false
    }

    /// What the prompt says first offline: how to search OMDb, or (`--offline`) that the key is not used.
    static func offlineNotice(_ settings: Settings, titles: Int) -> String {
        guard settings.apiKey != nil else {
            return "Offline catalogue (\(settings.offline ? "--offline" : "no API key")): \(titles) titles. To search OMDb itself, set OMDB_API_KEY or put it in .env."
        }
        let key = ["OMDB_API_KEY in .env": "the key in .env", "OMDB_API_KEY": "the key in OMDB_API_KEY",
                   "--api-key": "the key given with --api-key"][settings.apiKeySource ?? ""] ?? "the API key"
        return "Offline catalogue (--offline): \(titles) titles; \(key) is not used."
    }

    /// The live client, or the offline catalogue's (and the catalogue) when there is no key or `--offline` says so.
    @MainActor
    static func makeClient(_ settings: Settings, budget: RequestBudget, console: Console,
                           announceOffline: Bool) -> (client: OMDbClient, catalogue: Catalogue?)? {
        if let key = settings.apiKey, !settings.offline {
            var configuration = OMDbClient.Configuration(apiKey: key, baseURL: settings.baseURL, timeout: settings.timeout,
                                                         maxConcurrentRequests: settings.concurrency)
            configuration.cache = budget.cacheInUse ? budget.cache : nil
            configuration.ledger = budget.ledger
            configuration.onKeyAccepted = budget.keyAccepted
            do {
                return (OMDbClient(configuration: configuration,
                                   transport: try CurlTransport(maxConnectionsPerHost: settings.concurrency, timeout: settings.timeout)), nil)
            } catch {
                console.error("Cannot reach OMDb: \(error.reason). \(error.advice) --offline works without it.")
                return nil
            }
        }
        guard let catalogue = offlineCatalogue(settings, console: console) else { return nil }
        if announceOffline { console.note(offlineNotice(settings, titles: catalogue.count)) }
        return (OMDbClient(configuration: .init(apiKey: CatalogueTransport.apiKey, baseURL: CatalogueTransport.baseURL, timeout: settings.timeout,
                                                maxConcurrentRequests: settings.concurrency),
                           transport: CatalogueTransport(catalogue: catalogue)), catalogue)
    }

    /// The offline catalogue installed with movies; `nil` after saying where it was looked for.
    static func offlineCatalogue(_ settings: Settings, console: Console) -> Catalogue? {
        guard let folder = Catalogue.defaultFolder(), var catalogue = try? Catalogue(folder: folder) else {
            console.error("The offline catalogue (catalogue.json) was not found beside movies (../share/movies): reinstall with make install, or set MOVIES_CATALOGUE to its folder.")
            return nil
        }
        // Amazon-style poster names only when a width needs them.
        catalogue.amazonStylePosters = settings.posterWidth != .standard
        return catalogue
    }
}
