import Foundation
import OMDbKit
import Testing
@testable import MoviesCLI
@testable import LineEditing
import TestSupport

/// Issue 18: an IMDb ID or link is a title to look up, not text to search; `save` writes the
/// search on screen; ratings on a row's title line.
@MainActor
@Suite struct ShowTitleTests {
    @Test(arguments: [
        "tt0076759", "TT0076759", " tt0076759 ",
        "https://www.imdb.com/title/tt0076759/", "https://imdb.com/title/tt0076759", "http://m.imdb.com/title/tt0076759/",
        "https://www.imdb.com/title/tt0076759/reviews?ref_=tt_urv", "www.imdb.com/title/tt0076759/fullcredits/",
        "imdb.com/title/tt0076759", "m.imdb.com/title/tt0076759/?ref_=nv_sr_srsg_0", "https://www.imdb.com/fr/title/tt0076759/",
    ])
    func anIDOrATitleLinkNamesTheTitle(text: String) {
        #expect(IMDbReference(text) == .title("tt0076759"))
        #expect([Command(parsing: text), Command(parsing: "show " + text)] == [.showTitle(imdbID: "tt0076759"), .showTitle(imdbID: "tt0076759")])
    }

    @Test(arguments: [
        ("https://www.imdb.com/name/nm0000148/", "a person's page"),
        ("imdb.com/list/ls055592025/", "a list"),
        ("https://www.imdb.com/find/?q=star", "a search"),
        ("https://www.imdb.com/title/", "names no title"),
    ])
    func aLinkToSomethingElseSaysItIsNotATitle(link: String, words: String) throws {
        guard case .notATitle(let why)? = IMDbReference(link) else { Issue.record("\(link) read as a title or as text"); return }
        #expect(why.contains(words) && why.contains("tt") && Command(parsing: link) == .invalid(hint: why), "\(why)")
        #expect(usageMessage { try Options.parse(["show", link]) } == why)
    }

    @Test func anythingElseIsText() {
        let texts = ["star wars", "tt123", "tt0076759x", "https://example.com/title/tt0076759/", "notimdb.com/title/tt0076759"]
        #expect(texts.compactMap(IMDbReference.init) == [])
    }

    @Test func saveTakesSessionAndForceInEitherOrder() {
        let lines = ["save out.json", "save out.json --session", "save! out.json --session", "save out.json --session --force", "save out.json --force --session"]
        let expected: [Command] = [.save("out.json", force: false, session: false), .save("out.json", force: false, session: true),
                                   .save("out.json", force: true, session: true), .save("out.json", force: true, session: true),
                                   .save("out.json", force: true, session: true)]
        #expect(lines.map { Command(parsing: $0) } == expected)
    }

    /// An ID typed in a new session with posters on names the poster an earlier session saved
    /// (it showed none until a search of this session had saved it), and `show N` names a row's
    /// poster when posters were turned on after the search.
    @Test func theDetailsNameTheSavedPosterWhateverSavedIt() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        var settings = Settings()
        settings.posters = folder.appendingPathComponent("shots")
        let earlier = try catalogueSession(Capture(), settings: settings, directory: folder)
        await earlier.handle(.search("star wars"))
        let capture = Capture()
        let session = try catalogueSession(capture, settings: settings, directory: folder)
        await session.handle(Command(parsing: "tt0076759"))
        #expect(capture.outLines.contains { $0.hasPrefix("  Poster: shots/Star Wars: Episode IV - A New Hope (1977) [tt0076759].") },
                "\(capture.outLines)")
        capture.clear()
        let later = try catalogueSession(capture, directory: folder)
        await later.handle(.search("alien"))
        await later.handle(.posters(folder.appendingPathComponent("later").path))
        capture.clear()
        await later.handle(.show(1))
        #expect(capture.outLines.contains { $0.hasPrefix("  Poster: later/Alien (1979) [tt0078748].") }, "\(capture.outLines)")
    }

    /// Before: the poster `show N` saved was named on screen but not in the file `save` wrote.
    @Test func aPosterSavedByShowIsInTheSavedFile() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let session = try catalogueSession(Capture(), directory: folder)
        await session.handle(.search("alien"))
        await session.handle(.posters(folder.appendingPathComponent("later").path))
        await session.handle(.show(1))
        await session.handle(Command(parsing: "save out.json"))
        let poster = try Self.saved(folder.appendingPathComponent("out.json")).first { $0["imdbID"] as? String == "tt0078748" }?["poster"]
        #expect((poster as? String)?.hasPrefix(folder.appendingPathComponent("later/Alien (1979) [tt0078748].").path) == true, "\(poster ?? "none")")
    }

    /// Before: `tt0076759` was searched as text and answered "No results".
    @Test func anIDAtThePromptShowsTheTitlesDetailsAndKeepsTheSearch() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.search("alien"))
        let rows = session.searchController.rows.count
        capture.clear()
        await session.handle(Command(parsing: "https://m.imdb.com/title/tt0076759/reviews"))
        #expect(capture.err == "" && capture.outLines.first == "Star Wars: Episode IV - A New Hope (1977)  movie  tt0076759")
        #expect(capture.out.contains("Director: George Lucas") && capture.out.contains("Rotten Tomatoes 93%") && session.searchController.rows.count == rows)
        capture.clear()
        await session.handle(Command(parsing: "tt9999999"))
        #expect(capture.err == "The offline catalogue has no title with the IMDb ID tt9999999: check the ID or the link.\n")
    }

    // MARK: save

    /// Before: `save` wrote every row of the session (other searches, episode lists).
    @Test func saveWritesTheCurrentSearchAndSessionWritesEverything() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        let session = try catalogueSession(capture, directory: folder)
        await session.handle(.search("alien"))
        let alien = session.searchController.rows.map(\.item.imdbID)
        await session.handle(.search("star wars"))
        await session.handle(.more)
        let starWars = session.searchController.rows.map(\.item.imdbID)
        #expect(starWars.count == 16)
        await session.handle(.episodes(12, season: nil))   // tt0458290, a series with no episode list offline
        await session.handle(.showTitle(imdbID: "tt0133093"))
        capture.clear()

        await session.handle(Command(parsing: "save now.json"))
        #expect(capture.out == "Saved 16 movies to \(folder.appendingPathComponent("now.json").path).\n")
        let now = try Self.saved(folder.appendingPathComponent("now.json"))
        #expect(now.map { $0["imdbID"] as? String } == starWars)
        let first = try #require(now.first)
        // As search --json has them (issue 23): numbers as numbers, OMDb's ratings as a list.
        #expect(first["imdbRating"] as? Double == 8.6 && first["metascore"] as? Int == 90
            && (first["ratings"] as? [[String: String]])?.contains { $0["source"] == "Rotten Tomatoes" && $0["value"] == "93%" } == true)

        capture.clear()
        await session.handle(Command(parsing: "save all.json --session"))
        let all = try Self.saved(folder.appendingPathComponent("all.json")).compactMap { $0["imdbID"] as? String }
        #expect(Set(all) == Set(alien + starWars + ["tt0133093"]) && capture.out == "Saved \(all.count) movies to \(folder.appendingPathComponent("all.json").path).\n")
    }

    /// Rows whose record never came (Ctrl-C) are left out, and counted.
    @Test func rowsThatNeverLoadedAreLeftOutAndCounted() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        let session = try catalogueSession(capture, directory: folder)
        await session.handle(.search("star wars"))
        session.searchController.rows[3].record = nil
        session.searchController.rows[7].record = nil
        capture.clear()
        await session.handle(.save("out.csv", force: false))
        #expect(capture.out == "Saved 8 movies to \(folder.appendingPathComponent("out.csv").path). 2 rows that never loaded were left out.\n")
        for index in session.searchController.rows.indices { session.searchController.rows[index].record = nil }
        capture.clear()
        await session.handle(.save("none.csv", force: false))
        #expect(capture.err.hasPrefix("Nothing to save: none of the 10 rows of this search loaded.")
            && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("none.csv").path))
    }

    static func saved(_ file: URL) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
    }

    // MARK: Ratings on a row

    static let item = SearchItem(imdbID: "tt0076759", title: "Star Wars: Episode IV - A New Hope", year: ReleaseYear("1977"), type: .movie, posterURL: nil)
    static let ratings = RatingsSummary(imdb: "8.6", rottenTomatoes: "93%", metacritic: "90")

    @Test func aRowShowsEveryRatingWhereTheWidthAllows() {
        let line = LivePage.titleLine(Self.item, number: 1, tags: [], ratings: Self.ratings, width: 120, style: .plain).line
        #expect(line == "  1. Star Wars: Episode IV - A New Hope (1977)  movie  tt0076759  IMDb 8.6 · RT 93% · MC 90")
    }

    /// The ratings give way before the ID, the type and the year, from the end: the ID is never cut.
    /// Rotten Tomatoes and Metacritic go before the title is shortened (76 columns: the whole title
    /// and IMDb's rating), IMDb's before the title is cut below 20 columns.
    @Test(arguments: [
        (92, "  IMDb 8.6 · RT 93% · MC 90"), (84, "  IMDb 8.6 · RT 93%"), (76, "  IMDb 8.6"), (60, "  IMDb 8.6"), (55, ""), (40, ""),
    ])
    func ratingsAreCutBeforeTheID(width: Int, tail: String) {
        let line = LivePage.titleLine(Self.item, number: 1, tags: [], ratings: Self.ratings, width: width, style: .plain).line
        #expect(displayWidth(line) <= width && line.hasSuffix("(1977)  movie  tt0076759" + tail), "\(line)")
    }

    @Test func ratingsComeFromTheRecordsListOrItsFields() async throws {
        let stub = StubTransport(records: ["tt0000001": ["Title": "A", "imdbID": "tt0000001", "imdbRating": "7.1", "Metascore": "64"]])
        let movie = try await stub.client().movie(imdbID: "tt0000001")
        #expect(RatingsSummary(movie) == RatingsSummary(imdb: "7.1", rottenTomatoes: nil, metacritic: "64")
            && RatingsSummary(movie).text(parts: 3) == "IMDb 7.1 · MC 64")
    }
}
