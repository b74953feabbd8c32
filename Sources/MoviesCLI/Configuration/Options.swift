import Foundation
import OMDbKit
import TerminalImages

/// A mistake in how the tool was called: exit status 2, with a one-line message.
struct UsageError: Error, Equatable, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// What the command line asked for, before the environment and `.env` are consulted.
/// Each option is a row of ``OptionSpec/all``; this type only holds what they read.
struct Options: Equatable {
    enum Mode: Equatable, Sendable {
        /// `movies`: the prompt.
        case interactive
        // `lines`: how results are written for a script (`--json`, `--format`); `nil` for people.
        /// `movies search QUERY…`: one search, then exit.
        case search(query: String, pages: Int, lines: LineFormat?)
        /// `movies episodes IMDBID|QUERY [--season S]`: one season's episodes, then exit.
        case episodes(target: String, season: Int, lines: LineFormat?)
        /// `movies show IMDBID|LINK|TITLE [--json]`: one title's details, then exit.
        case show(target: String, lines: LineFormat?)
        /// `movies catalogue`: every title of the offline catalogue, then exit.
        case catalogue(lines: LineFormat?)
        case help
        case version
        case completions(Shell)
        case manPage
        /// `movies --help-markdown` (hidden): README's table of options.
        case optionsMarkdown
        case quota
        case cache(clear: Bool)
    }

    enum Shell: String, CaseIterable, Sendable { case bash, zsh, fish }

    var mode: Mode = .interactive
    /// What the options set, over the defaults: ``Settings/resolve(_:environment:dotEnv:currentDirectory:)``
    /// adds what the environment and `.env` set.
    var settings = Settings()
    /// The names of the options given, which the environment and `.env` do not override.
    var given: Set<String> = []
    /// `--posters` as typed: a folder once the working one is known.
    var posters: String?
    var noColor = false
    var quiet = false
    // Read by their rows, then folded into the one-shot modes (`.search(query:pages:lines:)`…)
    // and reset: they only mean something there.
    var pages: Int?
    var json = false
    var season: Int?
    /// `--json=FIELDS` or `--fields FIELDS`: the keys of `--json`'s lines.
    var fields: [String]?
    var format: LineTemplate?

    /// Reads `arguments` (without the program name), `--name value` or `--name=value`.
    /// - Throws: ``UsageError`` for an unknown option, a missing or bad value; never showing what may be the key.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var words: [String] = []
        var given: [OptionSpec] = []
        var index = 0
        var onlyWords = false

        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyWords || !argument.hasPrefix("-") || argument == "-" {
                words.append(argument)
                continue
            }
            if argument == "--" { onlyWords = true; continue }
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let (name, inline) = (parts[0], parts.count > 1 ? parts[1] : nil)
            guard let spec = OptionSpec.named(name) else { throw UsageError(unknownOption(name)) }
            if spec.placeholder == nil {
                guard inline == nil || spec.inlineValue != nil else { throw UsageError("\(name) takes no value") }
                try spec.read(inline, into: &options, source: name)
            } else if let text = inline {
                try spec.read(text, into: &options, source: spec.name)
            } else {
                guard index < arguments.count else { throw UsageError("\(name) needs a value: see movies --help") }
                try spec.read(arguments[index], into: &options, source: spec.name)
                index += 1
            }
            given.append(spec)
            options.given.insert(spec.name)
        }

        // `--help` and `--version` win over anything else on the line, help first.
        if given.contains(where: { $0.scope == .instead }) {
            if given.contains(where: { $0.name == "--help" }) { options.mode = .help }
        } else {
            try options.readCommand(words, given: given)
        }
        (options.pages, options.json, options.season, options.fields, options.format) = (nil, false, nil, nil, nil)
        return options
    }

    /// Settles the mode from the words that are not options.
    private mutating func readCommand(_ words: [String], given: [OptionSpec]) throws(UsageError) {
        guard let first = words.first else { return try Self.checkScope(of: given, command: nil) }
        // What `search`, `episodes` and `show` are about.
        let target = words.dropFirst().joined(separator: " ").trimmingCharacters(in: .whitespaces)
        switch first {
        case "search":
            guard !target.isEmpty else { throw UsageError("search needs a title: movies search QUERY") }
            mode = .search(query: target, pages: pages ?? 1, lines: try lineFormat(for: first))
        case "episodes":
            guard !target.isEmpty else { throw UsageError("episodes needs a series: movies episodes IMDBID|QUERY [--season S]") }
            mode = .episodes(target: target, season: season ?? 1, lines: try lineFormat(for: first))
        case "show":
            guard !target.isEmpty else { throw UsageError("show needs a title: movies show IMDBID|LINK|TITLE [--json]") }
            // A link to a person or a list is refused before any request is spent on it.
            if case .notATitle(let why)? = IMDbReference(target) { throw UsageError(why) }
            mode = .show(target: target, lines: try lineFormat(for: first))
        case "catalogue", "manpage", "quota":
            let usage = ["catalogue": "movies catalogue [--json]", "manpage": "movies manpage > movies.1"][first] ?? "see movies --help"
            guard words.count == 1 else { throw UsageError("\(first) takes nothing: \(usage)") }
            mode = first == "catalogue" ? .catalogue(lines: try lineFormat(for: first)) : first == "quota" ? .quota : .manPage
        case "completions":
            let shells = Shell.allCases.map(\.rawValue).joined(separator: ", ")
            guard words.count == 2, let shell = Shell(rawValue: words[1]) else {
                throw UsageError("completions takes one shell, \(shells): such as movies completions bash")
            }
            mode = .completions(shell)
        case "cache":
            guard words.count == 1 || (words.count == 2 && words[1] == "clear") else {
                throw UsageError("cache takes nothing or clear: see movies --help")
            }
            mode = .cache(clear: words.count == 2)
        default:
            let shown = Self.mayBeAKey(first) ? "" : " \"\(first)\""
            let commands = CommandSpec.all.map(\.name).joined(separator: ", ")
            throw UsageError("unknown command\(shown): use `movies` for the prompt, or a command (\(commands)): see movies --help")
        }
        try Self.checkScope(of: given, command: first)
    }

    /// How `command` writes its results: `nil` for people, else `--json`'s or `--format`'s lines, their
    /// names checked against `command`'s keys.
    private func lineFormat(for command: String) throws(UsageError) -> LineFormat? {
        let lines: LineFormat
        switch (json, fields, format) {
        case (true, _, _?): throw UsageError("--format writes lines of its own, --json writes JSON: give one of them")
        case (false, _?, _): throw UsageError("--fields picks the keys of --json's lines: add --json, or write --json=title,year")
        case (true, let fields, nil): lines = .json(fields: fields)
        case (false, nil, let template?): lines = .template(template)
        case (false, nil, nil): return nil
        }
        try lines.check(against: LineFormat.fieldNames(of: command), command: command)
        return lines
    }

    /// Refuses options given without the command they go with (`--pages` without `search`).
    private static func checkScope(of given: [OptionSpec], command: String?) throws(UsageError) {
        for spec in given {
            guard case .commands(let names) = spec.scope, !names.contains(command ?? "") else { continue }
            let misplaced = given.filter { $0.scope == spec.scope }.map(\.name)
            let usage = CommandSpec.all.filter { names.contains($0.name) }.map { ["movies", $0.name, $0.arguments].filter { !$0.isEmpty }.joined(separator: " ") }
            throw UsageError("\(Set(misplaced).sorted().joined(separator: " and ")) go with: \(usage.joined(separator: " or "))")
        }
    }

    /// Names the unknown option (never what followed its `=`), with the option it resembles.
    private static func unknownOption(_ name: String) -> String {
        func letters(_ text: String) -> String { text.lowercased().filter { $0.isLetter || $0.isNumber } }
        let shown = mayBeAKey(name.drop { $0 == "-" }.description) ? "(not shown: it may be a key)" : name
        let names = OptionSpec.visible.map(\.name)
        // `--josn`: two edits or fewer from an option (a word that may be a key is never compared).
        let like = names.first { letters($0) == letters(name) } ?? (shown == name && name.hasPrefix("--")
            ? DidYouMean.closest(to: String(name.dropFirst(2)), among: names.map { String($0.dropFirst(2)) }).map { "--" + $0 } : nil)
        return "unknown option \(shown): " + (like.map { "did you mean \($0)? See movies --help" } ?? "see movies --help")
    }

    /// Whether a word has the shape of an OMDb key (8 or more letters and digits, with digits): left out of messages.
    static func mayBeAKey(_ word: String) -> Bool {
        word.count >= 8 && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } && word.contains { $0.isNumber }
    }
}

// MARK: - Values shared by options, the environment and prompt commands

/// What `read` makes of `text`; when nothing, a ``UsageError`` saying what `source` takes instead.
func parse<T>(_ text: String, _ source: String, takes what: String, _ read: (String) -> T?) throws(UsageError) -> T {
    guard let value = read(text) else { throw UsageError("\(source) takes \(what), not \"\(text)\"") }
    return value
}

/// `movie`, `series`, `episode`, or `any` (no filter, `nil`).
func parseType(_ text: String, source: String) throws(UsageError) -> SearchType? {
    try parse(text, source, takes: "movie, series, episode or any") {
        ["any", "all"].contains($0.lowercased()) ? .some(nil) : SearchType(rawValue: $0.lowercased()).map(Optional.some)
    }
}

/// A four-digit year, or `any` (no filter, `nil`).
func parseYear(_ text: String, source: String) throws(UsageError) -> Int? {
    try parse(text, source, takes: "a year of four digits from 1870 to 2100, such as 1984, or any") { text in
        if text.lowercased() == "any" { return .some(nil) }
        guard text.count == 4, let year = Int(text), (1870...2100).contains(year) else { return nil }
        return year
    }
}

/// A parser of whole numbers in `range`; its error says the option `takes WHAT`.
func parseNumber(in range: ClosedRange<Int>, _ what: String) -> @Sendable (String, String) throws(UsageError) -> Int {
    { (text: String, source: String) throws(UsageError) -> Int in
        try parse(text, source, takes: what) { Int($0).flatMap { range.contains($0) ? $0 : nil } }
    }
}

/// A parser of `T`'s raw values, in any case; its error says the option `takes CHOICES`.
func parseChoice<T: RawRepresentable<String> & Sendable>(_ choices: String) -> @Sendable (String, String) throws(UsageError) -> T {
    { (text: String, source: String) throws(UsageError) -> T in
        try parse(text, source, takes: choices) { T(rawValue: $0.lowercased()) }
    }
}

/// `300`, `600`, `1000` or `original`.
func parsePosterWidth(_ text: String, source: String) throws(UsageError) -> PosterWidth {
    try parse(text, source, takes: PosterWidth.choices.joined(separator: ", "), PosterWidth.init)
}

/// `title,year`: the keys `--json` writes (checked against the command's once it is known).
func parseFields(_ text: String, source: String) throws(UsageError) -> [String] {
    try parse(text, source, takes: "field names with commas between them, such as title,year") { text in
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return names.isEmpty || names.contains(where: \.isEmpty) ? nil : names
    }
}

func parseBaseURL(_ text: String, source: String) throws(UsageError) -> URL {
    try parse(text, source, takes: "an http or https URL such as https://www.omdbapi.com/") { text in
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()),
              url.host?.isEmpty == false else { return nil }
        return url
    }
}

/// `on`/`off` and their usual spellings.
func parseSwitch(_ text: String, source: String) throws(UsageError) -> Bool {
    try parse(text, source, takes: "on or off") {
        ["on": true, "1": true, "yes": true, "true": true, "off": false, "0": false, "no": false, "false": false][$0.lowercased()]
    }
}

/// `3600`, `90s`, `30m`, `24h`, `7d`: how long answers are kept. `0` keeps nothing.
func parseLifetime(_ text: String, source: String) throws(UsageError) -> TimeInterval {
    try parse(text, source, takes: "a duration such as 3600, 30m, 24h or 7d") { text in
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        let unit = lowered.last.flatMap { ["s": 1, "m": 60, "h": 3_600, "d": 86_400][$0] }
        guard let number = Int(unit == nil ? lowered : String(lowered.dropLast())), number >= 0,
              number <= Int(DiskCache.maximumLifetime) / (unit ?? 1) else { return nil }
        return TimeInterval(number * (unit ?? 1))
    }
}

/// `50MB`, `500KB`, `1GB` or a number of bytes: the cache's size bound.
func parseSize(_ text: String, source: String) throws(UsageError) -> Int {
    try parse(text, source, takes: "a size such as 50MB, 500KB or 1GB") { text in
        let units = [("gb", 1_000_000_000), ("mb", 1_000_000), ("kb", 1_000), ("g", 1_000_000_000), ("m", 1_000_000), ("k", 1_000), ("b", 1)]
        let lowered = text.lowercased().replacingOccurrences(of: " ", with: "")
        let (suffix, factor) = units.first { lowered.hasSuffix($0.0) } ?? ("", 1)
        guard let number = Int(lowered.dropLast(suffix.count)), number >= 0, number <= Int.max / factor else { return nil }
        return number * factor
    }
}

/// A number of requests a day, or `unlimited` (`nil`).
func parseDailyLimit(_ text: String, source: String) throws(UsageError) -> Int? {
    try parse(text, source, takes: "a number of requests a day such as 1000 or 100000, or unlimited") { text in
        let lowered = text.lowercased().replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "_", with: "")
        if ["unlimited", "none", "no"].contains(lowered) { return .some(nil) }
        guard let limit = Int(lowered), limit >= 1 else { return nil }
        return limit
    }
}
