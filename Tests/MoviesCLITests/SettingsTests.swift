import Foundation
import OMDbKit
import Testing
import TestSupport
@testable import MoviesCLI

@Suite struct SettingsTests {
    let directory = URL(fileURLWithPath: "/work/somewhere", isDirectory: true)

    func resolve(_ arguments: [String] = [], environment: [String: String] = [:], dotEnv: [String: String] = [:]) throws -> Settings {
        try Settings.resolve(Options.parse(arguments), environment: environment, dotEnv: dotEnv, currentDirectory: directory)
    }

    @Test func defaultsWhenNothingIsGiven() throws {
        let settings = try resolve()
        #expect(settings == Settings())
        #expect(settings.apiKey == nil)
        #expect(settings.baseURL == OMDbClient.Configuration.defaultBaseURL)
        #expect(settings.posters == nil)
        #expect(settings.plot == .short)
        #expect(settings.timeout == 10)
    }

    @Test func optionBeatsEnvironmentBeatsDotEnv() throws {
        let environment = ["OMDB_API_KEY": "env", "OMDB_BASE_URL": "https://env.test/", "MOVIES_POSTERS": "/env"]
        let dotEnv = ["OMDB_API_KEY": "file", "OMDB_BASE_URL": "https://file.test/", "MOVIES_POSTERS": "/file"]

        let fromOptions = try resolve(["--api-key", "opt", "--base-url", "https://opt.test/", "--posters", "/opt"],
                                      environment: environment, dotEnv: dotEnv)
        #expect(fromOptions.apiKey == "opt")
        #expect(fromOptions.baseURL == URL(string: "https://opt.test/"))
        #expect(fromOptions.posters?.path == "/opt")

        let fromEnvironment = try resolve(environment: environment, dotEnv: dotEnv)
        #expect(fromEnvironment.apiKey == "env")
        #expect(fromEnvironment.baseURL == URL(string: "https://env.test/"))
        #expect(fromEnvironment.posters?.path == "/env")

        let fromFile = try resolve(dotEnv: dotEnv)
        #expect(fromFile.apiKey == "file")
        #expect(fromFile.baseURL == URL(string: "https://file.test/"))
        #expect(fromFile.posters?.path == "/file")
    }

    @Test func emptyValuesAreIgnored() throws {
        let settings = try resolve(environment: ["OMDB_API_KEY": "", "OMDB_BASE_URL": "", "MOVIES_POSTERS": ""],
                                   dotEnv: ["OMDB_API_KEY": "file", "OMDB_BASE_URL": "https://file.test/", "MOVIES_POSTERS": ""])
        #expect(settings.apiKey == "file")
        #expect(settings.baseURL == URL(string: "https://file.test/"))
        #expect(settings.posters == nil)
    }

    @Test func blankKeyIsNoKey() throws {
        #expect(try resolve(environment: ["OMDB_API_KEY": "   "]).apiKey == nil)
        #expect(try resolve(["--api-key="]).apiKey == nil)
    }

    @Test func badBaseURLInDotEnvIsAUsageErrorNamingIt() {
        let error = #expect(throws: UsageError.self) { try resolve(dotEnv: ["OMDB_BASE_URL": "ftp://files.test/"]) }
        #expect(error?.message.contains("OMDB_BASE_URL in .env") == true)
        #expect(error?.message.contains("\"ftp://files.test/\"") == true)
    }

    @Test func badBaseURLInEnvironmentIsAUsageErrorNamingIt() {
        let error = #expect(throws: UsageError.self) { try resolve(environment: ["OMDB_BASE_URL": "not a url"]) }
        #expect(error?.message.hasPrefix("OMDB_BASE_URL takes") == true)
        #expect(error?.message.contains("in .env") == false)
    }

    @Test func optionURLHidesABadVariable() throws {
        let settings = try resolve(["--base-url", "https://ok.test/"], environment: ["OMDB_BASE_URL": "bad"])
        #expect(settings.baseURL == URL(string: "https://ok.test/"))
    }

    @Test func relativePosterFoldersAreTakenFromTheDirectory() throws {
        #expect(try resolve(environment: ["MOVIES_POSTERS": "shots"]).posters?.path == "/work/somewhere/shots")
        #expect(try resolve(dotEnv: ["MOVIES_POSTERS": "a/b"]).posters?.path == "/work/somewhere/a/b")
        #expect(try resolve(["--posters", "mine"]).posters?.path == "/work/somewhere/mine")
        #expect(try resolve(["--posters=../up"]).posters?.standardizedFileURL.path == "/work/up")
    }

    @Test func tildeIsTheHomeOfTheGivenEnvironment() throws {
        let environment = ["HOME": "/fake/home"]
        #expect(try resolve(["--posters", "~/p"], environment: environment).posters?.path == "/fake/home/p")
        #expect(try resolve(environment: environment.merging(["MOVIES_POSTERS": "~/q"]) { $1 }).posters?.path == "/fake/home/q")
        #expect(try resolve(environment: ["HOME": "/fake/home/"], dotEnv: ["MOVIES_POSTERS": "~/r/s"]).posters?.path == "/fake/home/r/s")
        #expect(try resolve(["--posters", "~"], environment: environment).posters?.path == "/fake/home")
        #expect(try resolve(["--posters", "~/p"], environment: ["HOME": "/"]).posters?.path == "/p")
        #expect(try resolve(environment: environment).home == "/fake/home")
        // The prompt's `posters` command goes through the same function.
        #expect(Settings.posterFolder("~/t", relativeTo: directory, home: "/elsewhere").path == "/elsewhere/t")
        #expect(Settings.posterFolder("x~/t", relativeTo: directory, home: "/elsewhere").path == "/work/somewhere/x~/t")
    }

    @Test func tildeWithoutAHomeInTheEnvironmentIsTheProcesssHome() throws {
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        let expected = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent("p").standardizedFileURL.path
        #expect(try resolve(["--posters", "~/p"]).posters?.standardizedFileURL.path == expected)
        #expect(try resolve(["--posters", "~/p"], environment: ["HOME": ""]).posters?.standardizedFileURL.path == expected)
        #expect(Settings.posterFolder("~/p", relativeTo: directory, home: nil).standardizedFileURL.path == expected)
    }

    @Test func descriptionDebugDescriptionAndDumpHideTheKey() throws {
        let settings = try resolve(["--posters", "/shots"], environment: ["OMDB_API_KEY": "sekrit-key-42"])
        #expect(settings.apiKey == "sekrit-key-42")
        var dumped = ""
        dump(settings, to: &dumped)
        for text in [String(describing: settings), String(reflecting: settings), "\(settings)", dumped] {
            #expect(!text.contains("sekrit-key-42"), "the key shows in \(text)")
            #expect(text.contains("***"), "\(text) does not say a key is set")
            #expect(text.contains("/shots"), "\(text) lost the other fields")
        }
        #expect(!String(describing: Settings()).contains("***"))
    }

    @Test func filtersAndPlotAndTimeoutComeFromOptions() throws {
        let settings = try resolve(["--type", "episode", "--year", "1999", "--plot", "full", "--timeout", "3", "--offline"])
        #expect(settings.type == .episode)
        #expect(settings.year == 1999)
        #expect(settings.plot == .full)
        #expect(settings.timeout == 3)
        #expect(settings.offline)
        let any = try resolve(["--type", "any", "--year", "any"])
        #expect(any.type == nil)
        #expect(any.year == nil)
    }

    // MARK: The key stays home

    @Test(arguments: ["k3y ", "\tk3y", "k3y\r", " k3y\r\n"])
    func keysAreTrimmedWhereverTheyComeFrom(raw: Typed) throws {
        let raw = raw.text
        #expect(try resolve(["--api-key", raw]).apiKey == "k3y")
        #expect(try resolve(environment: ["OMDB_API_KEY": raw]).apiKey == "k3y")
        #expect(try resolve(dotEnv: ["OMDB_API_KEY": raw]).apiKey == "k3y")
    }

    @Test func aBlankEnvironmentKeyLetsDotEnvSpeak() throws {
        #expect(try resolve(environment: ["OMDB_API_KEY": " \r"], dotEnv: ["OMDB_API_KEY": "file"]).apiKey == "file")
        #expect(try resolve(environment: ["OMDB_API_KEY": "\r\n"]).apiKey == nil)
    }

    @Test func omdbItselfGetsNoNotice() throws {
        #expect(try resolve(environment: ["OMDB_API_KEY": "k"]).notices.isEmpty)
        #expect(try resolve(environment: ["OMDB_API_KEY": "k", "OMDB_BASE_URL": "https://www.omdbapi.com/"]).notices.isEmpty)
    }

    @Test func aVariableHoldingWhatLooksLikeAKeyIsNotShown() {
        let error = #expect(throws: UsageError.self) { try resolve(environment: ["OMDB_BASE_URL": "sekrit1234"]) }
        #expect(error?.message.hasPrefix("OMDB_BASE_URL takes") == true)
        #expect(error?.message.contains("sekrit1234") == false)
    }

    @Test func anotherHostIsNamedInOneNotice() throws {
        let settings = try resolve(["--base-url", "https://proxy.example/omdb/"], environment: ["OMDB_API_KEY": "k"])
        #expect(settings.baseURL == URL(string: "https://proxy.example/omdb/"))
        #expect(settings.notices.count == 1)
        #expect(settings.notices.first?.contains("proxy.example") == true)
        #expect(settings.notices.first?.contains("--base-url") == true)
        #expect(settings.notices.allSatisfy { !$0.contains("\n") })
    }

    @Test func theBaseURLNoticeIsLeftOutBeforeQuotaAndCache() throws {
        let settings = try resolve(["--base-url", "https://proxy.example/omdb/"], environment: ["OMDB_API_KEY": "k"])
        #expect(settings.notices(before: .quota).isEmpty)
        #expect(settings.notices(before: .cache(clear: false)).isEmpty)
        #expect(settings.notices(before: .interactive) == settings.notices)
        #expect(settings.notices(before: .interactive).first?.contains("proxy.example") == true)
    }

    @Test func dotEnvBaseURLIsIgnoredWithAKeyFromElsewhere() throws {
        let dotEnv = ["OMDB_BASE_URL": "http://127.0.0.1:9/"]
        for settings in [try resolve(environment: ["OMDB_API_KEY": "mine"], dotEnv: dotEnv), try resolve(["--api-key", "mine"], dotEnv: dotEnv)] {
            #expect(settings.apiKey == "mine")
            #expect(settings.baseURL == OMDbClient.Configuration.defaultBaseURL)
            #expect(settings.notices.count == 1)
            #expect(settings.notices.first?.hasPrefix("Ignoring OMDB_BASE_URL in .env") == true)
            #expect(settings.notices.allSatisfy { !$0.contains("mine") })
        }
    }

    @Test func dotEnvBaseURLIsUsedWithTheKeyOfTheSameFile() throws {
        let settings = try resolve(dotEnv: ["OMDB_API_KEY": "file", "OMDB_BASE_URL": "http://127.0.0.1:9/"])
        #expect(settings.baseURL == URL(string: "http://127.0.0.1:9/"))
        #expect(settings.notices.count == 1)
        #expect(settings.notices.first?.contains("127.0.0.1") == true)
    }

    @Test func dotEnvNamingOMDbItselfNeedsNoWarning() throws {
        let settings = try resolve(environment: ["OMDB_API_KEY": "mine"], dotEnv: ["OMDB_BASE_URL": "https://www.omdbapi.com/"])
        #expect(settings.notices.isEmpty)
    }

    @Test(arguments: [["--base-url", "http://omdb.example/"], ["--base-url", "http://www.omdbapi.com/"], ["--base-url", "http://10.0.0.1:8080/"]])
    func theKeyNeverGoesInClearToAnotherMachine(arguments: [String]) {
        let error = #expect(throws: UsageError.self) { try resolve(arguments, environment: ["OMDB_API_KEY": "sekrit1234"]) }
        #expect(error?.message.contains("https") == true)
        #expect(error?.message.contains("sekrit1234") == false)
    }

    @Test func clearTextFromTheEnvironmentIsRefusedNamingTheVariable() {
        let error = #expect(throws: UsageError.self) {
            try resolve(environment: ["OMDB_API_KEY": "k", "OMDB_BASE_URL": "http://omdb.example/"])
        }
        #expect(error?.message.hasPrefix("OMDB_BASE_URL is http://omdb.example") == true)
    }

    @Test(arguments: ["http://127.0.0.1:8080/", "http://localhost/", "http://[::1]:80/", "http://127.1.2.3/"])
    func clearTextToThisMachineIsFine(url: String) throws {
        #expect(try resolve(["--base-url", url], environment: ["OMDB_API_KEY": "k"]).baseURL == URL(string: url))
    }

    @Test func withoutAKeyToSendNothingIsChecked() throws {
        #expect(try resolve(["--base-url", "http://omdb.example/"]).notices.isEmpty)
        #expect(try resolve(["--base-url", "http://omdb.example/", "--offline"], environment: ["OMDB_API_KEY": "k"]).notices.isEmpty)
    }

    @Test func concurrencyComesFromOptionThenEnvironmentThenDotEnv() throws {
        #expect(try resolve().concurrency == Settings.defaultConcurrency)
        #expect(Settings.defaultConcurrency >= 20, "a whole page (10 records, 10 posters) must go at once")
        #expect(try resolve(dotEnv: ["MOVIES_CONCURRENCY": "7"]).concurrency == 7)
        #expect(try resolve(environment: ["MOVIES_CONCURRENCY": "3"], dotEnv: ["MOVIES_CONCURRENCY": "7"]).concurrency == 3)
        #expect(try resolve(["--concurrency", "1"], environment: ["MOVIES_CONCURRENCY": "3"]).concurrency == 1)
        let error = #expect(throws: UsageError.self) { try resolve(dotEnv: ["MOVIES_CONCURRENCY": "lots"]) }
        #expect(error?.message.contains("MOVIES_CONCURRENCY in .env") == true)
    }

    @Test(arguments: [
        ([], [:], [:], true),
        (["--no-prefetch"], [:], [:], false),
        ([], ["MOVIES_PREFETCH": "off"], [:], false),
        ([], [:], ["MOVIES_PREFETCH": "OFF"], false),
        ([], ["MOVIES_PREFETCH": "on"], ["MOVIES_PREFETCH": "off"], true),
        (["--no-prefetch"], ["MOVIES_PREFETCH": "on"], [:], false),
    ] as [([String], [String: String], [String: String], Bool)])
    func prefetchIsOnUnlessSwitchedOff(arguments: [String], environment: [String: String], dotEnv: [String: String], expected: Bool) throws {
        #expect(try resolve(arguments, environment: environment, dotEnv: dotEnv).prefetch == expected)
    }

    @Test func badPrefetchValueIsAUsageErrorNamingIt() {
        let error = #expect(throws: UsageError.self) { try resolve(environment: ["MOVIES_PREFETCH": "maybe"]) }
        #expect(error?.message == "MOVIES_PREFETCH takes on or off, not \"maybe\"")
    }
}
