import Foundation
import OMDbKit
import Testing
@testable import MoviesCLI

@Suite struct OptionsTests {
    enum Form: String, CaseIterable, Sendable { case separate, inline }

    static let valued = ["--api-key", "--base-url", "--posters", "--type", "--year", "--plot", "--timeout", "--pages", "--concurrency"]
    static let sample: [String: String] = [
        "--api-key": "KEY=with=equals", "--base-url": "http://127.0.0.1:8080/", "--posters": "~/posters",
        "--type": "series", "--year": "1984", "--plot": "full", "--timeout": "30", "--pages": "3", "--concurrency": "5",
    ]

    @Test(arguments: valued, Form.allCases)
    func everyValuedOptionIsReadInBothForms(name: String, form: Form) throws {
        let value = try #require(Self.sample[name])
        let option = form == .inline ? ["\(name)=\(value)"] : [name, value]
        let options = try Options.parse(["search", "alien"] + option)

        var expected = Options()
        expected.mode = .search(query: "alien", pages: 1, lines: nil)
        expected.given = [name]
        switch name {
        case "--api-key": expected.settings.apiKey = APIKey(value)
        case "--base-url": expected.settings.baseURL = try #require(URL(string: value))
        case "--posters": expected.posters = value
        case "--type": expected.settings.type = .series
        case "--year": expected.settings.year = 1984
        case "--plot": expected.settings.plot = .full
        case "--timeout": expected.settings.timeout = 30
        case "--pages": expected.mode = .search(query: "alien", pages: 3, lines: nil)
        case "--concurrency": expected.settings.concurrency = 5
        default: Issue.record("no expectation for \(name)")
        }
        #expect(options == expected)
    }

    @Test func flagsAreRead() throws {
        var expected = Options()
        expected.mode = .search(query: "alien", pages: 1, lines: .json(fields: nil))
        (expected.settings.prefetch, expected.settings.offline, expected.noColor) = (false, true, true)
        expected.given = ["--json", "--offline", "--no-color", "--no-prefetch"]
        #expect(try Options.parse(["search", "alien", "--json", "--offline", "--no-color", "--no-prefetch"]) == expected)
    }

    @Test func optionsWithoutACommandGiveThePromptAndAnyMeansNoFilter() throws {
        #expect(try Options.parse([]) == Options() && Options().mode == .interactive)
        var expected = Options()
        (expected.settings.type, expected.settings.offline, expected.given) = (.movie, true, ["--type", "--year", "--offline"])
        var any = Options()
        any.given = ["--type", "--year"]
        #expect(try [Options.parse(["--type", "movie", "--year=any", "--offline"]), Options.parse(["--type", "any", "--year", "ANY"])] == [expected, any])
    }

    /// Words joined, options before the command or among its words, `--` and a lone `-`.
    @Test func searchTakesItsWordsWhereverTheOptionsAre() throws {
        let options = try [["search", "the", "toxic", "avenger", "--pages", "2"], ["--json", "search", "star", "--offline", "trek"],
                           ["search", "--", "--json", "-x", "--pages=2"], ["search", "-"]].map(Options.parse)
        let expected: [Options.Mode] = [.search(query: "the toxic avenger", pages: 2, lines: nil), .search(query: "star trek", pages: 1, lines: .json(fields: nil)),
                                        .search(query: "--json -x --pages=2", pages: 1, lines: nil), .search(query: "-", pages: 1, lines: nil)]
        #expect(options.map(\.mode) == expected && options[1].settings.offline)
    }

    @Test func helpAndVersionWin() throws {
        let help = try [["--help"], ["-h"], ["--help", "search"], ["search", "x", "--help"], ["--json", "-h"], ["nonsense", "--help"]].map(Options.parse)
        let version = try [["--version"], ["-V"], ["search", "x", "--version"], ["--pages", "2", "-V"], ["search", "--version"]].map(Options.parse)
        #expect(help.map(\.mode) == Array(repeating: .help, count: 6) && version.map(\.mode) == Array(repeating: .version, count: 5))
    }

    /// Each bad command line, and words its message must contain.
    static let usageErrors: [(arguments: [String], mentions: [String])] = [
        (["search", "x", "--pages", "0"], ["--pages", "\"0\""]),
        (["search", "x", "--pages", "x"], ["--pages", "\"x\""]),
        (["search", "x", "--pages=101"], ["--pages", "\"101\""]),
        (["--type", "nonsense"], ["--type", "\"nonsense\""]),
        (["--type=nonsense"], ["--type", "\"nonsense\""]),
        (["--year", "84"], ["--year", "\"84\""]),
        (["--year=84"], ["--year", "\"84\""]),
        (["--plot", "long"], ["--plot", "\"long\""]),
        (["--timeout", "0"], ["--timeout", "\"0\""]),
        (["--concurrency", "0"], ["--concurrency", "\"0\""]),
        (["--concurrency=101"], ["--concurrency", "\"101\""]),
        (["--timeout", "0.5"], ["--timeout", "\"0.5\""]),
        (["--timeout=0.5"], ["--timeout", "\"0.5\""]),
        (["--base-url", "ftp://x"], ["--base-url", "\"ftp://x\""]),
        (["--base-url=ftp://x"], ["--base-url", "\"ftp://x\""]),
        (["--base-url", "http://"], ["--base-url", "\"http://\""]),
        (["--bogus"], ["unknown option", "--bogus"]),
        (["--bogus=1"], ["unknown option", "--bogus"]),
        (["-x"], ["unknown option", "-x"]),
        (["--api-key"], ["--api-key", "needs a value"]),
        (["search", "x", "--year"], ["--year", "needs a value"]),
        (["--json"], ["--json", "search"]),
        (["--pages", "2"], ["--pages", "search"]),
        (["--offline=yes", "search", "x"], ["--offline", "takes no value"]),
        (["--json=yes", "search", "x"], ["unknown field \"yes\" for --json", "movies search has", "imdbID"]),
        (["search"], ["search needs a title"]),
        (["search", "  "], ["search needs a title"]),
        (["find", "alien"], ["unknown command", "\"find\""]),
        (["--posters", ""], ["--posters needs a folder"]),
        (["--posters="], ["--posters needs a folder"]),
        (["search", "x", "--posters", "  "], ["--posters needs a folder"]),
    ]

    @Test(arguments: usageErrors)
    func badCommandLineIsAUsageErrorNamingTheCulprit(arguments: [String], mentions: [String]) {
        let message = usageMessage { try Options.parse(arguments) }
        #expect(mentions.filter { !message.contains($0) } == [], "\(message)")
    }

    @Test func unknownOptionsAndMissingValuesAreUsageErrors() {
        #expect([usageMessage { try Options.parse(["--colour"]) }, usageMessage { try Options.parse(["--timeout"]) }]
            == ["unknown option --colour: see movies --help", "--timeout needs a value: see movies --help"])
    }

    @Test func descriptionDebugDescriptionAndDumpHideTheKey() throws {
        let options = try Options.parse(["search", "alien", "--api-key", "sekrit-key-42", "--posters", "shots"])
        var dumped = ""
        dump(options, to: &dumped)
        for text in [String(describing: options), String(reflecting: options), "\(options)", dumped] {
            #expect(!text.contains("sekrit-key-42") && text.contains("***") && text.contains("shots"),
                    "the key shows, or no key is said to be set, or the other fields are lost: \(text)")
        }
        #expect(!String(describing: Options()).contains("***"))
    }

    /// Typos around the key: the message names the mistake, never the value.
    static let keyTypos: [[String]] = [
        ["-apikey=sekrit1234"], ["--apikey=sekrit1234"], ["-api-key=sekrit1234"], ["--api_key=sekrit1234", "search", "x"],
        ["-sekrit1234"], ["--api-key=", "sekrit1234"], ["sekrit1234"], ["--json=sekrit1234"], ["--offline=sekrit1234"],
        ["completions", "sekrit1234"], ["manpage", "sekrit1234"], ["--base-url", "sekrit1234"], ["--type=sekrit1234"],
        ["--api-key", "sekrit1234", "--timeout", "sekrit1234"],
    ]

    @Test(arguments: keyTypos)
    func usageErrorsNeverShowAValueThatMayBeTheKey(arguments: [String]) {
        let message = usageMessage { try Options.parse(arguments) }
        #expect(!message.contains("sekrit1234"), "\(message)")
    }

    /// A number with the shape of a key is no key to hide behind "looks like a key": its length says what it is.
    @Test(arguments: [
        (["search", "x", "--year", "12345678"], "--year takes a year of four digits from 1870 to 2100, such as 1984, or any, not a number of 8 digits"),
        (["--timeout=123456789"], "--timeout takes whole seconds from 1 to 600, not a number of 9 digits"),
        (["--cache-ttl", "99999999d"], "--cache-ttl takes a duration such as 3600, 30m, 24h or 7d, not a number of 8 digits and d"),
        (["--year", "1a2b3c4d"], "--year takes a year of four digits from 1870 to 2100, such as 1984, or any, not a value that looks like a key (not shown)"),
    ])
    func aNumberIsToldByItsLengthNotAsAKey(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try Options.parse(arguments) }
    }

    @Test(arguments: [("-apikey=x", "--api-key"), ("--apikey", "--api-key"), ("--baseurl=x", "--base-url"), ("--nocolor", "--no-color"), ("-type", "--type"),
                      ("--josn", "--json"), ("--offlien", "--offline"), ("--timout=3", "--timeout")])
    func aMisspeltOptionNamesTheRightOne(argument: String, suggestion: String) {
        let message = usageMessage { try Options.parse([argument]) }
        #expect(message.contains("did you mean \(suggestion)?"), "\(message)")
    }

    @Test func keyIsTrimmedOfBlanksAndLineEnds() throws {
        #expect(try [Options.parse(["--api-key", " k3y\r\n"]), Options.parse(["--api-key=\tk3y "])].map(\.settings.apiKey) == ["k3y", "k3y"])
    }

    @Test(arguments: Options.Shell.allCases)
    func completionsTakesAShell(shell: Options.Shell) throws {
        #expect(try Options.parse(["completions", shell.rawValue]).mode == .completions(shell))
    }

    @Test(arguments: [["completions"], ["completions", "tcsh"], ["completions", "bash", "zsh"], ["manpage", "x"], ["manpage", "--json"]])
    func completionsAndManpageRefuseOtherWords(arguments: [String]) {
        #expect(throws: UsageError.self) { try Options.parse(arguments) }
    }

    @Test func manpageAndTheHiddenMarkdownTable() throws {
        #expect(try [Options.parse(["manpage"]).mode, Options.parse(["--help-markdown"]).mode] == [.manPage, .optionsMarkdown])
    }

    @Test func versionNamesTheToolTheLibraryTheCompilerAndThePlatform() {
        let line = Movies.versionLine
        #expect(line.hasPrefix("movies \(OMDbKit.version) (OMDbKit \(OMDbKit.version), Swift 6.") && line.range(of: #"^movies \d+\.\d+\.\d+ \(OMDbKit \d+\.\d+\.\d+, Swift [\d.]+[^,]*, \w+ \w+\)$"#, options: .regularExpression) != nil, "\(line)")
        #if os(Linux) && arch(x86_64)
        #expect(line.hasSuffix(", Linux x86_64)"))
        #endif
    }
}
