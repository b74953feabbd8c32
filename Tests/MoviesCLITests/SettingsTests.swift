import Foundation
import OMDbKit
import Testing
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
        let environment = ["OMDB_API_KEY": "env", "OMDB_BASE_URL": "http://env.test/", "MOVIES_POSTERS": "/env"]
        let dotEnv = ["OMDB_API_KEY": "file", "OMDB_BASE_URL": "http://file.test/", "MOVIES_POSTERS": "/file"]

        let fromOptions = try resolve(["--api-key", "opt", "--base-url", "http://opt.test/", "--posters", "/opt"],
                                      environment: environment, dotEnv: dotEnv)
        #expect(fromOptions.apiKey == "opt")
        #expect(fromOptions.baseURL == URL(string: "http://opt.test/"))
        #expect(fromOptions.posters?.path == "/opt")

        let fromEnvironment = try resolve(environment: environment, dotEnv: dotEnv)
        #expect(fromEnvironment.apiKey == "env")
        #expect(fromEnvironment.baseURL == URL(string: "http://env.test/"))
        #expect(fromEnvironment.posters?.path == "/env")

        let fromFile = try resolve(dotEnv: dotEnv)
        #expect(fromFile.apiKey == "file")
        #expect(fromFile.baseURL == URL(string: "http://file.test/"))
        #expect(fromFile.posters?.path == "/file")
    }

    @Test func emptyValuesAreIgnored() throws {
        let settings = try resolve(environment: ["OMDB_API_KEY": "", "OMDB_BASE_URL": "", "MOVIES_POSTERS": ""],
                                   dotEnv: ["OMDB_API_KEY": "file", "OMDB_BASE_URL": "http://file.test/", "MOVIES_POSTERS": ""])
        #expect(settings.apiKey == "file")
        #expect(settings.baseURL == URL(string: "http://file.test/"))
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

    @Test func tildeIsTheHomeFolder() throws {
        let home = FileManager.default.homeDirectoryForCurrentUser.standardizedFileURL.path
        #expect(try resolve(["--posters", "~/p"]).posters?.path == home + "/p")
        #expect(try resolve(environment: ["MOVIES_POSTERS": "~/q"]).posters?.path == home + "/q")
        #expect(try resolve(["--posters", "~"]).posters?.path == home)
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
}
