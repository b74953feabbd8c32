import Foundation
import OMDbKit
import OMDbTestSupport
import Testing
@testable import MoviesCLI
@testable import OMDbCatalogue
import TestSupport

/// Issue 24 at the prompt, over the offline catalogue: a typo or a search that finds nothing
/// keeps the page, pages come back from memory, and row lists pick rows.
@MainActor
@Suite struct NavigationSessionTests {
    /// A session that asks for nothing in the background, so requests can be counted.
    private func session(_ capture: Capture, settings: Settings = Settings(), directory: URL? = nil) throws -> Session {
        var settings = settings
        settings.prefetch = false
        return try catalogueSession(capture, settings: settings, directory: directory)
    }

    /// A session that searched `text`: the requests it sent, and nothing captured yet.
    private func searched(_ text: String) async throws -> (session: Session, capture: Capture, sent: Int) {
        let capture = Capture()
        let session = try session(capture)
        await session.handle(.search(text))
        let sent = session.client.apiRequestCount
        capture.clear()
        return (session, capture, sent)
    }

    @Test func typeYearAndPlotAloneSayTheCurrentValue() async throws {
        let capture = Capture()
        let session = try session(capture)
        for line in ["type", "year", "plot", "type series", "year 1999", "plot full"] {
            await session.handle(Command(parsing: line))
        }
        for line in ["type", "year", "plot"] { await session.handle(Command(parsing: line)) }
        #expect(capture.err == "")
        #expect(Array(capture.outLines.prefix(3)) == [
            "Type: any (type movie, series, episode or any to change it).",
            "Year: any (year 1984, or year any, to change it).",
            "Plot: short (plot short or plot full to change it).",
        ])
        #expect(Array(capture.outLines.suffix(3)) == [
            "Type: series (type movie, series, episode or any to change it).",
            "Year: 1999 (year 1984, or year any, to change it).",
            "Plot: full (plot short or plot full to change it).",
        ])
    }

    /// `text` searched with a page of "star trek" on screen: how it ended, what stderr said then,
    /// whether it sent a request, and the session (its page) after.
    private func searchOverAPage(_ text: String) async throws -> (status: MoviesCLI.ExitStatus, err: String, requested: Bool, session: Session) {
        let (session, capture, sent) = try await searched("star trek")
        let status = await session.searchController.search(text)
        return (status, capture.err, session.client.apiRequestCount != sent, session)
    }

    @Test func aSearchOverFiveHundredCharactersIsRefusedInOneLineWithNoRequest() async throws {
        let (status, err, requested, session) = try await searchOverAPage(String(repeating: "star trek ", count: 51))
        #expect(status == .usage)
        #expect(err == "That search is 509 characters long; titles are far shorter: type up to 500 characters.\n")
        #expect(!requested)
        #expect(session.searchController.rows.count == 10)
        #expect(await session.searchController.search(String(repeating: "x", count: 500)) != .usage)
    }

    /// A line read from a terminal or a file in another encoding (Latin-1 `é` is the byte 0xE9)
    /// arrives with U+FFFD in place of each byte that is not UTF-8: refused in one line, with no
    /// request, rather than OMDb's "Something went wrong." about a search nobody typed.
    @Test func aSearchOfBytesThatAreNotUTF8IsRefusedInOneLineWithNoRequest() async throws {
        let (status, err, requested, session) = try await searchOverAPage(String(decoding: [0x43, 0x61, 0x66, 0xE9], as: UTF8.self))
        #expect(status == .usage)
        #expect(err == "That search holds bytes that are not UTF-8 text (shown as \u{FFFD}): type it again, or set the terminal or the file to UTF-8.\n")
        #expect(!requested)
        #expect(session.searchController.rows.count == 10)
    }

    @Test func aPastedQueryIsNormalisedBeforeItIsSentAndQuoted() async throws {
        #expect(PrintableText.query("\u{200B}star\u{00A0}\u{200D}wars\u{2009}\u{202E}e\u{0301} ") == "star wars \u{00E9}")
        let capture = Capture()
        let session = try session(capture)
        await session.handle(.search("star wars"))
        let sent = session.client.apiRequestCount
        let shown = capture.outLines.first
        capture.clear()
        // The same search as typed, so the same answer from memory: no second request.
        await session.handle(.search("star\u{00A0}\u{200B}wars"))
        #expect(capture.outLines.first == shown)
        #expect(session.client.apiRequestCount == sent)
        capture.clear()
        await session.handle(.search("\u{200B}\u{FEFF}"))
        #expect(capture.err == "search needs text: search TEXT\n")
    }

    @Test func aTypoOfACommandKeepsThePageAndSaysWhichCommandItResembles() async throws {
        let capture = Capture()
        let session = try session(capture)
        await session.handle(.search("star wars"))
        let rows = session.searchController.rows.map(\.item.imdbID)
        capture.clear()
        await session.handle(Command(parsing: "moer"))
        #expect(capture.err == "\"moer\" is not a command: did you mean more? To search for it, type: search moer\n")
        #expect(capture.out == "")
        #expect(session.searchController.rows.map(\.item.imdbID) == rows)
        capture.clear()
        await session.handle(Command(parsing: "show 2"))
        #expect(capture.err == "")
        #expect(capture.out.contains(session.searchController.rows[1].item.title))
    }

    /// A typo of a command that takes arguments, followed by them, sends nothing: it was searched
    /// for (twice, the second time without its punctuation).
    @Test func aTypoOfACommandWithItsArgumentsSendsNoRequest() async throws {
        let (session, capture, sent) = try await searched("star wars")
        for line in ["postr 1 shots", "svae x.csv"] { await session.handle(Command(parsing: line)) }
        #expect(capture.errLines == ["\"postr 1 shots\" is not a command: did you mean poster? To search for it, type: search postr 1 shots",
                                     "\"svae x.csv\" is not a command: did you mean save? To search for it, type: search svae x.csv"])
        #expect(session.client.apiRequestCount == sent)
    }

    @Test func aSearchThatFindsNothingKeepsTheRowsAndTheWayOn() async throws {
        let capture = Capture()
        let session = try session(capture)
        await session.handle(.search("star trek"))
        let rows = session.searchController.rows.map(\.item.imdbID)
        capture.clear()
        await session.handle(.search("tt12"))
        #expect(capture.err.hasPrefix("No results for \"tt12\""))
        #expect(session.searchController.rows.map(\.item.imdbID) == rows)
        #expect(session.searchController.canLoadMore)
        capture.clear()
        await session.handle(.show(2))
        #expect(capture.err == "")
        await session.handle(.more)
        #expect(capture.outLines.contains("Results for \"star trek\": page 2 of 3, 22 in all"))
        #expect(session.searchController.rows.count == 20)
    }

    @Test func prevAndFirstShowPagesAgainFromMemoryWithNoRequest() async throws {
        let capture = Capture()
        let session = try session(capture)
        await session.handle(.search("star trek"))
        let pageOne = capture.outLines
        await session.handle(Command(parsing: "next"))
        #expect(session.searchController.rows.count == 20)
        let sent = session.client.apiRequestCount
        // Page 1 as it was, but for the line under it, which names its rows: page 2 was seen since.
        let pageOneAgain = pageOne.map { $0.hasPrefix("Showing 10 of 22") ? $0.replacingOccurrences(of: "Showing 10 of 22", with: "Showing 1–10 of 22") : $0 }
        #expect(pageOneAgain != pageOne)
        capture.clear()
        await session.handle(Command(parsing: "prev"))
        #expect(capture.outLines.sorted() == pageOneAgain.sorted())
        capture.clear()
        await session.handle(Command(parsing: "page 2"))
        #expect(capture.outLines.first == "Results for \"star trek\": page 2 of 3, 22 in all")
        #expect(capture.outLines.contains { $0.hasPrefix(" 11. ") })
        capture.clear()
        await session.handle(Command(parsing: "first"))
        #expect(capture.outLines.sorted() == pageOneAgain.sorted())
        #expect(session.client.apiRequestCount == sent)
        #expect(session.searchController.rows.count == 20)
        capture.clear()
        await session.handle(Command(parsing: "prev"))
        #expect(capture.err == "This is the first page of \"star trek\": type next for the page after it.\n")
    }

    /// ddgr's keys at the prompt: `n` and `p` walk the pages, a number alone shows the row that
    /// has it (no search), a number no row has is searched for as a title, and `search N`
    /// searches whatever the rows; `o LIST` opens those rows.
    @Test func ddgrsKeysWalkThePagesShowRowsAndOpenThem() async throws {
        let capture = Capture()
        let session = try session(capture)
        await session.handle(Command(parsing: "star trek"))
        await session.handle(Command(parsing: "n"))
        #expect(capture.outLines.contains("Results for \"star trek\": page 2 of 3, 22 in all"))
        capture.clear()
        await session.handle(Command(parsing: "p"))
        #expect(capture.outLines.first == "Results for \"star trek\": page 1 of 3, 22 in all")
        capture.clear()
        await session.handle(Command(parsing: "13"))
        #expect(capture.err == "")
        #expect(capture.outLines.first?.hasPrefix(session.searchController.rows[12].item.title) == true, "\(capture.outLines)")
        #expect(!capture.out.contains("Results for"))
        capture.clear()
        await session.handle(Command(parsing: "o 1-2"))
        #expect(capture.outLines == [session.searchController.rows[0], session.searchController.rows[1]].map { "https://www.imdb.com/title/\($0.item.imdbID)/" })
        capture.clear()
        await session.handle(Command(parsing: "2001"))
        #expect(capture.outLines.first == "Results for \"2001\": page 1 of 1, 1 in all")
        capture.clear()
        await session.handle(Command(parsing: "search 1"))
        #expect(capture.err.hasPrefix("Too many results for \"1\""))
    }

    /// The catalogue's rows are numbered as a search's: a number alone shows one (with the poster
    /// its record names, saved), `poster N` saves a row's poster though the listing has no address
    /// for it, `n` and `p` walk the listing, and a search takes its place.
    @Test func theCataloguesRowsAreNumberedAndTakeTheRowCommands() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        let session = try session(capture, directory: folder)
        session.context.offlineCatalogue = catalogue
        await session.handle(Command(parsing: "catalogue"))
        #expect(capture.outLines.count == 22 && capture.outLines[11] == " 11. Alien (1979)  movie  tt0078748", "\(capture.outLines)")
        await session.handle(.posters(folder.appendingPathComponent("p").path))
        capture.clear()
        await session.handle(Command(parsing: "11"))
        #expect(capture.outLines.first == "Alien (1979)  movie  tt0078748")
        #expect(capture.outLines.contains("  Poster: p/Alien (1979) [tt0078748].webp"), "\(capture.outLines)")
        capture.clear()
        await session.handle(Command(parsing: "poster 12 shots"))
        #expect(capture.outLines == [" 12. Alien 3 (1992): poster saved: shots/Alien 3 (1992) [tt0103644].png"])
        capture.clear()
        await session.handle(Command(parsing: "p"))
        #expect(capture.err == "This is the first page of the catalogue: type next for the page after it.\n")
        await session.handle(Command(parsing: "n"))
        #expect(capture.outLines.first == "The offline catalogue: page 2 of 13, 245 titles")
        #expect(session.searchController.rows.map(\.number) == Array(21...40))
        capture.clear()
        await session.handle(Command(parsing: "alien"))
        await session.handle(Command(parsing: "n"))
        #expect(session.searchController.rows.map(\.item.title).first == "Alien" && capture.err.hasPrefix("No more results for \"alien\""), "\(capture.err)")
    }

    /// The line under a page says what that page shows and what comes after it: `first` after the
    /// last page names page 1's rows (it said "Showing 22 of 22" and to type more), the last page
    /// shown again says that is all, and `prev` on a search of one page offers no page after it.
    @Test func theLineUnderAPageDescribesThePageShownAndWhatComesNext() async throws {
        let capture = Capture()
        let session = try session(capture)
        await session.handle(.search("star trek"))
        await session.handle(.more)
        await session.handle(.more)
        #expect(capture.outLines.last == "Showing 22 of 22: that is all.")
        var footers: [String] = []
        for command in [Command.page(1), .more, .more, .previousPage] {
            capture.clear()
            await session.handle(command)
            footers.append(capture.outLines.last ?? "")
        }
        #expect(footers == ["Showing 1–10 of 22. Type more for the next page.", "Showing 11–20 of 22. Type more for the next page.",
                            "Showing 22 of 22: that is all.", "Showing 11–20 of 22. Type more for the next page."])
        capture.clear()
        await session.handle(.search("alien"))
        await session.handle(.previousPage)
        #expect(capture.err == "This is the first page of \"alien\", and its only one.\n")
    }

    @Test func pageNLoadsJustThatPageAndNextGoesOnFromIt() async throws {
        let (session, capture, sent) = try await searched("star trek")
        await session.handle(.page(3))
        #expect(capture.outLines.first == "Results for \"star trek\": page 3 of 3, 22 in all")
        // One search for page 3 and one record for each of its two rows: page 2 was never asked for.
        #expect(session.client.apiRequestCount == sent + 1 + 2)
        #expect(session.searchController.rows.count == 12)
        capture.clear()
        await session.handle(.page(4))
        #expect(capture.err == "There is no page 4 of \"star trek\": it has 3 pages.\n")
        capture.clear()
        await session.handle(.previousPage)
        #expect(capture.outLines.first == "Results for \"star trek\": page 2 of 3, 22 in all")
        #expect(session.searchController.rows.count == 22)
    }

    /// The numbers beside the rows printed: `  21. Title…` gives 21.
    private func numbersShown(_ lines: [String]) -> [Int] {
        lines.compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard let dot = trimmed.firstIndex(of: "."), trimmed[dot...].hasPrefix(". ") else { return nil }
            return Int(trimmed[..<dot])
        }
    }

    /// A row's number is its place in the search, whatever order the pages were visited in: page 3
    /// jumped to from page 1 is 21–30 (it was numbered on from page 1, 11–20, and `prev`'s page 2
    /// then 21–30); `show`, a number of a page not loaded, `more` after the jump and `save` agree.
    @Test func aPageJumpedToIsNumberedByItsPlaceInTheSearchAndSaveKeepsThoseRanks() async throws {
        // The titles in OMDb's order, by walking star's four pages in order.
        let walked = try session(Capture())
        await walked.handle(.search("star"))
        for _ in 2...4 { await walked.handle(.more) }
        let inOrder = walked.searchController.rows.map(\.item)
        #expect(inOrder.count == 38)

        let capture = Capture()
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let session = try session(capture, directory: folder)
        await session.handle(.search("star"))
        capture.clear()
        await session.handle(.page(3))
        #expect(capture.outLines.first == "Results for \"star\": page 3 of 4, 38 in all")
        #expect(numbersShown(capture.outLines) == Array(21...30))
        #expect(capture.outLines.contains { $0.hasPrefix("Showing 21–30 of 38.") })
        capture.clear()
        await session.handle(.show(15))
        #expect(capture.err == "There is no result 15: pages 1 and 3 are loaded (1–10, 21–30); type page 2 to load it.\n")
        capture.clear()
        // Past the last of the 38 results: page 4 does not hold it, so it is not offered.
        await session.handle(.show(39))
        #expect(capture.err == "There is no result 39: choose 1 to 10 or 21 to 30, or type more for the next page.\n")
        capture.clear()
        await session.handle(.show(23))
        #expect(capture.err == "")
        #expect(capture.out.contains(inOrder[22].title))
        capture.clear()
        await session.handle(.more)
        #expect(capture.outLines.first == "Results for \"star\": page 4 of 4, 38 in all")
        #expect(numbersShown(capture.outLines) == Array(31...38))
        capture.clear()
        await session.handle(.previousPage)
        #expect(capture.outLines.first == "Results for \"star\": page 3 of 4, 38 in all")
        #expect(numbersShown(capture.outLines) == Array(21...30))
        capture.clear()
        await session.handle(.previousPage)
        #expect(capture.outLines.first == "Results for \"star\": page 2 of 4, 38 in all")
        #expect(numbersShown(capture.outLines) == Array(11...20))
        #expect(capture.outLines.contains { $0.hasPrefix("Showing 11–20 of 38.") })
        #expect(session.searchController.rows.map(\.item.imdbID) == inOrder.map(\.imdbID))
        capture.clear()
        await session.handle(.save("x.json", force: false))
        let data = try Data(contentsOf: folder.appendingPathComponent("x.json"))
        let objects = try #require(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(objects.map { $0["imdbID"] as? String } == inOrder.map(\.imdbID))
        #expect(objects.map { $0["rank"] as? Int } == Array(1...38))
        #expect(objects.map { $0["page"] as? Int } == (1...38).map { ($0 - 1) / 10 + 1 })
    }

    /// OMDb's pages of a search of 30 results whose page 2 repeats page 1's fifth.
    private struct RepeatingPages: InMemoryTransport {
        static func item(_ id: String) -> [String: String] {
            ["Title": "Title \(id)", "Year": "2001", "imdbID": id, "Type": "movie", "Poster": "N/A"]
        }
        static let pages = [(1...10).map { "tt00000\($0 + 10)" }, ["tt0000015"] + (1...9).map { "tt00000\($0 + 50)" },
                            (1...10).map { "tt00000\($0 + 60)" }]

        func answer(_ url: URL, timeout: Int) async throws -> HTTPResponse {
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            func value(_ name: String) -> String? { items.last { $0.name == name }?.value }
            if value("s") != nil {
                let page = Int(value("page") ?? "1") ?? 1
                return StubTransport.json(["Search": Self.pages[page - 1].map(Self.item), "totalResults": "30", "Response": "True"])
            }
            var record = Self.item(value("i") ?? "")
            record["Response"] = "True"
            return StubTransport.json(record)
        }
    }

    /// A page the client took a repeat of an earlier page's result out of numbers its other rows
    /// on from its first place (11–19), its last number is free and says so, the repeated result
    /// is the row page 1 showed (5), and the page after it starts at its own place (21, not 20).
    @Test func aPageWithARepeatOfAnEarlierPageKeepsItsPlacesAndLeavesItsLastNumberFree() async throws {
        let capture = Capture()
        var settings = Settings()
        settings.prefetch = false
        let client = OMDbClient(configuration: .init(apiKey: "stub-key", baseURL: StubTransport.baseURL), transport: RepeatingPages())
        let session = Session(client: client, settings: settings, console: capture.console(),
                              presenter: TextPresenter(console: capture.console(), currentDirectory: URL(fileURLWithPath: "/")),
                              currentDirectory: URL(fileURLWithPath: "/"))
        await session.handle(.search("title"))
        await session.handle(.more)
        await session.handle(.more)
        #expect(capture.outLines.contains("Results for \"title\": page 2 of 3, 30 in all"))
        #expect(numbersShown(capture.outLines) == Array(1...19) + Array(21...30))
        #expect(capture.outLines.contains { $0.hasPrefix("Showing 29 of 30") })
        capture.clear()
        await session.handle(Command(parsing: "show 20"))
        #expect(capture.err == "There is no result 20: choose 1 to 19 or 21 to 30.\n")
        capture.clear()
        await session.handle(Command(parsing: "open 5 11"))
        let opened: [String] = capture.outLines.filter { $0.hasPrefix("https://www.imdb.com/title/") }   // outside #expect: slow inside
        #expect(opened == ["https://www.imdb.com/title/tt0000015/", "https://www.imdb.com/title/tt0000051/"])
    }

    /// The one-line answer for a number with no row: the runs of numbers there are.
    @Test func rangesAreSaidAsRuns() {
        #expect(SearchController.ranges([1, 2, 3, 21, 22, 30], through: " to ") == "1 to 3, 21 to 22 or 30")
        #expect(SearchController.ranges(Array(1...10) + Array(21...30), through: "–") == "1–10, 21–30")
        #expect(SearchController.ranges(Array(1...10), through: " to ") == "1 to 10")
    }

    @Test func showAndOpenTakeRowListsAndRefuseAListWithARowThatIsNotThere() async throws {
        let capture = Capture()
        let session = try session(capture)
        await session.handle(.search("star trek"))
        capture.clear()
        await session.handle(Command(parsing: "show 1,3"))
        #expect(capture.err == "")
        #expect(capture.out.contains(session.searchController.rows[0].item.title) && capture.out.contains(session.searchController.rows[2].item.title))
        capture.clear()
        await session.handle(Command(parsing: "open 1-2"))
        #expect(capture.outLines.filter { $0.hasPrefix("https://www.imdb.com/title/") }
            == session.searchController.rows.prefix(2).map { "https://www.imdb.com/title/\($0.item.imdbID)/" })
        capture.clear()
        await session.handle(Command(parsing: "show 2 99"))
        #expect(capture.err == "There is no result 99: choose 1 to 10, or type more for the next page.\n")
        #expect(capture.out == "")
    }

    @Test func posterSavesOnlyThePostersOfTheRowsPicked() async throws {
        let capture = Capture()
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let session = try session(capture, directory: folder)
        await session.handle(.search("star wars"))
        // With no posters folder, a page downloads no poster.
        #expect(files(in: folder).isEmpty)
        capture.clear()
        await session.handle(Command(parsing: "poster 1,3 picked"))
        let picked = folder.appendingPathComponent("picked")
        #expect(files(in: picked).count == 2)
        #expect(capture.outLines.count == 2)
        #expect(capture.outLines.allSatisfy { $0.contains("poster saved: ") })
        capture.clear()
        // No folder named and none set: the working folder.
        await session.handle(Command(parsing: "poster 2"))
        #expect(files(in: folder).count(where: { $0 != "picked" }) == 1)
    }
}
