import Foundation
import OMDbKit
import Testing
@testable import MoviesCLI
@testable import LineEditing

/// The lines of a live page, without a terminal.
@MainActor
@Suite struct LivePageTests {
    private func page(rows: Int = 10, postersOn: Bool = true, title: String = "Alien") -> LivePage {
        let items = (1...rows).map { SearchItem(imdbID: "tt\(1_000_000 + $0)", title: "\(title) \($0)", year: ReleaseYear("1979"), type: .movie, posterURL: nil) }
        return LivePage(heading: "Results for \"alien\"", first: 1, items: items, postersOn: postersOn)
    }

    @Test func everyRowShowsAtOnceWithASpinnerAndFixedHeight() throws {
        let lines = try #require(page().lines(width: 80, screenRows: 50, frame: 0, style: .plain))
        // Heading, then per row: title, two plot lines, poster state.
        let counts: [Int] = [lines.count, lines.count { $0.hasPrefix("⠋") }]
        #expect(counts == [41, 10])
        #expect([lines[1], lines[4]] == ["⠋   1. Alien 1 (1979)  movie  tt1000001", LivePage.indent + "poster: loading…"])
    }

    @Test func aShorterScreenGetsOnePlotLineThenNoLivePageAtAll() {
        // A heading and ten rows of a title and a plot line, or of a title alone; none at all.
        let tight = page().lines(width: 80, screenRows: 30, frame: 0, style: .plain)
        let counts = [page().lines(width: 80, screenRows: 40, frame: 0, style: .plain)?.count, tight?.count,
                      page().lines(width: 80, screenRows: 22, frame: 0, style: .plain)?.count,
                      page(postersOn: false).lines(width: 80, screenRows: 30, frame: 0, style: .plain)?.count]
        #expect(counts == [31, 21, nil, 21])
        #expect(tight?[1] == "⠋   1. Alien 1 (1979)  movie  tt1000001  · poster …")
    }

    @Test func noLineIsWiderThanTheScreen() throws {
        let lines = try #require(page(title: String(repeating: "長い題名", count: 10)).lines(width: 40, screenRows: 50, frame: 3, style: .plain))
        // The status line too: wrapped, it threw off the redraw by a line each time.
        let status = [40, 20].map { displayWidth(page().statusLine(width: $0, frame: 3, today: "requests today: 123 of 1,000", style: .plain)) }
        #expect(lines.allSatisfy { displayWidth($0) < 40 } && status[0] < 40 && status[1] < 20)
    }

    @Test func aStoppedPageMarksTheRowsThatNeverCame() throws {
        var stopped = page(postersOn: false)
        stopped.finish()
        let lines = try #require(stopped.lines(width: 80, screenRows: 50, frame: 0, style: .plain))
        let counts: [Int] = [lines.count { $0.hasPrefix("–") }, lines.count { $0.contains("(stopped)") }]
        #expect(counts == [10, 10] && (0..<10).allSatisfy(stopped.isDone))
        // Offline nothing is counted, and the status line says nothing of requests (issue 16, finding 7);
        // where the key's requests are counted: the day's count, one number (issue 8).
        #expect([stopped.statusLine(width: 80, frame: 0, style: .plain), stopped.statusLine(width: 120, frame: 0, today: "requests today: 37 of 1,000", style: .plain)]
            == ["– plots 0/10", "– plots 0/10 · requests today: 37 of 1,000"])
    }

    // MARK: Issue 16: rows keep their identity at any width

    private func row(_ title: String, year: String? = "2000", id: String = "tt0212879") -> LivePage {
        LivePage(heading: "h", first: 1, items: [SearchItem(imdbID: id, title: title, year: year.map(ReleaseYear.init), type: .movie, posterURL: nil)],
                 postersOn: true)
    }

    /// A title too long for the line is shortened, with an ellipsis; year, type and ID stay whole.
    @Test(arguments: [80, 60, 44])
    func aLongTitleGivesWayAndTheYearTypeAndIDStayWhole(width: Int) throws {
        let long = "The Toxic Avenger Part III: The Last Temptation of Toxie"
        for layout in row(long).layouts {
            let first = row(long).rowLines(0, width: width, layout: layout, frame: 0, style: .plain)[0]
            #expect(first.contains("… (2000)  movie  tt0212879") && displayWidth(first) <= width - 1 && first.hasPrefix("⠋   1. The Toxic"), "\(first)")
        }
    }

    /// The tightest layout's poster tag stays whole too: it is the row's only poster state.
    @Test func thePosterTagStaysWholeBesideAShortenedTitle() {
        let tight = LivePage.Layout(plotLines: 1, posterInline: true)
        let first = row("Citizen Toxie: The Toxic Avenger IV").rowLines(0, width: 80, layout: tight, frame: 0, style: .plain)[0]
        #expect(first.hasSuffix("(2000)  movie  tt0212879  · poster …") && displayWidth(first) <= 79, "\(first)")
    }

    /// A plot cut to its last line ends after a whole word when one ends near (not `kille…`),
    /// and mid-word only when no space is near.
    @Test func aCutPlotEndsAfterAWholeWord() {
        let line = LivePage.indent + "Two friends are hunted by a killer who strikes on the night"
        let word = LivePage.indent + String(repeating: "x", count: 60)
        #expect([LivePage.cutAtWord(line, width: 40), LivePage.cutAtWord(line, width: 80), LivePage.cutAtWord(word, width: 40)]
            == [LivePage.indent + "Two friends are hunted by a …", line + " …", LivePage.indent + String(repeating: "x", count: 32) + "…"])
    }

    /// A title that fits is not touched.
    @Test func aTitleThatFitsIsShownWhole() {
        let first = row("Toxic").rowLines(0, width: 80, frame: 0, style: .plain)[0]
        #expect(first == "⠋   1. Toxic (2000)  movie  tt0212879")
    }

    /// The status line drops whole parts to fit, never a phrase cut in the middle.
    @Test func theStatusLineDropsWholePartsToFit() {
        let today = "requests today: 61 of 1,000"
        #expect([80, 40, 20].map { row("x").statusLine(width: $0, frame: 0, today: today, style: .plain) }
            == ["⠋ plots 0/1 · posters 0/1 · requests today: 61 of 1,000", "⠋ plots 0/1 · posters 0/1", "⠋ plots 0/1"])
    }

    /// A finished page is ticked only when every row has its record: failed plots get ✗, a
    /// stopped page –. (Every plot failed and the line read "✓ plots 1/1".)
    @Test func theFinishedMarkSaysWhetherEveryPlotCame() throws {
        let item = SearchItem(imdbID: "tt0212879", title: "x", year: ReleaseYear("2000"), type: .movie, posterURL: nil)
        let marks = [false, true].map { failed -> String in
            var page = row("x")
            if failed { page.update(.at(0, item: item, part: .record(.failure(.dataUnavailable))), number: 1) }
            page.update(.at(0, item: item, part: .poster(.failure(.posterUnavailable))), number: 1)
            page.finish()
            return page.statusLine(width: 80, frame: 0, style: .plain)
        }
        #expect(marks == ["– plots 0/1 · posters 1/1", "✗ plots 1/1 · posters 1/1"])
    }

    /// Widths are a terminal's: zero-width characters take none, so a row ends at the edge and
    /// not before; a wide emoji takes two, so it does not end past it.
    @Test func zeroWidthAndWideCharactersAreMeasuredAsTheTerminalDrawsThem() {
        #expect(["a\u{200B}b", "a\u{200D}b", "Cafe\u{301}\u{302}", "🚀", "👩‍💻", "🇫🇷", "❤️", "한", "\u{1112}\u{1161}\u{11AB}"].map(displayWidth)
            == [2, 2, 4, 2, 2, 2, 2, 2, 2])
        // A long title full of zero-width characters is cut where the screen ends, not earlier.
        let title = String(repeating: "a\u{200B}", count: 100)
        let first = row(title).rowLines(0, width: 80, frame: 0, style: .plain)[0]
        #expect(displayWidth(first) == 79, "\(first)")
    }

    /// A path cut to fit keeps its end after `…`, from a folder's boundary when the name fits.
    @Test func aPathCutToFitSaysWhereAndKeepsItsEnd() {
        let path = "/home/someone/posters/Toxic Tales 11 (2011) [tt0000011].jpg"
        #expect(LivePage.clipPath(path, width: 80) == path)
        #expect(LivePage.clipPath(path, width: 45) == "…/Toxic Tales 11 (2011) [tt0000011].jpg")
        #expect(LivePage.clipPath(path, width: 20) == "…11) [tt0000011].jpg")
    }

    /// A poster that could not be written here is "not saved", never "no poster" (which says OMDb has none).
    @Test func aPosterNotWrittenIsNotSaidToBeMissing() {
        let item = SearchItem(imdbID: "tt0000001", title: "One", year: ReleaseYear("2000"), type: .movie, posterURL: nil)
        var page = LivePage(heading: "h", first: 1, items: [item], postersOn: true)
        page.update(.at(0, item: item, part: .poster(.failure(.posterNotWritten(path: "/p/One.jpg", reason: "No space left on device")))), number: 1)
        #expect(page.rowLines(0, width: 100, frame: 0, style: .plain).last?.trimmingCharacters(in: .whitespaces)
                == "poster not saved: could not write /p/One.jpg: No space left on device")
    }

    /// While a page loads, a one-line plot keeps its row two lines high (the layout chosen for
    /// the screen stays true); once it is done, or a row is printed for good, no empty line is left.
    @Test func aFinishedPageLeavesNoEmptyLineUnderAShortPlot() async throws {
        let item = SearchItem(imdbID: "tt0000001", title: "One", year: ReleaseYear("2000"), type: .movie, posterURL: nil)
        var page = LivePage(heading: "h", first: 1, items: [item], postersOn: true)
        let movie = try await StubTransport(records: ["tt0000001": ["Title": "One", "imdbID": "tt0000001", "Plot": "Short."]])
            .client().movie(imdbID: "tt0000001")
        page.update(.at(0, item: item, part: .record(.success(movie))), number: 1)
        page.update(.at(0, item: item, part: .poster(.failure(.posterUnavailable))), number: 1)
        #expect(page.rowLines(0, width: 100, frame: 0, style: .plain).count == 4)
        #expect(page.rowLines(0, width: 100, frame: 0, style: .plain, padded: false).map { $0.trimmingCharacters(in: .whitespaces) }
                == [page.rowLines(0, width: 100, frame: 0, style: .plain)[0].trimmingCharacters(in: .whitespaces), "Short.", "no poster"])
        page.finish()
        #expect(page.lines(width: 100, screenRows: 24, frame: 0, style: .plain)?.contains("") == false)
    }
}
