import Foundation
import OMDbKit
import OMDbTestSupport
import Testing
@testable import MoviesCLI
@testable import OMDbCatalogue
import TestSupport

@MainActor
@Suite struct SessionTests {
    @Test func moreBeforeAnySearchAsksForASearch() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        #expect(await session.handle(.more))
        #expect(capture.err == "There is no search to continue yet: search for a title first.\n")
        #expect(capture.out == "")
        #expect(!session.hadFailure)
    }

    @Test func showBeforeAnySearchAsksForASearch() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.show(1))
        #expect(capture.err == "No results yet: search for a title first.\n")
        #expect(capture.out == "")
    }

    @Test func showPastTheLastRowSaysWhichNumbersExist() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.search("star trek"))
        #expect(session.canLoadMore)
        capture.clear()
        await session.handle(.show(99))
        #expect(capture.err == "There is no result 99: choose 1 to 10, or type more for the next page.\n")
        #expect(capture.out == "")
    }

    /// `more` is only suggested when there is a next page.
    @Test func showPastTheLastRowOfACompleteSearchDoesNotSuggestMore() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.search("toxic"))
        #expect(!session.canLoadMore)
        capture.clear()
        await session.handle(.show(99))
        #expect(capture.err == "There is no result 99: choose 1 to 10.\n")
    }

    @Test func moreLoadsTheNextPageAndNumbersOn() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.search("star trek"))
        #expect(capture.outLines.last == "Showing 10 of 22. Type more for the next page.")
        capture.clear()
        await session.handle(.more)
        let lines = capture.outLines
        #expect(lines.first == "Results for \"star trek\": page 2 of 3, 22 in all")
        #expect(lines.contains { $0.hasPrefix(" 11. ") })
        #expect(lines.contains { $0.hasPrefix(" 20. ") })
        #expect(!lines.contains { $0.hasPrefix(" 10. ") || $0.hasPrefix(" 21. ") })
        #expect(lines.last == "Showing 20 of 22. Type more for the next page.")
        #expect(session.rows.count == 20)
        await session.handle(.more)
        #expect(capture.outLines.last == "Showing 22 of 22: that is all.")
        capture.clear()
        await session.handle(.more)
        #expect(capture.err == "No more results for \"star trek\": all 22 of 22 are shown.\n")
        #expect(!session.hadFailure)
    }

    @Test func typeFilterNarrowsTheNextSearch() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.type(.series))
        #expect(session.settings.type == .series)
        capture.clear()
        await session.handle(.search("star trek"))
        #expect(capture.outLines.first == "Results for \"star trek\" (series): page 1 of 1, 9 in all")
        #expect(session.rows.count == 9)
        #expect(session.rows.allSatisfy { $0.item.type == .series })

        await session.handle(.type(nil))
        await session.handle(.search("star trek"))
        #expect(session.rows.contains { $0.item.type == .movie })
    }

    @Test(arguments: [SearchType?.some(.movie), .some(.series), .some(.episode), .none])
    func typeCommandSaysWhatTheNextSearchesWillBe(type: SearchType?) async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.type(type))
        let expected = switch type {
        case .movie: "Next searches: movies only.\n"
        case .series: "Next searches: series only.\n"
        case .episode: "Next searches: episodes only.\n"
        case nil: "Next searches: any type.\n"
        }
        #expect(capture.out == expected)
        #expect(session.settings.type == type)
    }

    @Test func yearFilterNarrowsTheNextSearch() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.year(1984))
        #expect(capture.out == "Next searches: year 1984.\n")
        capture.clear()
        await session.handle(.search("toxic"))
        #expect(capture.outLines.first == "Results for \"toxic\" (1984): page 1 of 1, 1 in all")
        #expect(session.rows.map(\.item.imdbID) == ["tt0090190"])

        await session.handle(.year(nil))
        await session.handle(.search("toxic"))
        #expect(session.rows.count == 10)
    }

    @Test func plotCommandSetsThePlotLength() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.plot(.full))
        #expect(capture.out == "Plots in results: full.\n")
        #expect(session.settings.plot == .full)
        capture.clear()
        await session.handle(.search("toxic avenger"))
        #expect(capture.out.contains("     Melvin is the favourite target"))
    }

    @Test func postersFolderIsCreatedAndRowsReportSavedFiles() async throws {
        let root = try makeTemporaryFolder()
        defer { removeFolder(root) }
        let capture = Capture()
        let session = try catalogueSession(capture, directory: root)

        await session.handle(.posters("shots/new"))
        let folder = root.appendingPathComponent("shots/new", isDirectory: true)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(session.settings.posters?.standardizedFileURL.path == folder.standardizedFileURL.path)
        #expect(capture.out.hasPrefix("Posters will be saved in "))
        #expect(capture.out.contains("shots/new"))

        capture.clear()
        await session.handle(.search("toxic"))
        // Poster lines carry their row's number ("  3. poster saved: …"): drop it.
        let lines = capture.outLines.map { line in
            line.trimmingCharacters(in: .whitespaces).replacing(#/^\d+\. /#, with: "")
        }
        let saved = lines.filter { $0.hasPrefix("poster saved: ") }
        // The catalogue has 3 titles without a poster, one poster missing (404) and one that is HTML.
        #expect(lines.count(where: { $0 == "no poster saved: no poster (N/A)" }) == 3)
        #expect(lines.count(where: { $0.hasPrefix("no poster saved: The server answered HTTP 404") }) == 1)
        #expect(lines.count(where: { $0.hasPrefix("no poster saved: not an image") }) == 1)
        #expect(saved.count == 5)
        for line in saved {
            let relative = String(line.dropFirst("poster saved: ".count))
            #expect(relative.hasPrefix("shots/new/"), "\(relative) is not shown relative to the working directory")
            let size = (try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(relative).path)[.size] as? Int) ?? 0
            #expect(size > 0, "\(relative) was reported saved but is not there")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == [
            "Citizen Toxie: The Toxic Avenger IV (2000) [tt0212879].png",
            "The Toxic Avenger (1984) [tt0090190].png",
            "The Toxic Avenger Part II (1989) [tt0098503].jpg",
            "The Toxic Avenger Part III: The Last Temptation of Toxie (1989) [tt0098502].gif",
            "Toxic (2008) [tt0453560].jpg",
        ])
        let catalogue = try #require(Catalogue.defaultFolder())
        #expect(FileManager.default.contents(atPath: folder.appendingPathComponent("The Toxic Avenger (1984) [tt0090190].png").path)
            == FileManager.default.contents(atPath: catalogue.appendingPathComponent("posters/tt0090190.jpg").path))
        #expect(!session.hadFailure)

        // The same search again finds them in place.
        capture.clear()
        await session.handle(.search("toxic"))
        #expect(capture.outLines.count(where: { $0.contains("poster already saved: shots/new/") }) == 5)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 5)
    }

    /// The store of the posters folder is made as the session starts (and as `posters DIR` changes
    /// it), so its one listing and the leftover sweep run in the background before any search.
    @Test func leftoversAreSweptInTheBackgroundWithoutASearch() async throws {
        let root = try makeTemporaryFolder()
        defer { removeFolder(root) }
        let (first, second) = (root.appendingPathComponent("first"), root.appendingPathComponent("second"))
        for folder in [first, second] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("half".utf8).write(to: folder.appendingPathComponent(".movies-partial-no-owner"))
        }
        func emptied(_ folder: URL) async throws -> Bool {
            // No hook to await from out here: look until the sweep is done, for at most 60 s.
            let deadline = ContinuousClock.now + .seconds(60)
            while !(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty
        }
        var settings = Settings()
        settings.posters = first
        let session = try catalogueSession(Capture(), settings: settings, directory: root)
        #expect(try await emptied(first))
        await session.handle(.posters("second"))
        #expect(try await emptied(second))
    }

    @Test func postersIntoAnImpossibleFolderKeepsThePreviousSetting() async throws {
        let root = try makeTemporaryFolder()
        defer { removeFolder(root) }
        let capture = Capture()
        let session = try catalogueSession(capture, directory: root)

        await session.handle(.posters("/dev/null/x"))
        #expect(capture.err == "error: Cannot use \"/dev/null/x\" for posters: /dev/null is a file, not a folder. Posters stay off.\n")
        #expect(session.settings.posters == nil)

        await session.handle(.posters("kept"))
        let kept = session.settings.posters
        #expect(kept?.lastPathComponent == "kept")
        capture.clear()
        await session.handle(.posters("/dev/null/x"))
        #expect(capture.err.hasPrefix("error: Cannot use \"/dev/null/x\""))
        #expect(capture.err.contains("Posters stay in \(root.appendingPathComponent("kept").path)"))
        #expect(session.settings.posters == kept)
        #expect(!FileManager.default.fileExists(atPath: "/dev/null/x"))

        capture.clear()
        await session.handle(.postersStatus)
        #expect(capture.out == "Posters are saved in \(try #require(kept).path).\n")
        capture.clear()
        await session.handle(.posters(nil))
        #expect(capture.out == "Posters are off.\n")
        #expect(session.settings.posters == nil)
    }

    @Test func tooCommonASearchSaysTooManyResults() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.search("the"))
        #expect(capture.err.hasPrefix("Too many results for \"the\""))
        #expect(capture.out == "")
        // The search did not run: a one-shot script gets status 1.
        #expect(session.hadFailure)
    }

    @Test func noMatchSaysNoResults() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.search("zzzzqq"))
        #expect(capture.err == "No results for \"zzzzqq\". Check the spelling, or try fewer words or another year.\n")
        #expect(capture.out == "")
        #expect(!session.hadFailure)
        #expect(session.rows.isEmpty)
    }

    @Test func quitEndsAndOtherCommandsDoNot() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        #expect(await session.handle(.quit) == false)
        #expect(await session.handle(.nothing) == true)
        #expect(capture.out == "" && capture.err == "")
        #expect(await session.handle(.help(nil)) == true)
        #expect(capture.out == PromptHelp.overview(width: session.console.width) + "\n")
        #expect(await session.handle(.invalid(hint: "a hint")) == true)
        #expect(capture.err == "a hint\n")
    }

    @Test func aFailingServerSetsHadFailure() async throws {
        struct Down: InMemoryTransport {
            func answer(_ url: URL, timeout: Int) async throws -> HTTPResponse { throw TransportError.unreachable(reason: "connection refused") }
        }
        let capture = Capture()
        let console = capture.console()
        let client = OMDbClient(configuration: .init(apiKey: "secret-key", baseURL: StubTransport.baseURL), transport: Down())
        let session = Session(client: client, settings: Settings(), console: console,
                              presenter: TextPresenter(console: console, currentDirectory: URL(fileURLWithPath: "/")),
                              currentDirectory: URL(fileURLWithPath: "/"))
        await session.handle(.search("alien"))
        #expect(session.hadFailure)
        #expect(capture.err.hasPrefix("error: The connection to stub.invalid failed (connection refused)"))
        #expect(!capture.err.contains("secret-key"))
    }
}
