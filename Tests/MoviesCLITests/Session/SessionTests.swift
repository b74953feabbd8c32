import Foundation
import OMDbKit
import OMDbTestSupport
import Testing
@testable import MoviesCLI
@testable import OMDbCatalogue
import TestSupport

@MainActor
@Suite struct SessionTests {
    @Test func moreAndShowBeforeAnySearchAskForASearch() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        #expect(await session.handle(.more) == ExitStatus.success)
        #expect(capture.said == Said(err: "There is no search to continue yet: search for a title first.\n"))
        capture.clear()
        await session.handle(.show(1))
        #expect(capture.said == Said(err: "No results yet: search for a title first.\n"))
    }

    /// `more` is only suggested when there is a next page.
    @Test func showPastTheLastRowSaysWhichNumbersExist() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        var said: [Said] = []
        for search in ["star trek", "toxic"] {
            await session.handle(.search(search))
            #expect(session.searchController.canLoadMore == (search == "star trek"))
            capture.clear()
            await session.handle(.show(99))
            said.append(capture.said)
        }
        #expect(said == [Said(err: "There is no result 99: choose 1 to 10, or type more for the next page.\n"),
                         Said(err: "There is no result 99: choose 1 to 10.\n")])
    }

    @Test func moreLoadsTheNextPageAndNumbersOn() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        #expect(await session.handle(.search("star trek")) == ExitStatus.success)
        #expect(capture.outLines.last == "Showing 10 of 22. Type more for the next page.")
        capture.clear()
        #expect(await session.handle(.more) == ExitStatus.success)
        let lines = capture.outLines
        let numbers = lines.compactMap { $0.wholeMatch(of: #/ *(\d+)\. .*/#).flatMap { Int($0.1) } }
        #expect(numbers == Array(11...20))
        #expect([lines.first, lines.last] == ["Results for \"star trek\": page 2 of 3, 22 in all", "Showing 20 of 22. Type more for the next page."])
        #expect(session.searchController.rows.count == 20)
        #expect(await session.handle(.more) == ExitStatus.success)
        #expect(capture.outLines.last == "Showing 22 of 22: that is all.")
        capture.clear()
        #expect(await session.handle(.more) == ExitStatus.success)
        #expect(capture.err == "No more results for \"star trek\": all 22 of 22 are shown.\n")
    }

    @Test func typeFilterNarrowsTheNextSearch() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.type(.series))
        #expect(session.context.settings.type == .series)
        capture.clear()
        await session.handle(.search("star trek"))
        #expect(capture.outLines.first == "Results for \"star trek\" (series): page 1 of 1, 9 in all")
        #expect(session.searchController.rows.map(\.item.type) == Array(repeating: .series, count: 9))

        await session.handle(.type(nil))
        await session.handle(.search("star trek"))
        #expect(session.searchController.rows.contains { $0.item.type == .movie })
    }

    @Test func typeCommandSaysWhatTheNextSearchesWillBe() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        var types: [SearchType?] = []
        for type in [SearchType.movie, .series, .episode, nil] {
            await session.handle(.type(type))
            types.append(session.context.settings.type)
        }
        #expect(types == [.movie, .series, .episode, nil])
        #expect(capture.outLines == ["Next searches: movies only.", "Next searches: series only.", "Next searches: episodes only.", "Next searches: any type."])
    }

    @Test func yearFilterNarrowsTheNextSearch() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.year(1984))
        #expect(capture.out == "Next searches: year 1984.\n")
        capture.clear()
        await session.handle(.search("toxic"))
        #expect(capture.outLines.first == "Results for \"toxic\" (1984): page 1 of 1, 1 in all")
        #expect(session.searchController.rows.map(\.item.imdbID) == ["tt0090190"])

        await session.handle(.year(nil))
        await session.handle(.search("toxic"))
        #expect(session.searchController.rows.count == 10)
    }

    @Test func plotCommandSetsThePlotLength() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.plot(.full))
        #expect(capture.out == "Plots in results: full.\n" && session.context.settings.plot == .full)
        capture.clear()
        await session.handle(.search("toxic avenger"))
        #expect(capture.out.contains("     Melvin is the favourite target"))
    }

    /// Posters that cannot be written (the folder replaced under the session, a full disk) are not
    /// "no poster", which says OMDb has none: the rows say "not saved", and one line under the page
    /// says why and what to do.
    @Test func postersThatCannotBeWrittenAreSaidOnceUnderThePage() async throws {
        let root = try makeTemporaryFolder()
        defer { removeFolder(root) }
        let capture = Capture()
        let session = try catalogueSession(capture, directory: root)
        #expect(await session.handle(.posters("shots")) == ExitStatus.success)
        // The folder replaced by a file under the session: no poster can be written there.
        removeFolder(root.appendingPathComponent("shots"))
        try Data().write(to: root.appendingPathComponent("shots"))
        capture.clear()
        #expect(await session.handle(.search("toxic")) == ExitStatus.failure, "\(capture.out)\n\(capture.err)")
        #expect(capture.out.contains("no poster saved: could not write ") && !capture.out.contains("poster saved: shots"), "\(capture.out)")
        let under = capture.err.split(separator: "\n").filter { $0.contains("could not be saved") }
        #expect(under.count == 1 && under[0].hasPrefix("5 posters of page 1 could not be saved: could not write ")
                && under[0].hasSuffix("Check the folder (a full disk?), or choose another: posters DIR."), "\(capture.err)")
    }

    @Test func postersFolderIsCreatedAndRowsReportSavedFiles() async throws {
        let root = try makeTemporaryFolder()
        defer { removeFolder(root) }
        let capture = Capture()
        let session = try catalogueSession(capture, directory: root)

        #expect(await session.handle(.posters("shots/new")) == ExitStatus.success)
        let folder = root.appendingPathComponent("shots/new", isDirectory: true)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(session.context.settings.posters?.standardizedFileURL.path == folder.standardizedFileURL.path)
        #expect(capture.out.hasPrefix("Posters will be saved in ") && capture.out.contains("shots/new"))

        capture.clear()
        let status = await session.handle(.search("toxic"))
        // Poster lines carry their row's number ("  3. poster saved: …"): drop it.
        let lines = capture.outLines.map { line in
            line.trimmingCharacters(in: .whitespaces).replacing(#/^\d+\. /#, with: "")
        }
        let saved = lines.filter { $0.hasPrefix("poster saved: ") }
        // The catalogue has 3 titles without a poster, one poster missing (404) and one that is HTML.
        let counts = [lines.count { $0 == "no poster saved: no poster (N/A)" }, lines.count { $0.hasPrefix("no poster saved: The server answered HTTP 404") },
                      lines.count { $0.hasPrefix("no poster saved: not an image") }, saved.count]
        #expect(counts == [3, 1, 1, 5])
        // Shown relative to the working directory, and there.
        let missing = saved.map { String($0.dropFirst("poster saved: ".count)) }.filter { relative in
            let size = (try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(relative).path)[.size] as? Int) ?? 0
            return !relative.hasPrefix("shots/new/") || size == 0
        }
        #expect(missing.isEmpty)
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
        #expect(status == ExitStatus.success)

        // The same search again finds them in place.
        capture.clear()
        await session.handle(.search("toxic"))
        #expect(capture.outLines.count(where: { $0.contains("poster already saved: shots/new/") }) == 5 && files(in: folder).count == 5)
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
        // No hook to await from out here: look until the sweep is done.
        func emptied(_ folder: URL) async throws {
            try await waitUntil("the sweep of \(folder.lastPathComponent)") { try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty }
        }
        var settings = Settings()
        settings.posters = first
        let session = try catalogueSession(Capture(), settings: settings, directory: root)
        try await emptied(first)
        await session.handle(.posters("second"))
        try await emptied(second)
    }

    @Test func postersIntoAnImpossibleFolderKeepsThePreviousSetting() async throws {
        let root = try makeTemporaryFolder()
        defer { removeFolder(root) }
        let capture = Capture()
        let session = try catalogueSession(capture, directory: root)

        await session.handle(.posters("/dev/null/x"))
        #expect(capture.err == "error: Cannot use \"/dev/null/x\" for posters: /dev/null is a file, not a folder. Posters stay off.\n"
            && session.context.settings.posters == nil)

        await session.handle(.posters("kept"))
        let kept = session.context.settings.posters
        #expect(kept?.lastPathComponent == "kept")
        capture.clear()
        await session.handle(.posters("/dev/null/x"))
        #expect(capture.err.hasPrefix("error: Cannot use \"/dev/null/x\"") && capture.err.contains("Posters stay in \(root.appendingPathComponent("kept").path)"))
        #expect(session.context.settings.posters == kept && !FileManager.default.fileExists(atPath: "/dev/null/x"))

        capture.clear()
        await session.handle(.postersStatus)
        await session.handle(.posters(nil))
        #expect(capture.outLines == ["Posters are saved in \(kept?.path ?? "").", "Posters are off."] && session.context.settings.posters == nil)
    }

    @Test func tooCommonOrUnmatchedSearchesSaySo() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        let status = await session.handle(.search("the"))
        // The search did not run: a one-shot script gets status 1.
        #expect(capture.err.hasPrefix("Too many results for \"the\"") && capture.out == "" && status == ExitStatus.failure)
        let unmatched = try catalogueSession(capture)
        capture.clear()
        let unmatchedStatus = await unmatched.handle(.search("zzzzqq"))
        #expect(capture.said == Said(err: "No results for \"zzzzqq\". Check the spelling, or try fewer words or another year.\n"))
        #expect(unmatchedStatus == ExitStatus.success && unmatched.searchController.rows.isEmpty)
    }

    @Test func quitEndsAndOtherCommandsDoNot() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        var goOn: [Bool] = []
        for command in [Command.quit, .nothing, .help(nil), .invalid(hint: "a hint")] { goOn.append(await session.handle(command) != nil) }
        #expect(goOn == [false, true, true, true])
        #expect(capture.said == Said(out: PromptHelp.overview(width: session.console.width) + "\n", err: "a hint\n"))
    }

    @Test func aFailingServerFailsTheCommand() async throws {
        struct Down: InMemoryTransport {
            func answer(_ url: URL, timeout: Int) async throws -> HTTPResponse { throw TransportError.unreachable(reason: "connection refused") }
        }
        let capture = Capture()
        let console = capture.console()
        let client = OMDbClient(configuration: .init(apiKey: "secret-key", baseURL: StubTransport.baseURL), transport: Down())
        let session = Session(client: client, settings: Settings(), console: console,
                              presenter: TextPresenter(console: console, currentDirectory: URL(fileURLWithPath: "/")),
                              currentDirectory: URL(fileURLWithPath: "/"))
        let status = await session.handle(.search("alien"))
        #expect(status == ExitStatus.failure && capture.err.hasPrefix("error: The connection to stub.invalid failed (connection refused)")
            && !capture.err.contains("secret-key"))
    }
}
