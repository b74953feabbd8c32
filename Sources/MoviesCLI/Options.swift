import Foundation
import OMDbKit

/// A mistake in how the tool was called: exit status 2, with a one-line message.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What the command line asked for, before the environment and `.env` are consulted.
public struct Options: Equatable {
    public enum Mode: Equatable {
        /// `movies`: the prompt.
        case interactive
        /// `movies search QUERY…`: one search, then exit.
        case search(query: String, pages: Int, json: Bool)
        /// `movies episodes IMDBID|QUERY [--season S]`: one season's episodes, then exit.
        case episodes(target: String, season: Int, json: Bool)
        case help
        case version
        /// `movies quota`: today's request count for the key.
        case quota
        /// `movies cache`, `movies cache clear`.
        case cache(clear: Bool)
    }

    public var mode: Mode = .interactive
    public var apiKey: String?
    public var baseURL: URL?
    public var posters: String?
    /// `.some(nil)` is `--type any`.
    public var type: SearchType??
    public var year: Int??
    public var plot: PlotLength?
    public var timeout: Int?
    public var offline = false
    public var noColor = false
    public var posterWidth: PosterWidth?
    public var inlineImages: InlineImages.Setting?
    /// `--no-cache`: neither read nor write the disk cache.
    public var noCache = false
    /// `--cache-ttl`: seconds to keep answers, instead of OMDb's max-age.
    public var cacheLifetime: TimeInterval?
    /// `--daily-limit`: `.some(nil)` is `unlimited`.
    public var dailyLimit: Int??

    public init() {}

    /// Reads `arguments` (without the program name). Accepts `--name value` and `--name=value`.
    /// - Throws: ``UsageError`` for an unknown option, a missing or bad value.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var words: [String] = []
        var pages: Int?
        var json = false
        var season: Int?
        var index = 0
        var onlyWords = false

        func value(_ name: String, _ inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw UsageError("\(name) needs a value: see movies --help") }
            return arguments[index]
        }

        while index < arguments.count {
            let argument = arguments[index]
            if onlyWords || !argument.hasPrefix("-") || argument == "-" {
                words.append(argument)
                index += 1
                continue
            }
            let (name, inline) = split(argument)
            switch name {
            case "--": onlyWords = true
            case "-h", "--help": options.mode = .help
            case "-V", "--version": options.mode = .version
            case "--api-key": options.apiKey = try value(name, inline)
            case "--base-url": options.baseURL = try parseBaseURL(value(name, inline), source: name)
            case "--posters":
                let folder = try value(name, inline)
                guard !folder.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw UsageError("--posters needs a folder, such as --posters posters (leave it out for no posters)")
                }
                options.posters = folder
            case "--type": options.type = .some(try parseType(value(name, inline), source: name))
            case "--year": options.year = .some(try parseYear(value(name, inline), source: name))
            case "--plot": options.plot = try parsePlot(value(name, inline), source: name)
            case "--timeout": options.timeout = try parseTimeout(value(name, inline), source: name)
            case "--pages":
                let text = try value(name, inline)
                guard let number = Int(text), (1...100).contains(number) else {
                    throw UsageError("--pages takes a whole number from 1 to 100, not \"\(text)\"")
                }
                pages = number
            case "--json": json = true
            case "--season":
                let text = try value(name, inline)
                guard let number = Int(text), number >= 0 else { throw UsageError("--season takes a season number such as 2, not \"\(text)\"") }
                season = number
            case "--poster-width": options.posterWidth = try parsePosterWidth(value(name, inline), source: name)
            case "--inline-images": options.inlineImages = try parseInlineImages(value(name, inline), source: name)
            case "--offline": options.offline = true
            case "--no-color": options.noColor = true
            case "--no-cache": options.noCache = true
            case "--cache-ttl": options.cacheLifetime = try parseLifetime(value(name, inline), source: name)
            case "--daily-limit": options.dailyLimit = .some(try parseDailyLimit(value(name, inline), source: name))
            default: throw UsageError("unknown option \(name): see movies --help")
            }
            if inline != nil, ["--json", "--offline", "--no-color", "--no-cache", "--help", "--version"].contains(name) {
                throw UsageError("\(name) takes no value")
            }
            index += 1
        }

        if options.mode == .help || options.mode == .version { return options }
        guard let first = words.first else {
            if pages != nil || json { throw UsageError("--pages and --json go with: movies search QUERY") }
            return options
        }
        if first == "episodes" {
            guard pages == nil else { throw UsageError("--pages goes with search, not episodes") }
            let target = words.dropFirst().joined(separator: " ").trimmingCharacters(in: .whitespaces)
            guard !target.isEmpty else { throw UsageError("episodes needs a series: movies episodes IMDBID|QUERY [--season S]") }
            options.mode = .episodes(target: target, season: season ?? 1, json: json)
            return options
        }
        if season != nil { throw UsageError("--season goes with: movies episodes IMDBID|QUERY") }
        if pages != nil || json, first != "search" { throw UsageError("--pages and --json go with: movies search QUERY") }
        switch (first, words.count > 1 ? words[1] : nil, words.count) {
        case ("quota", nil, _): options.mode = .quota; return options
        case ("cache", nil, _): options.mode = .cache(clear: false); return options
        case ("cache", "clear"?, 2): options.mode = .cache(clear: true); return options
        case ("quota", _, _), ("cache", _, _): throw UsageError("\(first) takes \(first == "cache" ? "nothing or clear" : "nothing"): see movies --help")
        default: break
        }
        guard first == "search" else {
            throw UsageError("unknown command \"\(first)\": use `movies` for the prompt, `movies search QUERY`, `movies episodes IMDBID|QUERY`, `movies quota` or `movies cache`")
        }
        let query = words.dropFirst().joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { throw UsageError("search needs a title: movies search QUERY") }
        options.mode = .search(query: query, pages: pages ?? 1, json: json)
        return options
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}

// The key never shows in a description, a debug description or a dump.
extension Options: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { redactedDescription(of: self) }
    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "mode": mode, "apiKey": redacted(apiKey) as Any, "baseURL": baseURL?.absoluteString as Any, "posters": posters as Any,
            "type": type.map { $0?.rawValue ?? "any" } as Any, "year": year.map { $0.map(String.init) ?? "any" } as Any,
            "plot": plot as Any, "timeout": timeout as Any,
            "offline": offline, "noColor": noColor, "posterWidth": posterWidth as Any, "inlineImages": inlineImages as Any,
            "noCache": noCache, "cacheLifetime": cacheLifetime as Any,
            "dailyLimit": dailyLimit.map { $0.map(String.init) ?? "unlimited" } as Any,
        ], displayStyle: .struct)
    }
}

/// `***` for a secret that is set, `nil` for one that is not.
func redacted(_ secret: String?) -> String? { secret.map { _ in "***" } }

/// `Name(field: value, …)` from `value`'s (redacting) custom mirror, optionals shown unwrapped.
func redactedDescription(of value: some CustomReflectable) -> String {
    func text(_ any: Any) -> String {
        let mirror = Mirror(reflecting: any)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return "nil" }
            return text(wrapped)
        }
        if let string = any as? String { return "\"\(string)\"" }
        return String(describing: any)
    }
    let fields = value.customMirror.children.map { "\($0.label ?? "_"): \(text($0.value))" }
    return "\(type(of: value))(\(fields.joined(separator: ", ")))"
}

// MARK: - Values shared by options, the environment and prompt commands

/// `movie`, `series`, `episode`, or `any` (no filter, `nil`).
func parseType(_ text: String, source: String) throws(UsageError) -> SearchType? {
    let lowered = text.lowercased()
    if lowered == "any" || lowered == "all" { return nil }
    guard let type = SearchType(rawValue: lowered) else {
        throw UsageError("\(source) takes movie, series, episode or any, not \"\(text)\"")
    }
    return type
}

/// A four-digit year, or `any` (no filter, `nil`).
func parseYear(_ text: String, source: String) throws(UsageError) -> Int? {
    if text.lowercased() == "any" { return nil }
    guard text.count == 4, let year = Int(text), (1870...2100).contains(year) else {
        throw UsageError("\(source) takes a year such as 1984, or any, not \"\(text)\"")
    }
    return year
}

func parsePlot(_ text: String, source: String) throws(UsageError) -> PlotLength {
    guard let plot = PlotLength(rawValue: text.lowercased()) else {
        throw UsageError("\(source) takes short or full, not \"\(text)\"")
    }
    return plot
}

/// Whole seconds, at least 1: URLSession on Linux cannot time out sooner.
func parseTimeout(_ text: String, source: String) throws(UsageError) -> Int {
    guard let seconds = Int(text), (1...600).contains(seconds) else {
        throw UsageError("\(source) takes whole seconds from 1 to 600, not \"\(text)\"")
    }
    return seconds
}

/// `300`, `600`, `1000` or `original`.
func parsePosterWidth(_ text: String, source: String) throws(UsageError) -> PosterWidth {
    guard let width = PosterWidth(text) else {
        throw UsageError("\(source) takes \(PosterWidth.choices.joined(separator: ", ")), not \"\(text)\"")
    }
    return width
}

/// `auto`, `iterm`, `kitty`, `blocks` or `off`.
func parseInlineImages(_ text: String, source: String) throws(UsageError) -> InlineImages.Setting {
    guard let setting = InlineImages.Setting(rawValue: text.lowercased()) else {
        throw UsageError("\(source) takes auto, iterm, kitty, blocks or off, not \"\(text)\"")
    }
    return setting
}

func parseBaseURL(_ text: String, source: String) throws(UsageError) -> URL {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
          url.host?.isEmpty == false else {
        throw UsageError("\(source) takes an http or https URL such as https://www.omdbapi.com/, not \"\(text)\"")
    }
    return url
}
