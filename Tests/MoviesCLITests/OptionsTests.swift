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
        switch name {
        case "--api-key": expected.apiKey = APIKey(value)
        case "--base-url": expected.baseURL = URL(string: value)
        case "--posters": expected.posters = value
        case "--type": expected.type = .some(.series)
        case "--year": expected.year = .some(1984)
        case "--plot": expected.plot = .full
        case "--timeout": expected.timeout = 30
        case "--pages": expected.mode = .search(query: "alien", pages: 3, lines: nil)
        case "--concurrency": expected.concurrency = 5
        default: Issue.record("no expectation for \(name)")
        }
        #expect(options == expected)
    }

    @Test func flagsAreRead() throws {
        let options = try Options.parse(["search", "alien", "--json", "--offline", "--no-color", "--no-prefetch"])
        #expect(options.mode == .search(query: "alien", pages: 1, lines: .json(fields: nil)))
        #expect(options.noPrefetch)
        #expect(options.offline)
        #expect(options.noColor)
    }

    @Test func noArgumentsIsThePrompt() throws {
        let options = try Options.parse([])
        #expect(options == Options())
        #expect(options.mode == .interactive)
    }

    @Test func optionsWithoutACommandStillGiveThePrompt() throws {
        let options = try Options.parse(["--type", "movie", "--year=any", "--offline"])
        #expect(options.mode == .interactive)
        #expect(options.type == .some(.movie))
        #expect(options.year == .some(nil))
        #expect(options.offline)
    }

    @Test func typeAnyAndYearAnyMeanNoFilter() throws {
        let options = try Options.parse(["--type", "any", "--year", "ANY"])
        #expect(options.type == .some(nil))
        #expect(options.year == .some(nil))
    }

    @Test func searchJoinsSeveralWords() throws {
        let options = try Options.parse(["search", "the", "toxic", "avenger", "--pages", "2"])
        #expect(options.mode == .search(query: "the toxic avenger", pages: 2, lines: nil))
    }

    @Test func optionsMayComeBeforeSearch() throws {
        let options = try Options.parse(["--json", "search", "star", "--offline", "trek"])
        #expect(options.mode == .search(query: "star trek", pages: 1, lines: .json(fields: nil)))
        #expect(options.offline)
    }

    @Test func doubleDashEndsOptions() throws {
        let options = try Options.parse(["search", "--", "--json", "-x", "--pages=2"])
        #expect(options.mode == .search(query: "--json -x --pages=2", pages: 1, lines: nil))
    }

    @Test func aLoneDashIsAWord() throws {
        let options = try Options.parse(["search", "-"])
        #expect(options.mode == .search(query: "-", pages: 1, lines: nil))
    }

    @Test(arguments: [["--help"], ["-h"], ["--help", "search"], ["search", "x", "--help"], ["--json", "-h"], ["nonsense", "--help"]])
    func helpWins(arguments: [String]) throws {
        #expect(try Options.parse(arguments).mode == .help)
    }

    @Test(arguments: [["--version"], ["-V"], ["search", "x", "--version"], ["--pages", "2", "-V"], ["search", "--version"]])
    func versionWins(arguments: [String]) throws {
        #expect(try Options.parse(arguments).mode == .version)
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
        let error = #expect(throws: UsageError.self) { try Options.parse(arguments) }
        for word in mentions {
            #expect(error?.message.contains(word) == true, "\(error?.message ?? "no error") should mention \(word)")
        }
    }

    @Test func unknownOptionIsAUsageError() {
        #expect(throws: UsageError("unknown option --colour: see movies --help")) { try Options.parse(["--colour"]) }
    }

    @Test func missingValueIsAUsageError() {
        #expect(throws: UsageError("--timeout needs a value: see movies --help")) { try Options.parse(["--timeout"]) }
    }

    @Test func descriptionDebugDescriptionAndDumpHideTheKey() throws {
        let options = try Options.parse(["search", "alien", "--api-key", "sekrit-key-42", "--posters", "shots"])
        var dumped = ""
        dump(options, to: &dumped)
        for text in [String(describing: options), String(reflecting: options), "\(options)", dumped] {
            #expect(!text.contains("sekrit-key-42"), "the key shows in \(text)")
            #expect(text.contains("***"), "\(text) does not say a key is set")
            #expect(text.contains("shots"), "\(text) lost the other fields")
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
        let error = #expect(throws: UsageError.self) { try Options.parse(arguments) }
        #expect(error.map { !$0.message.contains("sekrit1234") } == true, "\(error?.message ?? "no error")")
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
        let error = #expect(throws: UsageError.self) { try Options.parse([argument]) }
        #expect(error?.message.contains("did you mean \(suggestion)?") == true, "\(error?.message ?? "no error")")
    }

    @Test func keyIsTrimmedOfBlanksAndLineEnds() throws {
        #expect(try Options.parse(["--api-key", " k3y\r\n"]).apiKey == "k3y")
        #expect(try Options.parse(["--api-key=\tk3y "]).apiKey == "k3y")
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
        #expect(try Options.parse(["manpage"]).mode == .manPage)
        #expect(try Options.parse(["--help-markdown"]).mode == .optionsMarkdown)
    }

    @Test func versionNamesTheToolTheLibraryTheCompilerAndThePlatform() {
        let line = Movies.versionLine
        #expect(line.hasPrefix("movies \(Movies.version) (OMDbKit \(OMDbKit.version), Swift 6."))
        #expect(line.range(of: #"^movies \d+\.\d+\.\d+ \(OMDbKit \d+\.\d+\.\d+, Swift [\d.]+[^,]*, \w+ \w+\)$"#, options: .regularExpression) != nil, "\(line)")
        #if os(Linux) && arch(x86_64)
        #expect(line.hasSuffix(", Linux x86_64)"))
        #endif
    }
}
