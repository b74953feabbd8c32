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

    /// The key, base URL and posters folder of each settings.
    func sources(_ all: [Settings]) -> [[String?]] {
        all.map { [$0.apiKey?.value, $0.baseURL.absoluteString, $0.posters?.path] }
    }

    @Test func defaultsWhenNothingIsGiven() throws {
        var expected = Settings()
        expected.apiKey = nil
        expected.baseURL = OMDbClient.Configuration.defaultBaseURL
        expected.posters = nil
        expected.plot = .short
        expected.timeout = 10
        expected.concurrency = Settings.defaultConcurrency
        #expect(try resolve() == expected)
        #expect(Settings.defaultConcurrency >= 20, "a whole page (10 records, 10 posters) must go at once")
    }

    @Test func optionBeatsEnvironmentBeatsDotEnv() throws {
        let environment = ["OMDB_API_KEY": "env", "OMDB_BASE_URL": "https://env.test/", "MOVIES_POSTERS": "/env"]
        let dotEnv = ["OMDB_API_KEY": "file", "OMDB_BASE_URL": "https://file.test/", "MOVIES_POSTERS": "/file"]
        let resolved = try [
            resolve(["--api-key", "opt", "--base-url", "https://opt.test/", "--posters", "/opt"], environment: environment, dotEnv: dotEnv),
            resolve(environment: environment, dotEnv: dotEnv),
            resolve(dotEnv: dotEnv),
            // Empty values are ignored.
            resolve(environment: ["OMDB_API_KEY": "", "OMDB_BASE_URL": "", "MOVIES_POSTERS": ""],
                    dotEnv: ["OMDB_API_KEY": "file", "OMDB_BASE_URL": "https://file.test/", "MOVIES_POSTERS": ""]),
            // An option's URL hides a bad variable.
            resolve(["--base-url", "https://ok.test/"], environment: ["OMDB_BASE_URL": "bad"]),
        ]
        let expected: [[String?]] = [
            ["opt", "https://opt.test/", "/opt"], ["env", "https://env.test/", "/env"], ["file", "https://file.test/", "/file"],
            ["file", "https://file.test/", nil], [nil, "https://ok.test/", nil],
        ]
        #expect(sources(resolved) == expected)
    }

    @Test func blankKeysAreNoKeysAndTrimmedKeysAreKeys() throws {
        let keys = try [
            resolve(environment: ["OMDB_API_KEY": "   "]), resolve(["--api-key="]), resolve(environment: ["OMDB_API_KEY": "\r\n"]),
            // A blank environment key lets .env speak.
            resolve(environment: ["OMDB_API_KEY": " \r"], dotEnv: ["OMDB_API_KEY": "file"]),
        ].map(\.apiKey)
        #expect(keys == [nil, nil, nil, "file"])
    }

    @Test(arguments: ["k3y ", "\tk3y", "k3y\r", " k3y\r\n"])
    func keysAreTrimmedWhereverTheyComeFrom(raw: Typed) throws {
        let raw = raw.text
        let keys = try [resolve(["--api-key", raw]), resolve(environment: ["OMDB_API_KEY": raw]), resolve(dotEnv: ["OMDB_API_KEY": raw])].map(\.apiKey)
        #expect(keys == ["k3y", "k3y", "k3y"])
    }

    @Test func aBadBaseURLIsAUsageErrorNamingWhereItCameFrom() {
        let fromDotEnv = usageMessage { try resolve(dotEnv: ["OMDB_BASE_URL": "ftp://files.test/"]) }
        #expect(fromDotEnv.contains("OMDB_BASE_URL in .env") && fromDotEnv.contains("\"ftp://files.test/\""))
        let fromEnvironment = usageMessage { try resolve(environment: ["OMDB_BASE_URL": "not a url"]) }
        #expect(fromEnvironment.hasPrefix("OMDB_BASE_URL takes") && !fromEnvironment.contains("in .env"))
        // A variable holding what looks like a key is not shown.
        let keyLike = usageMessage { try resolve(environment: ["OMDB_BASE_URL": "sekrit1234"]) }
        #expect(keyLike.hasPrefix("OMDB_BASE_URL takes") && !keyLike.contains("sekrit1234"))
    }

    @Test func posterFoldersAreTakenFromTheDirectoryAndTildeIsTheGivenHome() throws {
        let home = ["HOME": "/fake/home"]
        let folders = try [
            resolve(environment: ["MOVIES_POSTERS": "shots"]), resolve(dotEnv: ["MOVIES_POSTERS": "a/b"]), resolve(["--posters", "mine"]),
            resolve(["--posters=../up"]),
            resolve(["--posters", "~/p"], environment: home), resolve(environment: home.merging(["MOVIES_POSTERS": "~/q"]) { $1 }),
            resolve(environment: ["HOME": "/fake/home/"], dotEnv: ["MOVIES_POSTERS": "~/r/s"]), resolve(["--posters", "~"], environment: home),
            resolve(["--posters", "~/p"], environment: ["HOME": "/"]),
        ].map { $0.posters?.standardizedFileURL.path }
        let expected = ["/work/somewhere/shots", "/work/somewhere/a/b", "/work/somewhere/mine", "/work/up",
                        "/fake/home/p", "/fake/home/q", "/fake/home/r/s", "/fake/home", "/p"]
        #expect(folders == expected)
        #expect(try resolve(environment: home).home == "/fake/home")
        // The prompt's `posters` command goes through the same function.
        let prompt = ["~/t", "x~/t"].map { Settings.posterFolder($0, relativeTo: directory, home: "/elsewhere").path }
        #expect(prompt == ["/elsewhere/t", "/work/somewhere/x~/t"])
    }

    @Test func tildeWithoutAHomeInTheEnvironmentIsTheProcesssHome() throws {
        let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path
        let expected = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent("p").standardizedFileURL.path
        let folders = try [resolve(["--posters", "~/p"]).posters, resolve(["--posters", "~/p"], environment: ["HOME": ""]).posters,
                           Settings.posterFolder("~/p", relativeTo: directory, home: nil)].map { $0?.standardizedFileURL.path }
        #expect(folders == [expected, expected, expected])
    }

    @Test func descriptionDebugDescriptionAndDumpHideTheKey() throws {
        let settings = try resolve(["--posters", "/shots"], environment: ["OMDB_API_KEY": "sekrit-key-42"])
        #expect(settings.apiKey == "sekrit-key-42")
        var dumped = ""
        dump(settings, to: &dumped)
        for text in [String(describing: settings), String(reflecting: settings), "\(settings)", dumped] {
            #expect(!text.contains("sekrit-key-42") && text.contains("***") && text.contains("/shots"),
                    "the key shows, or no key is said to be set, or the other fields are lost: \(text)")
        }
        #expect(!String(describing: Settings()).contains("***"))
    }

    @Test func filtersAndPlotAndTimeoutComeFromOptions() throws {
        var expected = Settings()
        (expected.type, expected.year, expected.plot, expected.timeout, expected.offline) = (.episode, 1999, .full, 3, true)
        #expect(try resolve(["--type", "episode", "--year", "1999", "--plot", "full", "--timeout", "3", "--offline"]) == expected)
        #expect(try resolve(["--type", "any", "--year", "any"]) == Settings())
    }

    // MARK: The key stays home

    @Test func omdbItselfOrNoKeyToSendGetsNoNotice() throws {
        let notices = try [
            resolve(environment: ["OMDB_API_KEY": "k"]),
            resolve(environment: ["OMDB_API_KEY": "k", "OMDB_BASE_URL": "https://www.omdbapi.com/"]),
            resolve(environment: ["OMDB_API_KEY": "mine"], dotEnv: ["OMDB_BASE_URL": "https://www.omdbapi.com/"]),
            // Without a key to send, nothing is checked.
            resolve(["--base-url", "http://omdb.example/"]),
            resolve(["--base-url", "http://omdb.example/", "--offline"], environment: ["OMDB_API_KEY": "k"]),
        ].map(\.notices)
        #expect(notices == [[], [], [], [], []])
    }

    @Test func anotherHostIsNamedInOneNoticeLeftOutBeforeQuotaAndCache() throws {
        let settings = try resolve(["--base-url", "https://proxy.example/omdb/"], environment: ["OMDB_API_KEY": "k"])
        #expect(settings.baseURL == URL(string: "https://proxy.example/omdb/"))
        let notice = try #require(settings.notices.count == 1 ? settings.notices.first : nil, "\(settings.notices)")
        #expect(notice.contains("proxy.example") && notice.contains("--base-url") && !notice.contains("\n"))
        #expect([settings.notices(before: .quota), settings.notices(before: .cache(clear: false)), settings.notices(before: .interactive)]
            == [[], [], [notice]])
    }

    @Test func dotEnvBaseURLIsIgnoredWithAKeyFromElsewhere() throws {
        let dotEnv = ["OMDB_BASE_URL": "http://127.0.0.1:9/"]
        for settings in [try resolve(environment: ["OMDB_API_KEY": "mine"], dotEnv: dotEnv), try resolve(["--api-key", "mine"], dotEnv: dotEnv)] {
            #expect(sources([settings]) == [["mine", OMDbClient.Configuration.defaultBaseURL.absoluteString, nil]])
            #expect(settings.notices.count == 1 && settings.notices[0].hasPrefix("Ignoring OMDB_BASE_URL in .env")
                && !settings.notices[0].contains("mine"), "\(settings.notices)")
        }
    }

    @Test func dotEnvBaseURLIsUsedWithTheKeyOfTheSameFile() throws {
        let settings = try resolve(dotEnv: ["OMDB_API_KEY": "file", "OMDB_BASE_URL": "http://127.0.0.1:9/"])
        #expect(settings.baseURL == URL(string: "http://127.0.0.1:9/"))
        #expect(settings.notices.count == 1 && settings.notices[0].contains("127.0.0.1"), "\(settings.notices)")
    }

    @Test(arguments: [["--base-url", "http://omdb.example/"], ["--base-url", "http://www.omdbapi.com/"], ["--base-url", "http://10.0.0.1:8080/"]])
    func theKeyNeverGoesInClearToAnotherMachine(arguments: [String]) {
        let message = usageMessage { try resolve(arguments, environment: ["OMDB_API_KEY": "sekrit1234"]) }
        #expect(message.contains("https") && !message.contains("sekrit1234"))
        let fromEnvironment = usageMessage { try resolve(environment: ["OMDB_API_KEY": "k", "OMDB_BASE_URL": "http://omdb.example/"]) }
        #expect(fromEnvironment.hasPrefix("OMDB_BASE_URL is http://omdb.example"))
    }

    @Test func clearTextToThisMachineIsFine() throws {
        let urls = ["http://127.0.0.1:8080/", "http://localhost/", "http://[::1]:80/", "http://127.1.2.3/"]
        #expect(try urls.map { try resolve(["--base-url", $0], environment: ["OMDB_API_KEY": "k"]).baseURL.absoluteString } == urls)
    }

    @Test func concurrencyComesFromOptionThenEnvironmentThenDotEnv() throws {
        let concurrency = try [
            resolve(), resolve(dotEnv: ["MOVIES_CONCURRENCY": "7"]), resolve(environment: ["MOVIES_CONCURRENCY": "3"], dotEnv: ["MOVIES_CONCURRENCY": "7"]),
            resolve(["--concurrency", "1"], environment: ["MOVIES_CONCURRENCY": "3"]),
        ].map(\.concurrency)
        #expect(concurrency == [Settings.defaultConcurrency, 7, 3, 1])
        #expect(usageMessage { try resolve(dotEnv: ["MOVIES_CONCURRENCY": "lots"]) }.contains("MOVIES_CONCURRENCY in .env"))
    }

    @Test func prefetchIsOnUnlessSwitchedOff() throws {
        let prefetch = try [
            resolve(), resolve(["--no-prefetch"]), resolve(environment: ["MOVIES_PREFETCH": "off"]), resolve(dotEnv: ["MOVIES_PREFETCH": "OFF"]),
            resolve(environment: ["MOVIES_PREFETCH": "on"], dotEnv: ["MOVIES_PREFETCH": "off"]),
            resolve(["--no-prefetch"], environment: ["MOVIES_PREFETCH": "on"]),
        ].map(\.prefetch)
        #expect(prefetch == [true, false, false, false, true, false])
        #expect(usageMessage { try resolve(environment: ["MOVIES_PREFETCH": "maybe"]) } == "MOVIES_PREFETCH takes on or off, not \"maybe\"")
    }
}
