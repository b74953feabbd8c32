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
        /// Cache on, lifetime, size, daily limit, cache and state folders.
        func spending(_ settings: Settings) -> [String] {
            [String(settings.cache), settings.cacheLifetime.map { String(Int($0)) } ?? "forever", String(settings.cacheMaxBytes),
             settings.dailyLimit.map(String.init) ?? "unlimited", settings.cacheFolder.path, settings.stateFolder.path]
        }
        let environment = ["MOVIES_CACHE": "off", "MOVIES_CACHE_TTL": "2h", "MOVIES_CACHE_SIZE": "5MB", "MOVIES_DAILY_LIMIT": "100,000",
                           "XDG_CACHE_HOME": "/c", "XDG_STATE_HOME": "/s"]
        let resolved = try [resolve(environment: ["HOME": "/h"]), resolve(environment: environment),
                            resolve(["--cache-ttl", "30m", "--daily-limit", "unlimited"], environment: environment)]
        #expect(resolved.map(spending) == [["true", "forever", "50000000", "1000", "/h/.cache/movies", "/h/.local/state/movies"],
                                           ["false", "7200", "5000000", "100000", "/c/movies", "/s/movies"],
                                           ["false", "1800", "5000000", "unlimited", "/c/movies", "/s/movies"]])
        let fromDotEnv = try [resolve(["--no-cache"], dotEnv: ["MOVIES_CACHE": "on"]), resolve(dotEnv: ["MOVIES_DAILY_LIMIT": "250000"])]
        #expect(!fromDotEnv[0].cache && fromDotEnv[1].dailyLimit == 250_000)
    }

    @Test func badValuesAreUsageErrorsAndBadVariablesNameThemselves() {
        let arguments = [["--cache-ttl", "soon"], ["--daily-limit", "0"], ["--no-cache=1"], ["quota", "now"], ["cache", "empty"]]
        #expect(arguments.map { words in usageMessage { try Options.parse(words) }.isEmpty } == [false, false, false, false, false])
        let names = ["MOVIES_CACHE": "maybe", "MOVIES_CACHE_SIZE": "lots", "MOVIES_DAILY_LIMIT": "-3"].sorted { $0.key < $1.key }
        let said = names.map { name, value in usageMessage { try resolve(environment: [name: value]) } }
        #expect(zip(names, said).filter { !$1.hasPrefix($0.key) }.map(\.1) == [])
    }

    @Test func quotaAndCacheAreCommandsOnTheCommandLineAndAtThePrompt() throws {
        let modes: [Options.Mode] = try [["quota"], ["cache"], ["cache", "clear"]].map { try Options.parse($0).mode }
        #expect(modes == [.quota, .cache(clear: false), .cache(clear: true)])
        let commands: [Command] = ["quota", "cache", "Cache Clear", "caché"].map { Command(parsing: $0) }
        #expect(commands == [.quota, .cache(clear: false), .cache(clear: true), .search("caché")])
    }

    @Test func punctuationIsDroppedForTheSecondTry() {
        let queries = ["Schindler's List", "spider-man: far from home", "toxic!", "C++", "alien", "?!", "Amélie"]
        #expect(queries.map(SearchController.withoutPunctuation) == ["Schindlers List", "spider man far from home", "toxic", "C", nil, nil, nil])
    }

    /// The exact title shown for "Too many results." gets its poster like any row: kept by the row, said on it.
    @MainActor @Test func theExactTitleShownForTooManyResultsGetsItsPoster() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        var settings = Settings()
        settings.posters = folder
        let client = OMDbClient(configuration: .init(apiKey: "stub-key", baseURL: StubTransport.baseURL), transport: TooManyResultsTransport())
        let session = Session(client: client, settings: settings, console: capture.console(),
                              presenter: TextPresenter(console: capture.console(), currentDirectory: folder), currentDirectory: folder)
        let status = await session.handle(.search("up"))
        #expect(session.searchController.rows.map { $0.savedPoster?.file.lastPathComponent } == ["Up (2009) [tt1049413].jpg"])
        #expect(capture.out.contains("poster saved: Up (2009) [tt1049413].jpg") && status == ExitStatus.success, "\(capture.out)")
    }

    @MainActor @Test func tooManyResultsShowsTheExactTitleOffline() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        let status = await session.handle(.search("up"))
        #expect(capture.outLines.first == "Results for \"up\": page 1 of 1, 1 in all" && capture.out.contains("  1. Up (2009)  movie  tt1049413"))
        #expect(capture.out.contains("balloons") && capture.err.contains("add a word, a type or a year"))
        #expect(status == ExitStatus.success && session.searchController.rows.count == 1)
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
        let status = await session.handle(.search("up"))
        #expect(capture.err.hasPrefix(message) && capture.out.isEmpty && status == ExitStatus.failure)
    }

    /// The warning counts down to the limit, and past it says the limit is reached (a hostile pass
    /// saw "90 % … is reached, requests today: 1,260 of 1,000 …, 0 left").
    @Test(arguments: [(9, "Warning: 90 % of the key's daily limit is reached, requests today: 9 of 10 (UTC day), 1 left:"),
                      (12, "Warning: the key's daily limit is reached by this tool's count, requests today: 12 of 10 (UTC day): OMDb may refuse")])
    func theWarningSaysHowFarTheCountIs(sent: Int, start: String) async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let settings = budgetSettings(folder, dailyLimit: 10)
        Self.count(sent, for: settings)
        let budget = RequestBudget(settings: settings)
        let warning = await budget.warningAfterCommand() ?? ""
        #expect(warning.hasPrefix(start), "\(warning)")
        #expect(await budget.warningAfterCommand() == nil, "once a day")
    }

    @MainActor @Test func helpShowsTheCountWhenThereIsOne() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let settings = budgetSettings(folder)
        Self.count(37, for: settings)
        let budget = RequestBudget(settings: settings)
        let capture = Capture()
        let console = capture.console()
        let session = Session(client: try catalogueClient(), settings: Settings(), console: console,
                              presenter: TextPresenter(console: console, currentDirectory: folder), currentDirectory: folder, budget: budget)
        await session.handle(.help(nil))
        #expect(capture.outLines.last == "requests today: 37 of 1,000 (UTC day)")
    }

    /// A live key's settings, counting in `folder` and caching in `folder/c`.
    /// `sent` requests counted with the settings' key by another run, one with no limit.
    private static func count(_ sent: Int, for settings: Settings) {
        let other = QuotaLedger(folder: settings.stateFolder, apiKey: settings.apiKey!, dailyLimit: nil)
        for _ in 0..<sent { if let place = other.reserve() { other.commit(place) } }
        other.finish()
    }

    private func budgetSettings(_ folder: URL, dailyLimit: Int = 1_000) -> Settings {
        var settings = Settings()
        (settings.apiKey, settings.stateFolder, settings.cacheFolder, settings.dailyLimit) = ("k-123456", folder, folder.appendingPathComponent("c"), dailyLimit)
        return settings
    }

    @Test func sizesAreShortAndDecimal() {
        #expect([0, 999, 1_000, 34_567, 50_000_000, 123_456_789].map(RequestBudget.size) == ["0 bytes", "999 bytes", "1 KB", "34.6 KB", "50 MB", "123 MB"])
    }
}

/// "Too many results." for every search; for the exact title, one record with a poster.
private struct TooManyResultsTransport: InMemoryTransport {
    func answer(_ url: URL, timeout: Int) async throws -> HTTPResponse {
        if url.path.hasPrefix("/posters/") { return HTTPResponse(statusCode: 200, body: StubTransport.jpeg, contentType: "image/jpeg") }
        guard URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.contains(where: { $0.name == "t" }) == true else {
            return StubTransport.json(["Response": "False", "Error": "Too many results."])
        }
        return StubTransport.json(["Response": "True", "Title": "Up", "Year": "2009", "imdbID": "tt1049413", "Type": "movie",
                                   "Plot": "Balloons.", "Poster": StubTransport.posterURL("up").absoluteString])
    }
}
