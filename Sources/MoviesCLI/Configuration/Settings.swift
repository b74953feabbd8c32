import Foundation
import OMDbKit
import TerminalImages

/// Everything a run needs, resolved in order: command-line options, then the environment,
/// then `.env` in the working directory, then defaults.
struct Settings: Equatable {
    /// `nil` when no key was given anywhere: the prompt then runs on the offline catalogue.
    var apiKey: APIKey?
    /// Where the key came from (`--api-key`, `OMDB_API_KEY`, `OMDB_API_KEY in .env`), for messages.
    var apiKeySource: String?
    var baseURL: URL = OMDbClient.Configuration.defaultBaseURL
    var posters: URL?
    var type: SearchType?
    var year: Int?
    var plot: PlotLength = .short
    var timeout = 10
    /// Requests in flight at once. The default lets a whole page (10 records and 10 posters)
    /// and the next page's prefetched search go out together.
    var concurrency = Settings.defaultConcurrency
    /// Whether the prompt fetches the next page's search while a page is shown, so `more` only waits for the rows.
    var prefetch = true
    var offline = false
    /// How wide posters are downloaded (`--poster-width`, `MOVIES_POSTER_WIDTH`).
    var posterWidth: PosterWidth = .standard
    /// Whether `show` draws posters (`--inline-images`, `MOVIES_INLINE_IMAGES`); `auto` asks the terminal's environment.
    var inlineImages: InlineImages.Setting = .auto
    /// Keep OMDb's answers on disk; off with `--no-cache` or `MOVIES_CACHE=off`.
    var cache = true
    /// Seconds to keep answers instead of OMDb's `max-age` (`--cache-ttl`, `MOVIES_CACHE_TTL`).
    var cacheLifetime: TimeInterval?
    /// The cache's size bound in bytes (`MOVIES_CACHE_SIZE`).
    var cacheMaxBytes = DiskCache.defaultMaxBytes
    /// The key's requests a day; `nil` for no limit (`--daily-limit`, `MOVIES_DAILY_LIMIT`).
    var dailyLimit: Int? = QuotaLedger.defaultDailyLimit
    /// `$XDG_CACHE_HOME/movies`, by default `~/.cache/movies`.
    var cacheFolder = DiskCache.defaultFolder(environment: [:])
    /// `$XDG_STATE_HOME/movies`, by default `~/.local/state/movies`: the daily count.
    var stateFolder = QuotaLedger.defaultFolder(environment: [:])
    /// `HOME` from the environment given to ``resolve(_:environment:dotEnv:currentDirectory:)``
    /// (`nil` when it had none): what `~` means in poster folders, the prompt's included.
    var home: String?
    /// One-line notices for stderr that resolving gave (a base URL that is not OMDb's, a
    /// `.env` setting ignored). Never holds the key.
    var notices: [String] = []
    /// The one of `notices` that says requests go to a base URL other than OMDb's, if any.
    var baseURLNotice: String?

    /// The settings the environment variables name, as `.env.example` documents them.
    enum Variable {
        static let apiKey = "OMDB_API_KEY"
        static let baseURL = "OMDB_BASE_URL"
        static let posters = "MOVIES_POSTERS"
        static let posterWidth = "MOVIES_POSTER_WIDTH"
        static let inlineImages = "MOVIES_INLINE_IMAGES"
        static let opener = "MOVIES_OPENER"
        static let concurrency = "MOVIES_CONCURRENCY"
        static let prefetch = "MOVIES_PREFETCH"
        static let cache = "MOVIES_CACHE"
        static let cacheLifetime = "MOVIES_CACHE_TTL"
        static let cacheSize = "MOVIES_CACHE_SIZE"
        static let dailyLimit = "MOVIES_DAILY_LIMIT"
    }

    static let defaultConcurrency = 24

    /// Merges options over `environment` over `dotEnv`, row by row of ``OptionSpec/all``:
    /// an option not given takes its variable from the environment, else from `.env`, parsed
    /// as the option would be. Then the key's safety rules apply (see ``guardKey(baseSource:keySource:)``).
    /// - Throws: ``UsageError`` when a variable holds a bad value (it names the variable), or
    ///   when the key would go in clear to a host that is not this machine.
    static func resolve(_ options: Options, environment: [String: String], dotEnv: [String: String],
                               currentDirectory: URL) throws(UsageError) -> Settings {
        // For the variables that are no option's (MOVIES_CACHE, MOVIES_CACHE_SIZE).
        func lookup(_ name: String) -> (value: String, source: String)? {
            if let value = environment[name], !value.isEmpty { return (value, name) }
            if let value = dotEnv[name], !value.isEmpty { return (value, "\(name) in .env") }
            return nil
        }
        var options = options
        var sources: [String: String] = [:]
        // Only options with a value read their variable: a flag's (NO_COLOR) is Console's to check.
        for spec in OptionSpec.all where spec.placeholder != nil {
            guard let variable = spec.environment else { continue }
            if spec.isSet(options) { sources[spec.name] = spec.name; continue }
            for (values, source) in [(environment, variable), (spec.dotEnv ? dotEnv : [:], "\(variable) in .env")] {
                guard let text = values[variable], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
                try spec.read(text, into: &options, source: source)
                sources[spec.name] = source
                break
            }
        }
        var settings = Settings()
        if let home = environment["HOME"], !home.isEmpty { settings.home = home }
        settings.apiKey = options.apiKey.flatMap { $0.isEmpty ? nil : $0 }
        settings.apiKeySource = sources["--api-key"]
        settings.baseURL = options.baseURL ?? settings.baseURL
        settings.baseURLChosen = sources["--base-url"] != nil
        if let folder = options.posters {
            settings.posters = posterFolder(folder, relativeTo: currentDirectory, home: settings.home)
        }
        settings.type = options.type ?? nil
        settings.year = options.year ?? nil
        settings.plot = options.plot ?? .short
        settings.timeout = options.timeout ?? 10
        if let count = options.concurrency { settings.concurrency = count }
        if options.noPrefetch {
            settings.prefetch = false
        } else if let (text, source) = lookup(Variable.prefetch) {
            settings.prefetch = try parseSwitch(text, source: source)
        }
        settings.offline = options.offline
        if let width = options.posterWidth { settings.posterWidth = width }
        if let setting = options.inlineImages { settings.inlineImages = setting }
        try settings.guardKey(baseSource: sources["--base-url"], keySource: sources["--api-key"])
        try resolveSpending(&settings, options, environment: environment, lookup: lookup)
        return settings
    }

    /// Whether the key will be sent to ``baseURL`` (not when offline, or with no key).
    var sendsKey: Bool { apiKey != nil && !offline }

    /// Whether a base URL was chosen (`--base-url`, `OMDB_BASE_URL`, `.env`): then a one-shot
    /// run with no key is a mistake to report, not a search of the offline catalogue.
    var baseURLChosen = false

    /// The rules that keep the key home. A base URL from `.env` is used only with the key of
    /// that same `.env` (a cloned repository's `.env` must not redirect the user's own key);
    /// a host other than OMDb's is named in a notice; the key never goes in clear (http) to a
    /// host that is not this machine.
    mutating func guardKey(baseSource: String?, keySource: String?) throws(UsageError) {
        guard sendsKey else { return }
        if let baseSource, baseSource.hasSuffix(" in .env"), keySource?.hasSuffix(" in .env") != true,
           baseURL != OMDbClient.Configuration.defaultBaseURL {
            notices.append("Ignoring \(baseSource): it is used only with OMDB_API_KEY from the same .env, and the key comes from \(keySource ?? "elsewhere").")
            baseURL = OMDbClient.Configuration.defaultBaseURL
            return
        }
        let host = baseURL.host ?? ""
        // Shown to the person: printable, whatever %-escapes the address held (ESC, BEL, NUL).
        let shownHost = PrintableText.clean(host)
        let source = baseSource ?? "--base-url"
        if baseURL.scheme?.lowercased() == "http", !Self.isLoopback(host) {
            throw UsageError("\(source) is http://\(shownHost): the key would travel in clear; use an https:// address instead")
        }
        if host.lowercased() != Self.omdbHost {
            let notice = "Note: OMDb requests go to \(shownHost) (from \(source)), not to OMDb's \(Self.omdbHost)."
            notices.append(notice)
            baseURLNotice = notice
        }
    }

    /// The notices worth printing before `mode` runs: `quota`, `cache` and `catalogue` send no
    /// request, so where requests would go is only noise before them.
    func notices(before mode: Options.Mode) -> [String] {
        switch mode {
        case .quota, .cache, .catalogue: notices.filter { $0 != baseURLNotice }
        default: notices
        }
    }

    static let omdbHost = OMDbClient.Configuration.defaultBaseURL.host ?? "www.omdbapi.com"

    /// `localhost`, 127.0.0.0/8 and ::1: the only hosts that may receive the key over http.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// `~` and `~/…` expanded from `home` (the environment's `HOME`; when `nil` or empty, the
    /// process's `HOME`, then the account's home folder), `~user` from the account database,
    /// relative paths taken from `directory`.
    static func posterFolder(_ text: String, relativeTo directory: URL, home: String?) -> URL {
        var expanded = text
        if text == "~" || text.hasPrefix("~/") {
            var home = home.flatMap { $0.isEmpty ? nil : $0 } ?? defaultHome()
            while home.count > 1, home.hasSuffix("/") { home.removeLast() }
            let rest = text.dropFirst()
            expanded = home == "/" && !rest.isEmpty ? String(rest) : home + rest
        } else if text.hasPrefix("~") {
            expanded = NSString(string: text).expandingTildeInPath
        }
        return expanded.hasPrefix("/")
            ? URL(fileURLWithPath: expanded, isDirectory: true)
            : directory.appendingPathComponent(expanded, isDirectory: true)
    }

    private static func defaultHome() -> String {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { return home }
        return FileManager.default.homeDirectoryForCurrentUser.path
    }
}

