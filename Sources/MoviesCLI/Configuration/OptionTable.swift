import Foundation
import OMDbKit

// The options of `movies`. Adding one is a row here, a field in `Settings` (or `Options`), and its use.
extension OptionSpec {
    static let all: [OptionSpec] = [
        .value("--api-key", "KEY", help: "your OMDb API key",
               default: "none: the offline catalogue answers",
               environment: "OMDB_API_KEY", secret: true, into: \.settings.apiKey) { text, _ in APIKey(text) },
        .value("--base-url", "URL", help: "OMDb's address; the key goes in clear (http) only to this machine",
               default: OMDbClient.Configuration.defaultBaseURL.absoluteString,
               environment: "OMDB_BASE_URL", into: \.settings.baseURL, parse: parseBaseURL),
        .value("--posters", "DIR", help: "save posters into DIR, created if missing", default: "off",
               completion: .directories, environment: "MOVIES_POSTERS", into: \.posters) { (text: String, source: String) throws(UsageError) -> String? in
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError("\(source) needs a folder, such as --posters posters (leave it out for no posters)")
            }
            // As the prompt's `posters` refuses it: a name that cannot be shown or typed back.
            guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw UsageError("\(source) \"\(safe(text))\" holds control characters (such as a line break), which make a folder name that cannot be shown or typed: choose a name without them")
            }
            return text
        },
        .value("--poster-width", "WIDTH", help: "download posters 300 (OMDb's), 600, 1000 or original pixels wide; a wider one replaces a narrower file, and if it fails OMDb's is saved",
               default: "300", completion: .values(PosterWidth.choices), environment: "MOVIES_POSTER_WIDTH",
               into: \.settings.posterWidth, parse: parsePosterWidth),
        .value("--inline-images", "MODE", help: "draw posters in show N: auto, iterm, kitty, blocks or off (never when output is not a terminal)",
               default: "auto", completion: .values(["auto", "iterm", "kitty", "blocks", "off"]),
               environment: "MOVIES_INLINE_IMAGES", into: \.settings.inlineImages,
               parse: parseChoice("auto, iterm, kitty, blocks or off")),
        .value("--type", "TYPE", help: "only movie, series, episode, or any", default: "any",
               completion: .values(["movie", "series", "episode", "any"]), into: \.settings.type, parse: parseType),
        .value("--year", "YYYY", help: "only titles of that year, or any", default: "any",
               completion: .values(["any"]), into: \.settings.year, parse: parseYear),
        .value("--plot", "LENGTH", help: "plot length in results: short or full", default: "short",
               completion: .values(["short", "full"]), into: \.settings.plot, parse: parseChoice("short or full")),
        .value("--timeout", "SECONDS", help: "limit for each try of a request, whole seconds from 1 to 600 (a request that times out is tried 3 times in all)", default: "10",
               into: \.settings.timeout, parse: parseNumber(in: 1...600, "whole seconds from 1 to 600")),
        .value("--concurrency", "N", help: "requests in flight at once, 1 to 100: a whole page and the next page's search go out together",
               default: String(Settings.defaultConcurrency), environment: "MOVIES_CONCURRENCY",
               into: \.settings.concurrency, parse: parseNumber(in: 1...100, "a whole number of requests from 1 to 100")),
        .flag("--no-prefetch", help: "at the prompt, do not fetch the next page's search while a page is shown (also MOVIES_PREFETCH=off)",
              default: "prefetch on", into: \.settings.prefetch, false),
        .flag("--offline", help: "use the offline catalogue installed with movies, no key needed",
              default: "OMDb when a key is set", into: \.settings.offline),
        .flag("--no-cache", help: "neither read nor keep answers on disk (also MOVIES_CACHE=off)", default: "cache on", into: \.settings.cache, false),
        .value("--cache-ttl", "TIME", help: "keep answers for TIME (3600, 30m, 24h, 7d) instead of OMDb's max-age",
               default: "OMDb's max-age, a day", environment: "MOVIES_CACHE_TTL",
               into: \.settings.cacheLifetime, parse: parseLifetime),
        .value("--daily-limit", "N", help: "the key's requests a day, or unlimited", default: "1000",
               environment: "MOVIES_DAILY_LIMIT", into: \.settings.dailyLimit, parse: parseDailyLimit),
        .value("--pages", "N", help: "load N pages, from 1 to 100", default: "1", scope: .commands(["search"]), into: \.pages,
               parse: parseNumber(in: 1...100, "a whole number from 1 to 100")),
        OptionSpec(name: "--json", inlineValue: "FIELDS", defaultText: "text", help: "one JSON object per line; --json=title,year for only those keys",
                   scope: lineCommands, apply: { (options: inout Options, text: String?, source: String) throws(UsageError) in
                       options.json = true
                       if let text { try options.pick(parseFields(text, source: source)) }
                   }),
        OptionSpec(name: "--fields", placeholder: "FIELDS", completion: .values(Set(lineCommands.names.flatMap(LineFormat.fieldNames)).sorted()),
                   defaultText: "every key",
                   help: "with --json, only these keys of each line (title,year); a name the command has not is refused, listing those it has",
                   scope: lineCommands, apply: { (options: inout Options, text: String?, source: String) throws(UsageError) in
                       try options.pick(parseFields(text ?? "", source: source))
                   }),
        .value("--format", "TEMPLATE", help: "one line per result from TEMPLATE: {name} for any key of --json's lines, \\t and \\n for tab and newline, as in '{imdbID}\\t{title} ({year})'",
               default: "text", scope: lineCommands, into: \.format) { (text: String, source: String) throws(UsageError) -> LineTemplate? in
            guard !text.isEmpty else { throw UsageError("\(source) needs a template, such as '{imdbID}\\t{title} ({year})'") }
            return LineTemplate(text)
        },
        // Some series have a season 0 of specials.
        .value("--season", "S", help: "the season to list", default: "1", scope: .commands(["episodes"]), into: \.season,
               parse: parseNumber(in: 0...Int.max, "a season number such as 2")),
        .flag("--quiet", short: "-q", help: "nothing on stderr but errors, and why nothing was found: no notes or warnings",
              default: "notes on", into: \.quiet),
        .flag("--no-color", help: "no colour (also when NO_COLOR is set or output is not a terminal)",
              default: "colour on a terminal", environment: "NO_COLOR", into: \.noColor),
        .mode("--help", short: "-h", help: "this help", .help),
        .mode("--version", short: "-V", help: "the version of movies, OMDbKit, Swift and the platform", .version),
        .mode("--help-markdown", help: "README's table of options, in Markdown", hidden: true, .optionsMarkdown),
    ]

    /// The commands whose results a script may read: `--json`, `--fields` and `--format` go with them.
    static let lineCommands = Scope.commands(["search", "show", "episodes", "catalogue"])

    /// The row for `argument` (`--type`, `-h`), if any.
    static func named(_ argument: String) -> OptionSpec? { all.first { argument == $0.name || argument == $0.short } }

    /// The rows people see.
    static var visible: [OptionSpec] { all.filter { !$0.hidden } }
}

extension CommandSpec {
    /// The words that pick a one-shot command; without one, `movies` runs the prompt.
    static let all: [CommandSpec] = [
        CommandSpec(name: "search", arguments: "QUERY...", help: "one search for scripts; results on stdout"),
        CommandSpec(name: "show", arguments: "IMDBID|LINK|TITLE",
                    help: "one title's details for scripts: by IMDb ID or link, or OMDb's match for that exact title (with --year, --type); --json for every field"),
        CommandSpec(name: "episodes", arguments: "IMDBID|QUERY", help: "a season's episodes; a QUERY means the first series a search finds"),
        CommandSpec(name: "catalogue", arguments: "", help: "every title of the offline catalogue, which answers when there is no key"),
        CommandSpec(name: "quota", arguments: "", help: "requests sent today with the key (UTC day)"),
        CommandSpec(name: "cache", arguments: "[clear]", help: "the answers kept on disk; clear empties it", values: ["clear"]),
        CommandSpec(name: "completions", arguments: "SHELL", help: "the completion script for bash, zsh or fish",
                    values: Options.Shell.allCases.map(\.rawValue)),
        CommandSpec(name: "manpage", arguments: "", help: "the manual page movies(1), in roff"),
    ]
}

extension Options {
    /// Sets the keys `--json` writes, given once (`--json=FIELDS` or `--fields FIELDS`).
    mutating func pick(_ names: [String]) throws(UsageError) {
        guard fields == nil else { throw UsageError("give the fields once: --json=title,year, or --json --fields title,year") }
        fields = names
    }
}
