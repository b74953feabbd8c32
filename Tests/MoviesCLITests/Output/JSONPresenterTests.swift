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

    /// The values of `keys` in `object` as text: strings as they are, numbers in digits, "null" for
    /// null, "missing" for a key it lacks.
    static func values(_ object: [String: Any], _ keys: [String]) -> [String] {
        keys.map { key in
            switch object[key] {
            case let text as String: text
            case let number as Int: String(number)
            case is NSNull: "null"
            case nil: "missing"
            case let value?: "\(value)"
            }
        }
    }

    /// The fields every line gained in issue 18.
    static let recordKeys = RecordOutput.CodingKeys.allCases.map(\.rawValue)
        .filter { !["imdbID", "title", "year", "type", "plot", "poster", "page", "rank", "plotError", "posterError", "posterFallback"].contains($0) }

    static func item(_ id: String, _ title: String, year: String? = "1999", poster: URL? = nil) -> SearchItem {
        SearchItem(imdbID: id, title: title, year: year.map(ReleaseYear.init), type: .movie, posterURL: poster)
    }

    @Test func successWithoutPosterFolderIsExact() async throws {
        let stub = StubTransport(records: ["tt0000001": ["Title": "A", "imdbID": "tt0000001", "Plot": "It happens."]])
        let update = try #require(await updates(stub.client(), for: [Self.item("tt0000001", "A")], first: 3).first)
        // One encoder for every output (issue 23): keys sorted, every field of the record (issue 18).
        // Joined into a typed let outside #expect: the concatenation inside took a third of a second to type-check.
        let everyFieldSorted: String = #"{"actors":null,"awards":null,"boxOffice":null,"country":null,"director":null,"dvd":null,"genre":null,"#
            + #""imdbID":"tt0000001","imdbRating":null,"imdbVotes":null,"language":null,"metascore":null,"page":1,"plot":"It happens.","#
            + #""poster":null,"posterURL":null,"production":null,"rank":3,"rated":null,"ratings":[],"released":null,"#
            + #""runtimeMinutes":null,"title":"A","totalSeasons":null,"type":"movie","website":null,"writer":null,"year":"1999"}"#
        #expect(jsonLine(update, page: 1) == everyFieldSorted)
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
        let objects = try got.map { try Self.object(jsonLine($0, page: 1)) }
        // Issue 18: the record's fields besides (all null when there is no record).
        let keys: [String] = ["imdbID", "title", "year", "type", "plot", "poster", "page", "rank"] + Self.recordKeys

        try #require(objects.count == 3)
        let (full, noPlot, failed) = (objects[0], objects[1], objects[2])
        #expect([Set(full.keys), Set(noPlot.keys), Set(failed.keys)] == [Set(keys), Set(keys + ["posterError"]), Set(keys + ["plotError"])])
        let posterPath = full["poster"] as? String ?? ""
        #expect(posterPath.hasPrefix(folder.standardizedFileURL.path + "/") && posterPath.hasSuffix("[tt0000001].jpg"))
        #expect(FileManager.default.contents(atPath: posterPath) == StubTransport.jpeg)
        #expect(Self.values(full, ["plot"]) + Self.values(noPlot, ["plot", "year", "poster", "posterError"])
                + Self.values(failed, ["plot", "plotError"])
            == ["A plot.", "null", "null", "null", "no poster (N/A)", "null", OMDbError.dataUnavailable.description])
        #expect(failed["poster"] is String)
        #expect(objects.map { Self.values($0, ["rank", "page", "type"]) } == [["1", "1", "movie"], ["2", "1", "movie"], ["3", "1", "movie"]])
    }

    /// A page stopped (Ctrl-C, SIGINT) after a row's poster was saved but before its record came:
    /// the row still has its line, naming the file and saying the plot was stopped; a row with
    /// neither has none. Before, such rows were left out, and one-shot `--json --pages 5` stopped
    /// by SIGINT left posters in the folder that no line named (hostile pass, stop 32).
    @Test func aRowStoppedAfterItsPosterWasSavedKeepsItsLine() throws {
        let capture = Capture()
        let presenter = JSONPresenter(console: capture.console())
        let items = [Self.item("tt0000001", "One"), Self.item("tt0000002", "Two")]
        let page = SearchPage(query: SearchQuery(text: "x"), number: 1, totalResults: 2, items: items, shownSoFar: 2)
        let saved = SavedPoster(file: URL(fileURLWithPath: "/posters/One (1999) [tt0000001].jpg"), wasAlreadyThere: false)
        presenter.pageArrived(page, first: 1)
        presenter.rowUpdated(.at(0, item: items[0], part: .poster(.success(saved))), number: 1)
        presenter.rowUpdated(.at(1, item: items[1], part: .poster(.failure(.posterUnavailable))), number: 2)
        presenter.pageFinished(page, pagesShown: [1])
        let lines = try capture.outLines.map(Self.object)
        #expect(lines.map { Self.values($0, ["imdbID", "poster", "plotError", "rank"]) }
            == [["tt0000001", saved.file.path, JSONPresenter.stoppedPlot, "1"]])
    }

    @Test func noPosterFolderMeansNullPosterAndNoPosterError() async throws {
        let stub = StubTransport()
        let update = try #require(await updates(stub.client(), for: [Self.item("tt0000009", "Gone")]).first)
        let object = try Self.object(jsonLine(update, page: 2))
        #expect(Set(object.keys) == Set(["imdbID", "title", "year", "type", "plot", "poster", "plotError", "page", "rank"] + Self.recordKeys))
        #expect(Self.values(object, ["poster", "page"]) == ["null", "2"])
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
        let line = jsonLine(update, page: 1)
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                "raw control character in \(line.debugDescription)")
        #expect(try Self.object(line)["title"] as? String == title && !line.contains("\n"))
    }

    @Test func oneShotJSONPrintsLinesInRankOrder() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture, json: true)
        let status = await OneShot(session: session).run(query: "star trek", pages: 3)
        #expect(status == .success && capture.err == "")
        let objects = try capture.outLines.map(Self.object)
        // Rank, page and ID of each line, in order: 22 ranks, pages 1, 1… 2, 2… 3, 3.
        let expected: [[String]] = session.searchController.rows.enumerated().map { [String($0.offset + 1), String(min($0.offset / 10 + 1, 3)), $0.element.item.imdbID] }
        #expect(objects.map { Self.values($0, ["rank", "page", "imdbID"]) } == expected && expected.count == 22)
        #expect(objects.allSatisfy { $0["plot"] is String && $0["poster"] is NSNull })
    }

    /// With --json, stdout holds only JSON lines: "No results" goes to stderr.
    @Test func oneShotJSONWithNoResultsPrintsNoTextOnStdout() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture, json: true)
        let status = await OneShot(session: session).run(query: "zzzzqq", pages: 1)
        #expect(status == .success && capture.out == "" && capture.err.hasPrefix("No results for \"zzzzqq\""))
    }
}
