import Files
import Foundation
import OMDbKit
import TerminalImages

/// Everything a run needs, resolved from the options, then the environment, then `.env`, then defaults.
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
    /// Requests in flight at once: by default a whole page and the next page's search together.
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
    var cacheFolder = XDGFolder.cache.url(environment: [:])
    /// `$XDG_STATE_HOME/movies`, by default `~/.local/state/movies`: the daily count.
    var stateFolder = XDGFolder.state.url(environment: [:])
    /// The environment's `HOME`: what `~` means in poster folders.
    var home: String?
    /// Notices for stderr (a base URL that is not OMDb's, a `.env` setting ignored); never the key.
    var notices: [String] = []
    /// The one of `notices` that says requests go to a base URL other than OMDb's, if any.
    var baseURLNotice: String?

    static let defaultConcurrency = 24

    /// Merges options over `environment` over `dotEnv`, row by row of ``OptionSpec/all``, then applies
    /// ``guardKey(baseSource:keySource:)``.
    /// - Throws: ``UsageError`` for a bad value (naming its variable), or a key that would go in clear.
    static func resolve(_ options: Options, environment: [String: String], dotEnv: [String: String],
                        currentDirectory: URL) throws(UsageError) -> Settings {
        // For the variables that are no option's.
        func read<T>(_ name: String, _ parse: (String, String) throws(UsageError) -> T) throws(UsageError) -> T? {
            if let value = environment[name], !value.isEmpty { return try parse(value, name) }
            if let value = dotEnv[name], !value.isEmpty { return try parse(value, "\(name) in .env") }
            return nil
        }
        var options = options
        var sources: [String: String] = [:]
        // Only options with a value: a flag's variable (NO_COLOR) is Console's.
        for spec in OptionSpec.all where spec.placeholder != nil {
            guard let variable = spec.environment else { continue }
            if options.given.contains(spec.name) { sources[spec.name] = spec.name; continue }
            for (values, source) in [(environment, variable), (dotEnv, "\(variable) in .env")] {
                guard let text = values[variable], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
                try spec.read(text, into: &options, source: source)
                sources[spec.name] = source
                break
            }
        }
        var settings = options.settings
        if let home = environment["HOME"], !home.isEmpty { settings.home = home }
        settings.apiKey = settings.apiKey.flatMap { $0.isEmpty ? nil : $0 }
        settings.apiKeySource = sources["--api-key"]
        settings.baseURLChosen = sources["--base-url"] != nil
        settings.posters = options.posters.map { posterFolder($0, relativeTo: currentDirectory, home: settings.home) }
        // `--no-prefetch` and `--no-cache` win over MOVIES_PREFETCH and MOVIES_CACHE.
        if settings.prefetch { settings.prefetch = try read("MOVIES_PREFETCH", parseSwitch) ?? true }
        try settings.guardKey(baseSource: sources["--base-url"], keySource: sources["--api-key"])
        settings.cacheFolder = XDGFolder.cache.url(environment: environment)
        settings.stateFolder = XDGFolder.state.url(environment: environment)
        if settings.cache { settings.cache = try read("MOVIES_CACHE", parseSwitch) ?? true }
        settings.cacheMaxBytes = try read("MOVIES_CACHE_SIZE", parseSize) ?? settings.cacheMaxBytes
        return settings
    }

    /// Whether the key will be sent to ``baseURL`` (not when offline, or with no key).
    var sendsKey: Bool { apiKey != nil && !offline }

    /// Whether a base URL was chosen: then a one-shot run with no key is a mistake, not an offline search.
    var baseURLChosen = false

    /// The rules that keep the key home: a base URL from `.env` only with that `.env`'s key (a cloned
    /// repository must not redirect the user's key); another host is named; never in clear but to this machine.
    mutating func guardKey(baseSource: String?, keySource: String?) throws(UsageError) {
        guard sendsKey else { return }
        if let baseSource, baseSource.hasSuffix(" in .env"), keySource?.hasSuffix(" in .env") != true,
           baseURL != OMDbClient.Configuration.defaultBaseURL {
            notices.append("Ignoring \(baseSource): it is used only with OMDB_API_KEY from the same .env, and the key comes from \(keySource ?? "elsewhere").")
            baseURL = OMDbClient.Configuration.defaultBaseURL
            return
        }
        let host = baseURL.host ?? ""
        // Printable, whatever %-escapes the address held.
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

    /// The notices worth printing before `mode`: where requests go is noise before one that sends none.
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

    /// `~` and `~/…` expanded from `home` (else the process's), `~user` from the account database, relative
    /// paths from `directory`.
    static func posterFolder(_ text: String, relativeTo directory: URL, home: String?) -> URL {
        var expanded = text
        if text == "~" || text.hasPrefix("~/") {
            var home = [home, ProcessInfo.processInfo.environment["HOME"]].compactMap { $0 }.first { !$0.isEmpty }
                ?? FileManager.default.homeDirectoryForCurrentUser.path
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
}

