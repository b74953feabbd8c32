import Foundation
import OMDbKit
import Testing
@testable import MoviesCLI

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
        #expect(lines.count == 1 + 10 * 4)
        #expect(lines[1] == "⠋   1. Alien 1 (1979)  movie  tt1000001")
        #expect(lines[4] == LivePage.indent + "poster: loading…")
        #expect(lines.filter { $0.hasPrefix("⠋") }.count == 10)
    }

    @Test func aShorterScreenGetsOnePlotLineThenNoLivePageAtAll() {
        #expect(page().lines(width: 80, screenRows: 40, frame: 0, style: .plain)?.count == 1 + 10 * 3)
        let tight = page().lines(width: 80, screenRows: 30, frame: 0, style: .plain)
        #expect(tight?.count == 1 + 10 * 2)
        #expect(tight?[1] == "⠋   1. Alien 1 (1979)  movie  tt1000001  · poster …")
        #expect(page().lines(width: 80, screenRows: 22, frame: 0, style: .plain) == nil)
        #expect(page(postersOn: false).lines(width: 80, screenRows: 30, frame: 0, style: .plain)?.count == 1 + 10 * 2)
    }

    @Test func noLineIsWiderThanTheScreen() throws {
        let lines = try #require(page(title: String(repeating: "長い題名", count: 10)).lines(width: 40, screenRows: 50, frame: 3, style: .plain))
        #expect(lines.allSatisfy { displayWidth($0) < 40 })
        // The status line too: wrapped, it threw off the redraw by a line each time.
        #expect(displayWidth(page().statusLine(width: 40, frame: 3, requests: 123, style: .plain)) < 40)
        #expect(displayWidth(page().statusLine(width: 20, frame: 3, requests: 123, style: .plain)) < 20)
    }

    @Test func aStoppedPageMarksTheRowsThatNeverCame() throws {
        var stopped = page(postersOn: false)
        stopped.finish(stopped: true)
        let lines = try #require(stopped.lines(width: 80, screenRows: 50, frame: 0, style: .plain))
        #expect(lines.filter { $0.hasPrefix("–") }.count == 10)
        #expect(lines.filter { $0.contains("(stopped)") }.count == 10)
        #expect(stopped.statusLine(width: 80, frame: 0, requests: 1, style: .plain) == "– plots 0/10 · 1 request sent this session")
        // Where the key's requests are counted, the status line says the day's count too (issue 8).
        #expect(stopped.statusLine(width: 120, frame: 0, requests: 1, today: "requests today: 37 of 1,000 (UTC day)", style: .plain)
                == "– plots 0/10 · 1 request sent this session · requests today: 37 of 1,000 (UTC day)")
        #expect((0..<10).allSatisfy(stopped.isDone))
    }
}
