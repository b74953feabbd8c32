import Foundation
import OMDbKit

/// Everything a run needs, resolved in order: command-line options, then the environment,
/// then `.env` in the working directory, then defaults.
public struct Settings: Equatable {
    /// `nil` when no key was given anywhere: the prompt then runs on the offline catalogue.
    public var apiKey: String?
    public var baseURL: URL = OMDbClient.Configuration.defaultBaseURL
    public var posters: URL?
    public var type: SearchType?
    public var year: Int?
    public var plot: PlotLength = .short
    public var timeout = 10
    public var offline = false
    /// How wide posters are downloaded (`--poster-width`, `MOVIES_POSTER_WIDTH`).
    public var posterWidth: PosterWidth = .standard
    /// Whether `show` draws posters (`--inline-images`, `MOVIES_INLINE_IMAGES`); `auto` asks the terminal's environment.
    public var inlineImages: InlineImages.Setting = .auto
    /// Keep OMDb's answers on disk; off with `--no-cache` or `MOVIES_CACHE=off`.
    public var cache = true
    /// Seconds to keep answers instead of OMDb's `max-age` (`--cache-ttl`, `MOVIES_CACHE_TTL`).
    public var cacheLifetime: TimeInterval?
    /// The cache's size bound in bytes (`MOVIES_CACHE_SIZE`).
    public var cacheMaxBytes = DiskCache.defaultMaxBytes
    /// The key's requests a day; `nil` for no limit (`--daily-limit`, `MOVIES_DAILY_LIMIT`).
    public var dailyLimit: Int? = QuotaLedger.defaultDailyLimit
    /// `$XDG_CACHE_HOME/movies`, by default `~/.cache/movies`.
    public var cacheFolder = DiskCache.defaultFolder(environment: [:])
    /// `$XDG_STATE_HOME/movies`, by default `~/.local/state/movies`: the daily count.
    public var stateFolder = QuotaLedger.defaultFolder(environment: [:])
    /// `HOME` from the environment given to ``resolve(_:environment:dotEnv:currentDirectory:)``
    /// (`nil` when it had none): what `~` means in poster folders, the prompt's included.
    public var home: String?

    /// The settings the environment variables name, as `.env.example` documents them.
    public enum Variable {
        public static let apiKey = "OMDB_API_KEY"
        public static let baseURL = "OMDB_BASE_URL"
        public static let posters = "MOVIES_POSTERS"
        public static let posterWidth = "MOVIES_POSTER_WIDTH"
        public static let inlineImages = "MOVIES_INLINE_IMAGES"
        public static let opener = "MOVIES_OPENER"
        public static let cache = "MOVIES_CACHE"
        public static let cacheLifetime = "MOVIES_CACHE_TTL"
        public static let cacheSize = "MOVIES_CACHE_SIZE"
        public static let dailyLimit = "MOVIES_DAILY_LIMIT"
    }

    /// Merges options over `environment` over `dotEnv`.
    /// - Throws: ``UsageError`` when a variable holds a bad value (it names the variable).
    public static func resolve(_ options: Options, environment: [String: String], dotEnv: [String: String],
                               currentDirectory: URL) throws(UsageError) -> Settings {
        func lookup(_ name: String) -> (value: String, source: String)? {
            if let value = environment[name], !value.isEmpty { return (value, name) }
            if let value = dotEnv[name], !value.isEmpty { return (value, "\(name) in .env") }
            return nil
        }
        var settings = Settings()
        if let home = environment["HOME"], !home.isEmpty { settings.home = home }
        settings.apiKey = options.apiKey ?? lookup(Variable.apiKey)?.value
        if settings.apiKey?.trimmingCharacters(in: .whitespaces).isEmpty == true { settings.apiKey = nil }
        if let url = options.baseURL {
            settings.baseURL = url
        } else if let (text, source) = lookup(Variable.baseURL) {
            settings.baseURL = try parseBaseURL(text, source: source)
        }
        if let folder = options.posters ?? lookup(Variable.posters)?.value {
            settings.posters = posterFolder(folder, relativeTo: currentDirectory, home: settings.home)
        }
        settings.type = options.type ?? nil
        settings.year = options.year ?? nil
        settings.plot = options.plot ?? .short
        settings.timeout = options.timeout ?? 10
        settings.offline = options.offline
        if let width = options.posterWidth {
            settings.posterWidth = width
        } else if let (text, source) = lookup(Variable.posterWidth) {
            settings.posterWidth = try parsePosterWidth(text, source: source)
        }
        if let setting = options.inlineImages {
            settings.inlineImages = setting
        } else if let (text, source) = lookup(Variable.inlineImages) {
            settings.inlineImages = try parseInlineImages(text, source: source)
        }
        try resolveSpending(&settings, options, environment: environment, lookup: lookup)
        return settings
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

    /// Kept for callers that have no environment at hand: `~` is the process's `HOME`.
    static func posterFolder(_ text: String, relativeTo directory: URL) -> URL {
        posterFolder(text, relativeTo: directory, home: nil)
    }

    private static func defaultHome() -> String {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { return home }
        return FileManager.default.homeDirectoryForCurrentUser.path
    }
}

// The key never shows in a description, a debug description or a dump.
extension Settings: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { redactedDescription(of: self) }
    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "apiKey": redacted(apiKey) as Any, "baseURL": baseURL.absoluteString, "posters": posters?.path as Any, "type": type as Any,
            "year": year as Any, "plot": plot, "timeout": timeout, "offline": offline, "home": home as Any,
            "posterWidth": posterWidth, "inlineImages": inlineImages,
            "cache": cache, "cacheLifetime": cacheLifetime as Any, "cacheMaxBytes": cacheMaxBytes, "dailyLimit": dailyLimit as Any,
            "cacheFolder": cacheFolder.path, "stateFolder": stateFolder.path,
        ], displayStyle: .struct)
    }
}
