import Foundation
import OMDbKit
import OMDbTestSupport
import Testing
@testable import MoviesCLI
import TestSupport

/// Cache and quota settings, commands, and the answers to OMDb's "no", without a process.
@Suite struct SpendingTests {
    func resolve(_ arguments: [String] = [], environment: [String: String] = [:], dotEnv: [String: String] = [:]) throws -> Settings {
        try Settings.resolve(Options.parse(arguments), environment: environment, dotEnv: dotEnv,
                             currentDirectory: URL(fileURLWithPath: "/work", isDirectory: true))
    }

    @Test func settingsComeFromOptionsThenEnvironmentThenDotEnv() throws {
        let defaults = try resolve(environment: ["HOME": "/h"])
        #expect(defaults.cache && defaults.cacheLifetime == nil && defaults.cacheMaxBytes == 50_000_000 && defaults.dailyLimit == 1_000)
        #expect(defaults.cacheFolder.path == "/h/.cache/movies" && defaults.stateFolder.path == "/h/.local/state/movies")
        let environment = ["MOVIES_CACHE": "off", "MOVIES_CACHE_TTL": "2h", "MOVIES_CACHE_SIZE": "5MB", "MOVIES_DAILY_LIMIT": "100,000",
                           "XDG_CACHE_HOME": "/c", "XDG_STATE_HOME": "/s"]
        let fromEnvironment = try resolve(environment: environment)
        #expect(!fromEnvironment.cache && fromEnvironment.cacheLifetime == 7_200 && fromEnvironment.cacheMaxBytes == 5_000_000)
        #expect(fromEnvironment.dailyLimit == 100_000)
        #expect(fromEnvironment.cacheFolder.path == "/c/movies" && fromEnvironment.stateFolder.path == "/s/movies")
        let fromOptions = try resolve(["--cache-ttl", "30m", "--daily-limit", "unlimited"], environment: environment)
        #expect(fromOptions.cacheLifetime == 1_800 && fromOptions.dailyLimit == nil)
        #expect(try resolve(["--no-cache"], dotEnv: ["MOVIES_CACHE": "on"]).cache == false)
        #expect(try resolve(dotEnv: ["MOVIES_DAILY_LIMIT": "250000"]).dailyLimit == 250_000)
    }

    @Test(arguments: [["--cache-ttl", "soon"], ["--daily-limit", "0"], ["--no-cache=1"], ["quota", "now"], ["cache", "empty"]])
    func badValuesAreUsageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try Options.parse(arguments) }
    }

    @Test(arguments: [(["MOVIES_CACHE": "maybe"], "MOVIES_CACHE"), (["MOVIES_CACHE_SIZE": "lots"], "MOVIES_CACHE_SIZE"),
                      (["MOVIES_DAILY_LIMIT": "-3"], "MOVIES_DAILY_LIMIT")])
    func badVariablesNameThemselves(environment: [String: String], name: String) {
        #expect { try resolve(environment: environment) } throws: { ($0 as? UsageError)?.message.hasPrefix(name) == true }
    }

    @Test func quotaAndCacheAreCommandsOnTheCommandLineAndAtThePrompt() throws {
        #expect(try Options.parse(["quota"]).mode == .quota)
        #expect(try Options.parse(["cache"]).mode == .cache(clear: false))
        #expect(try Options.parse(["cache", "clear"]).mode == .cache(clear: true))
        #expect(Command(parsing: "quota") == .quota)
        #expect(Command(parsing: "cache") == .cache(clear: false))
        #expect(Command(parsing: "Cache Clear") == .cache(clear: true))
        #expect(Command(parsing: "caché") == .search("caché"))
    }

    @Test(arguments: [("Schindler's List", "Schindlers List"), ("spider-man: far from home", "spider man far from home"),
                      ("toxic!", "toxic"), ("C++", "C"), ("alien", nil), ("?!", nil), ("Amélie", nil)] as [(String, String?)])
    func punctuationIsDroppedForTheSecondTry(query: String, plain: String?) {
        #expect(Session.withoutPunctuation(query) == plain)
    }

    @MainActor @Test func tooManyResultsShowsTheExactTitleOffline() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.search("up"))
        #expect(capture.outLines.first == "Results for \"up\": page 1 of 1, 1 in all")
        #expect(capture.out.contains("  1. Up (2009)  movie  tt1049413"))
        #expect(capture.out.contains("balloons"))
        #expect(capture.err.contains("add a word, a type or a year"))
        #expect(!session.hadFailure)
        #expect(session.rows.count == 1)
    }

    /// Answers `s=` with "Too many results." and `t=` with `answer`.
    struct TooManyTransport: InMemoryTransport {
        let answer: String
        let status: Int
        func answer(_ url: URL, timeout: Int) async throws -> HTTPResponse {
            let isExact = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.contains { $0.name == "t" } == true
            let body = isExact ? answer : #"{"Response":"False","Error":"Too many results."}"#
            return HTTPResponse(statusCode: isExact ? status : 200, body: Data(body.utf8), contentType: "application/json")
        }
    }

    @MainActor @Test(arguments: [
        (#"{"Response":"False","Error":"Movie not found!"}"#, 200, "Too many results for \"up\": use a longer title"),
        (#"{"Response":"False","Error":"Request limit reached!"}"#, 401, "error: The API key's daily request limit is spent"),
    ])
    func whenTheExactTitleFailsTheMoreUsefulErrorIsShown(answer: String, status: Int, message: String) async throws {
        let capture = Capture()
        let console = capture.console()
        let client = OMDbClient(configuration: .init(apiKey: "stub-key", baseURL: StubTransport.baseURL),
                                transport: TooManyTransport(answer: answer, status: status))
        let session = Session(client: client, settings: Settings(), console: console,
                              presenter: TextPresenter(console: console, currentDirectory: URL(fileURLWithPath: "/")),
                              currentDirectory: URL(fileURLWithPath: "/"))
        await session.handle(.search("up"))
        #expect(capture.err.hasPrefix(message))
        #expect(capture.out.isEmpty)
        #expect(session.hadFailure)
    }

    /// The warning counts down to the limit, and past it says the limit is reached (a hostile pass
    /// saw "90 % … is reached, requests today: 1,260 of 1,000 …, 0 left").
    @Test(arguments: [(9, "Warning: 90 % of the key's daily limit is reached, requests today: 9 of 10 (UTC day), 1 left:"),
                      (12, "Warning: the key's daily limit is reached by this tool's count, requests today: 12 of 10 (UTC day): OMDb may refuse")])
    func theWarningSaysHowFarTheCountIs(sent: Int, start: String) throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let ledger = QuotaLedger(folder: folder, apiKey: "k-123456", dailyLimit: 10)
        for _ in 0..<sent { ledger.recordRequestSent() }
        let budget = RequestBudget(cache: DiskCache(folder: folder.appendingPathComponent("c")), cacheInUse: true, ledger: ledger)
        let warning = budget.warningIfDue() ?? ""
        #expect(warning.hasPrefix(start), "\(warning)")
        #expect(budget.warningIfDue() == nil, "once a day")
    }

    @MainActor @Test func helpShowsTheCountWhenThereIsOne() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let ledger = QuotaLedger(folder: folder, apiKey: "k-123456")
        for _ in 0..<37 { ledger.recordRequestSent() }
        let budget = RequestBudget(cache: DiskCache(folder: folder.appendingPathComponent("c")), cacheInUse: true, ledger: ledger)
        let capture = Capture()
        let console = capture.console()
        let session = Session(client: try catalogueClient(), settings: Settings(), console: console,
                              presenter: TextPresenter(console: console, currentDirectory: folder), currentDirectory: folder, budget: budget)
        await session.handle(.help(nil))
        #expect(capture.outLines.last == "requests today: 37 of 1,000 (UTC day)")
        #expect(session.requestsToday == "requests today: 37 of 1,000 (UTC day)")
    }

    @Test(arguments: [(0, "0 bytes"), (999, "999 bytes"), (1_000, "1 KB"), (34_567, "34.6 KB"), (50_000_000, "50 MB"), (123_456_789, "123 MB")])
    func sizesAreShortAndDecimal(bytes: Int, text: String) {
        #expect(RequestBudget.size(bytes) == text)
    }
}
