import Foundation
@testable import OMDbKit
import Testing
@testable import MoviesCLI
import TestSupport

@MainActor
@Suite struct JSONPresenterTests {
    static func object(_ line: String) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(parsed as? [String: Any], "not a JSON object: \(line)")
    }

    /// The fields every line gained in issue 18.
    static let recordKeys = RecordOutput.CodingKeys.allCases.map(\.rawValue)
        .filter { !["imdbID", "title", "year", "type", "plot", "poster", "page", "rank", "plotError", "posterError", "posterFallback"].contains($0) }

    static func item(_ id: String, _ title: String, year: String? = "1999", poster: URL? = nil) -> SearchItem {
        SearchItem(imdbID: id, title: title, year: year.map(ReleaseYear.init), type: .movie, posterURL: poster)
    }

    @Test func successWithoutPosterFolderIsExact() async throws {
        let stub = StubTransport(records: ["tt0000001": ["Title": "A", "imdbID": "tt0000001", "Plot": "It happens."]])
        let update = try #require(await updates(stub.client(), for: [Self.item("tt0000001", "A")]).first)
        // One encoder for every output (issue 23): keys sorted, every field of the record (issue 18).
        // Joined into a typed let outside #expect: the concatenation inside took a third of a second to type-check.
        let everyFieldSorted: String = #"{"actors":null,"awards":null,"boxOffice":null,"country":null,"director":null,"dvd":null,"genre":null,"#
            + #""imdbID":"tt0000001","imdbRating":null,"imdbVotes":null,"language":null,"metascore":null,"page":1,"plot":"It happens.","#
            + #""poster":null,"posterURL":null,"production":null,"rank":3,"rated":null,"ratings":[],"released":null,"#
            + #""runtimeMinutes":null,"title":"A","totalSeasons":null,"type":"movie","website":null,"writer":null,"year":"1999"}"#
        #expect(JSONPresenter.line(update, number: 3, page: 1) == everyFieldSorted)
    }

    @Test func keysAndNullsFollowEachOutcome() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let stub = StubTransport(records: [
            "tt0000001": ["Title": "Plot and poster", "imdbID": "tt0000001", "Plot": "A plot."],
            "tt0000002": ["Title": "No plot", "imdbID": "tt0000002", "Plot": "N/A"],
            // tt0000003 has no record: the lookup fails with "Error getting data."
        ])
        let items = [
            Self.item("tt0000001", "Plot and poster", poster: StubTransport.posterURL("one")),
            Self.item("tt0000002", "No plot", year: nil),
            Self.item("tt0000003", "Failed", poster: StubTransport.posterURL("three")),
        ]
        let got = await updates(stub.client(), for: items, posters: PosterStore(folder: folder))
        #expect(got.count == 3)
        let objects = try got.enumerated().map { try Self.object(JSONPresenter.line($0.element, number: $0.offset + 1, page: 1)) }
        // Issue 18: the record's fields besides (all null when there is no record).
        let keys: [String] = ["imdbID", "title", "year", "type", "plot", "poster", "page", "rank"] + Self.recordKeys

        let full = objects[0]
        #expect(Set(full.keys) == Set(keys))
        #expect(full["plot"] as? String == "A plot.")
        let posterPath = try #require(full["poster"] as? String)
        #expect(posterPath.hasPrefix(folder.standardizedFileURL.path + "/"))
        #expect(posterPath.hasSuffix("[tt0000001].jpg"))
        #expect(FileManager.default.contents(atPath: posterPath) == StubTransport.jpeg)

        let noPlot = objects[1]
        #expect(Set(noPlot.keys) == Set(keys + ["posterError"]))
        #expect(noPlot["plot"] is NSNull)
        #expect(noPlot["year"] is NSNull)
        #expect(noPlot["poster"] is NSNull)
        #expect(noPlot["posterError"] as? String == "no poster (N/A)")

        let failed = objects[2]
        #expect(Set(failed.keys) == Set(keys + ["plotError"]))
        #expect(failed["plot"] is NSNull)
        #expect(failed["plotError"] as? String == OMDbError.dataUnavailable.description)
        #expect(failed["poster"] as? String != nil)

        #expect(objects.map { $0["rank"] as? Int } == [1, 2, 3])
        #expect(objects.allSatisfy { $0["page"] as? Int == 1 && $0["type"] as? String == "movie" })
    }

    /// A page stopped (Ctrl-C, SIGINT) after a row's poster was saved but before its record came:
    /// the row still has its line, naming the file and saying the plot was stopped; a row with
    /// neither has none. Before, such rows were left out, and one-shot `--json --pages 5` stopped
    /// by SIGINT left posters in the folder that no line named (hostile pass, stop 32).
    @Test func aRowStoppedAfterItsPosterWasSavedKeepsItsLine() throws {
        let capture = Capture()
        let presenter = JSONPresenter(console: capture.console())
        let page = SearchPage(query: SearchQuery(text: "x"), number: 1, totalResults: 2, items: [], shownSoFar: 2)
        let saved = SavedPoster(file: URL(fileURLWithPath: "/posters/One (1999) [tt0000001].jpg"), wasAlreadyThere: false)
        presenter.pageArrived(page, first: 1)
        presenter.rowUpdated(.at(0, item: Self.item("tt0000001", "One"), part: .poster(.success(saved))), number: 1)
        presenter.rowUpdated(.at(1, item: Self.item("tt0000002", "Two"), part: .poster(.failure(.posterUnavailable))), number: 2)
        presenter.pageFinished(page, pagesShown: [1])
        #expect(capture.outLines.count == 1)
        let line = try Self.object(try #require(capture.outLines.first))
        #expect(line["imdbID"] as? String == "tt0000001")
        #expect(line["poster"] as? String == saved.file.path)
        #expect(line["plotError"] as? String == JSONPresenter.stoppedPlot)
        #expect(line["rank"] as? Int == 1)
    }

    @Test func noPosterFolderMeansNullPosterAndNoPosterError() async throws {
        let stub = StubTransport()
        let update = try #require(await updates(stub.client(), for: [Self.item("tt0000009", "Gone")]).first)
        let object = try Self.object(JSONPresenter.line(update, number: 1, page: 2))
        #expect(Set(object.keys) == Set(["imdbID", "title", "year", "type", "plot", "poster", "plotError", "page", "rank"] + Self.recordKeys))
        #expect(object["poster"] is NSNull)
        #expect(object["page"] as? Int == 2)
    }

    @Test(arguments: [
        "He said \"hi\"",
        #"back\slash \\ and \" mixed"#,
        "escape\u{1B}[2J bell\u{07} nul\u{00} tab\t newline\n cr\r del\u{7F}",
        "slash/and unicode: Amélie 千と千尋 🎬 \u{2028}",
        "c1 csi\u{9B}31m and nel\u{85}",
    ])
    func awkwardTitlesAreEscapedAndSurviveARoundTrip(title: Typed) async throws {
        let title = title.text
        let stub = StubTransport(records: ["tt0000001": ["Title": "x", "imdbID": "tt0000001", "Plot": title]])
        let update = try #require(await updates(stub.client(), for: [Self.item("tt0000001", title)]).first)
        let line = JSONPresenter.line(update, number: 1, page: 1)
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                "raw control character in \(line.debugDescription)")
        #expect(!line.contains("\n"))
        let object = try Self.object(line)
        #expect(object["title"] as? String == title)
    }

    @Test func oneShotJSONPrintsLinesInRankOrder() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture, json: true)
        let status = await OneShot(session: session, console: capture.console()).run(query: "star trek", pages: 3)
        #expect(status == Movies.Status.success)
        #expect(capture.err == "")
        let objects = try capture.outLines.map(Self.object)
        #expect(objects.count == 22)
        // Typed and built outside #expect: inside, these two took a quarter of a second to type-check.
        let ranks: [Int?] = objects.map { $0["rank"] as? Int }
        let pages: [Int?] = objects.map { $0["page"] as? Int }
        let ranksInOrder: [Int?] = (1...22).map { $0 }
        let tenOnePageTenTwoTwoThree: [Int?] = Array(repeating: 1, count: 10) + Array(repeating: 2, count: 10) + [3, 3]
        #expect(ranks == ranksInOrder)
        #expect(pages == tenOnePageTenTwoTwoThree)
        #expect(objects.map { $0["imdbID"] as? String } == session.rows.map(\.item.imdbID))
        #expect(objects.allSatisfy { $0["plot"] is String && $0["poster"] is NSNull })
    }

    /// With --json, stdout holds only JSON lines: "No results" goes to stderr.
    @Test func oneShotJSONWithNoResultsPrintsNoTextOnStdout() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture, json: true)
        let status = await OneShot(session: session, console: capture.console()).run(query: "zzzzqq", pages: 1)
        #expect(status == Movies.Status.success)
        #expect(capture.out == "")
        #expect(capture.err.hasPrefix("No results for \"zzzzqq\""))
    }
}
