import Foundation
import OMDbKit
import TerminalImages
import Synchronization
import Testing
@testable import MoviesCLI
@testable import OMDbCatalogue
import TestSupport

/// `episodes`, `save`, `open` and posters drawn by `show`, in a session over the catalogue or a stub.
@MainActor
@Suite struct MoreSessionTests {
    @Test func episodesListASeasonAsRowsThatShowAccepts() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.search("twin peaks"))
        capture.clear()
        await session.handle(.episodes(1, season: nil))
        #expect(capture.outLines == [
            "Twin Peaks, season 1 of 2: 4 episodes",
            "  2. E00  Pilot  1990-04-08  IMDb 9.0  tt0098937",
            "  3. E01  Traces to Nowhere  1990-04-12  IMDb 8.3  tt0705927",
            "  4. E02  Zen, or the Skill to Catch a Killer  1990-04-19  IMDb 8.9  tt0705928",
            "  5. E03  Rest in Pain  1990-04-26  IMDb 8.3  tt0705929",
        ])
        capture.clear()
        await session.handle(.show(2))
        #expect(capture.outLines.first == "Pilot (1990)  episode  tt0098937" && capture.out.contains("homecoming queen"))
    }

    @Test func episodesSayWhichNumbersOMDbSkippedWithoutInventingThem() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.search("mandalorian"))
        capture.clear()
        await session.handle(.episodes(1, season: 1))
        // A heading, seven episodes and the note; the series' row and the seven episodes'.
        let counts = [capture.outLines.count, session.searchController.rows.count]
        #expect(counts == [9, 8])
        #expect(!capture.out.contains(" E05 ") && capture.outLines.last == "  OMDb lists no episode 5.")
    }

    @Test func missingSeasonHasItsOwnMessageAndIsNotAFailure() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        #expect(await session.handle(.search("breaking bad")) == ExitStatus.success)
        capture.clear()
        let status = await session.handle(.episodes(1, season: 9))
        #expect(capture.err.contains("OMDb has no season 9 of tt0903747 (\"Series or season not found!\")") && capture.out == "" && status == ExitStatus.success)
    }

    /// Every series of the offline catalogue says how many seasons it has (`show`'s Seasons line),
    /// and `episodes` lists its first season, or says the catalogue has no episode lists for it,
    /// naming the ones it has, and nothing about `show N`. Before, Star Wars: The Clone Wars had
    /// no Seasons line, and `episodes` said OMDb had no season 1 and that `show N` said how many.
    @Test func everyOfflineSeriesSaysItsSeasonsAndEpisodesAnswersHonestly() async throws {
        let folder = try #require(Catalogue.defaultFolder())
        let catalogue = try Catalogue(folder: folder)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("catalogue.json"))) as? [[String: Any]])
        let entries = objects.map { $0.compactMapValues { $0 as? String } }
        let series = entries.filter { $0["Type"] == "series" }
        #expect(series.count > 30)
        for entry in series {
            let (id, title) = (try #require(entry["imdbID"]), try #require(entry["Title"]))
            let capture = Capture()
            let session = try catalogueSession(capture)
            session.context.offlineCatalogue = catalogue
            let record = try await session.client.movie(imdbID: id, plot: .short)
            let seasons = record.totalSeasons.flatMap { Int($0) } ?? 0
            #expect(seasons >= 1, "\(title) says how many seasons it has")
            // A season the catalogue does not list is an answer, not a failure.
            #expect(await session.listSeason(of: id, season: 1, title: title) == .success)
            if catalogue.listedSeasons(of: id).isEmpty {
                #expect(capture.said == Said(err: "The offline catalogue has no episode lists for \(title): it has them only for "
                        + "Lost, The Mandalorian, Breaking Bad and Twin Peaks.\n"))
            } else {
                #expect(capture.outLines.first?.hasPrefix("\(title), season 1 of \(seasons): ") == true && capture.err == "", "\(capture.out)")
            }
        }
    }

    @Test func aSeasonTheOfflineCatalogueDoesNotListIsSaidToBeMissingFromIt() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        session.context.offlineCatalogue = try Catalogue(folder: try #require(Catalogue.defaultFolder()))
        #expect(await session.handle(.search("breaking bad")) == ExitStatus.success)
        capture.clear()
        let status = await session.handle(.episodes(1, season: 3))
        #expect(capture.err == "The offline catalogue lists the episodes of Breaking Bad for seasons 1 and 2 only, not season 3.\n" && status == ExitStatus.success)
    }

    @Test func episodesOfAMovieOrAnEpisodeAreRefusedSayingWhatItIs() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        var said: [String] = []
        for search in ["toxic avenger", "ozymandias"] {
            await session.handle(.search(search))
            capture.clear()
            await session.handle(.episodes(1, season: nil))
            said.append(capture.err)
        }
        #expect(said == ["Result 1 is a movie, not a series: episodes takes the number of a series.\n",
                         "Result 1 is an episode, not a series: episodes takes the number of a series.\n"])
    }

    @Test func theStoppedNoteReadsRightForNoneOneAndSeveralRows() {
        #expect([0, 1, 3].map { SearchController.stoppedNote(done: $0, of: 10) } == [
            "Stopped before any of the 10 rows of this page was filled in.",
            "Stopped: 1 of 10 rows of this page was filled in; it is kept.",
            "Stopped: 3 of 10 rows of this page were filled in; they are kept.",
        ])
    }

    @Test func showOfASeriesSaysHowManySeasons() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.search("breaking bad"))
        capture.clear()
        await session.handle(.show(1))
        #expect(capture.out.contains("Seasons: 5 (episodes 1 SEASON lists a season's episodes)"))
    }

    // MARK: Posters on screen

    /// Searches `query` in a session over the catalogue that saves posters (into a folder of its
    /// own) and draws them with `kind`, runs `show 1`, then hands over what it printed.
    private func showFirstResult(of query: String, drawingWith kind: InlineImages.Kind?,
                                 _ check: (Session, Capture) throws -> Void) async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        var settings = Settings()
        settings.posters = folder
        let session = try catalogueSession(capture, settings: settings, directory: folder)
        session.inlineImages = kind
        await session.handle(.search(query))
        capture.clear()
        await session.handle(.show(1))
        try check(session, capture)
    }

    @Test func halfBlocksDrawAJPEGPosterInShow() async throws {
        // Row 1: tt0076759, a JPEG in the fixtures; 24 columns: 36 pixels, 18 lines.
        try await showFirstResult(of: "star wars", drawingWith: .blocks) { _, capture in
            #expect(capture.outLines.count(where: { $0.contains("▀") }) == 18)
        }
    }

    @Test(arguments: [InlineImages.Kind.iterm, .kitty])
    func showDrawsThePosterWithTheTerminalsProtocol(kind: InlineImages.Kind) async throws {
        // Row 1: a PNG poster in the fixtures.
        try await showFirstResult(of: "toxic avenger", drawingWith: kind) { session, capture in
            let data = try Data(contentsOf: try #require(session.searchController.rows[0].savedPoster?.file))
            guard case .drawn(let sequence) = InlineImages.draw(data, using: kind) else { throw CancellationError() }
            #expect(ImageFormat(sniffing: data) == .png && capture.out.contains(sequence))
        }
    }

    @Test func noSequenceWhenDrawingIsOff() async throws {
        try await showFirstResult(of: "toxic avenger", drawingWith: nil) { _, capture in
            #expect(capture.out.contains("Director:") && !capture.out.contains("\u{1B}"))
        }
    }

    @Test func kittyDoesNotDrawAJPEGAndSaysWhy() async throws {
        try await showFirstResult(of: "star wars", drawingWith: .kitty) { session, capture in
            let file = try #require(session.searchController.rows[0].savedPoster?.file)
            #expect(ImageFormat(sniffing: try Data(contentsOf: file)) == .jpeg && !capture.out.contains("\u{1B}"))
            #expect(capture.err.contains("poster not drawn: only PNG posters can be drawn in this terminal (this one is JPEG); "
                                         + "saved as \(session.presenter.display(file))"))
        }
    }

    // MARK: Open

    /// A session over the catalogue whose opener records what it opens in `folder` (the file returned).
    private func openerSession(_ capture: Capture, in folder: URL) throws -> (Session, URL) {
        let (script, record) = try makeRecordingOpener(in: folder)
        let session = try catalogueSession(capture)
        session.opener = Opener.find(environment: ["MOVIES_OPENER": script.path])
        return (session, record)
    }

    @Test func openRunsTheOpenerWithTheIMDbAddress() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        let (session, record) = try openerSession(capture, in: folder)
        await session.handle(.search("toxic avenger"))
        capture.clear()
        await session.handle(.open(1))
        #expect([try String(contentsOf: record, encoding: .utf8), capture.out]
            == ["https://www.imdb.com/title/tt0090190/\n", "Opened https://www.imdb.com/title/tt0090190/\n"])
    }

    /// More than five pages are opened only when the answer is yes (`open 1-50` started 50
    /// browsers); five are opened without a question, and with no opener nothing is asked.
    @Test func openingMoreThanFivePagesAsksFirst() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        let (session, record) = try openerSession(capture, in: folder)
        let asked = Mutex<[String]>([]), answers = Mutex(["n", "y"])
        session.ask = { question in
            asked.withLock { $0.append(question) }
            return answers.withLock { $0.removeFirst() }
        }
        await session.handle(.search("star trek"))
        capture.clear()
        await session.handle(Command(parsing: "open 1-6"))
        #expect(capture.err == "Nothing opened: answer y to open 6 pages, or open fewer at a time (open 1-5).\n")
        #expect(!FileManager.default.fileExists(atPath: record.path))
        await session.handle(Command(parsing: "open 1-6"))
        await session.handle(Command(parsing: "open 1-5"))
        #expect(asked.withLock { $0 } == ["Open 6 pages in the browser? (y/N) ", "Open 6 pages in the browser? (y/N) "])
        let opened = try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map(String.init)
        let wanted = (Array(0..<6) + Array(0..<5)).map { "https://www.imdb.com/title/\(session.searchController.rows[$0].item.imdbID)/" }
        #expect(opened == wanted)
        session.opener = Opener(executable: nil)
        capture.clear()
        await session.handle(Command(parsing: "open 1-10"))
        #expect(capture.outLines.count == 10 && asked.withLock { $0.count } == 2)
    }

    /// A failing opener (cannot start, or exits non-zero at once) is reported in one line.
    @Test(arguments: [("#!/bin/sh\nexit 3\n", "fake-opener failed with status 3"),
                      ("#!/nonexistent/interpreter\n", "fake-opener could not be started: No such file or directory")])
    func aFailingOpenerIsReportedInOneLine(script source: Typed, reason: String) async throws {
        let text = source.text
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let script = folder.appendingPathComponent("fake-opener")
        try text.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let capture = Capture()
        let session = try catalogueSession(capture)
        session.opener = Opener.find(environment: ["MOVIES_OPENER": script.path])
        // Long enough for any machine to run the script: the wait ends when it exits.
        session.opener.grace = .seconds(30)
        await session.handle(.search("toxic avenger"))
        capture.clear()
        await session.handle(.open(1))
        #expect(capture.said == Said(out: "https://www.imdb.com/title/tt0090190/\n",
                                     err: "Not opened (\(reason)): the address is above. MOVIES_OPENER names another opener.\n"))
    }

    @Test func openWithoutAnOpenerPrintsTheAddress() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        session.opener = Opener.find(environment: ["PATH": "/nonexistent"])
        await session.handle(.search("toxic avenger"))
        capture.clear()
        await session.handle(.open(1))
        #expect(capture.out == "https://www.imdb.com/title/tt0090190/\n" && capture.err.contains("Not opened (no opener)"))
    }
}
