import Foundation
import OMDbTestSupport
import Testing
@testable import OMDbKit
@testable import MoviesCLI
@testable import LineEditing

/// Issue 24: on a narrow screen a title keeps about 20 columns (or all of itself) before the
/// poster's state and the ratings take any, and the poster's state gives way first; `plot full`
/// shows whole plots where the screen has room; `show`'s ratings and the `quota` and `cache`
/// messages break between words.
@MainActor
@Suite struct NarrowScreenTests {
    static let long = "Galaxy Voyage to the Stars Beyond"

    private func movie(_ fields: [String: String] = [:], id: String = "tt8800000") async throws -> Movie {
        var record = ["Title": Self.long, "imdbID": id, "Year": "1950", "Plot": "A crew sets out for the stars."]
        record.merge(fields) { _, new in new }
        return try await StubTransport(records: [id: record]).client().movie(imdbID: id)
    }

    /// One row of `title`, its record and poster in (with ratings when `rated`).
    private func page(title: String = long, rated: Bool, poster: Bool = true, wholePlots: Bool = false, plot: String? = nil) async throws -> LivePage {
        let item = SearchItem(imdbID: "tt8800000", title: title, year: ReleaseYear("1950"), type: .movie, posterURL: nil)
        var page = LivePage(heading: "h", first: 1, items: [item], postersOn: true, wholePlots: wholePlots)
        var fields = ["Title": title]
        if rated { fields.merge(["imdbRating": "6.1", "Metascore": "40"]) { _, new in new } }
        if let plot { fields["Plot"] = plot }
        page.update(.at(0, item: item, part: .record(.success(try await movie(fields)))), number: 1)
        if poster {
            let saved = SavedPoster(file: URL(fileURLWithPath: "/p/x.jpg"), wasAlreadyThere: false)
            page.update(.at(0, item: item, part: .poster(.success(saved))), number: 1)
        }
        return page
    }

    static let tight = LivePage.Layout(plotLines: 1, posterInline: true)

    /// The title as shown on a row's first line: between `N. ` and ` (1950)`.
    private func shownTitle(_ line: String) -> String? {
        line.firstMatch(of: #/\d\. (.*) \(1950\)/#).map { String($0.1) }
    }

    /// In every layout at 30, 40 and 60 columns no line is wider than the screen and the poster's
    /// state is on the row once (on the title line or below it). At 60 the title keeps 20
    /// columns in every layout; at 40 and 30 it cannot (its year, type and ID stay whole), and
    /// then neither the ratings nor the poster's state take any of the line.
    @Test(arguments: [30, 40, 60], [false, true])
    func aTitleKeepsTwentyColumnsBeforeThePosterStateOrTheRatings(width: Int, rated: Bool) async throws {
        let page = try await page(rated: rated)
        for layout in page.layouts {
            let lines = page.rowLines(0, width: width, layout: layout, frame: 0, style: .plain)
            #expect(lines.filter { displayWidth($0) > width - 1 } == [], "\(width)")
            let first = lines[0]
            let posterLine = lines.contains { $0.hasPrefix(LivePage.indent + "poster saved: ") }
            let tagged = first.hasSuffix("  ▣") || first.hasSuffix("  · poster saved")
            #expect(posterLine != tagged, "the poster's state once: \(lines)")
            let titleKept = width == 60 ? displayWidth(shownTitle(first) ?? "") >= 20 : !tagged && !first.contains("IMDb")
            #expect(titleKept, "\(width), \(layout): \(first)")
        }
    }

    /// The tightest layout at 60 columns: the poster's state becomes a symbol (it took 16 columns
    /// and left the title 11: `Galaxy Vo…`), and the ratings go before the title is cut below 20.
    @Test func atSixtyColumnsThePosterStateBecomesASymbol() async throws {
        let first = try await page(rated: true).rowLines(0, width: 60, layout: Self.tight, frame: 0, style: .plain)
        #expect(first == ["✓   1. Galaxy Voyage to the St… (1950)  movie  tt8800000  ▣", LivePage.indent + "A crew sets out for the stars."])
        // Room for the words again at 80, with the whole title and its rating; unrated, words only
        // beside the whole title (at 80 they would cut it to `Galaxy Voyage to the Stars Bey…`).
        let wide = try await page(rated: true).rowLines(0, width: 80, layout: Self.tight, frame: 0, style: .plain)
        let unrated = try await page(rated: false).rowLines(0, width: 80, layout: Self.tight, frame: 0, style: .plain)
        let roomy = try await page(rated: false).rowLines(0, width: 100, layout: Self.tight, frame: 0, style: .plain)
        #expect([wide[0], unrated[0], roomy[0]] == ["✓   1. Galaxy Voyage to the Stars Beyond (1950)  movie  tt8800000  IMDb 6.1  ▣",
                                                   "✓   1. Galaxy Voyage to the Stars Beyond (1950)  movie  tt8800000  ▣",
                                                   "✓   1. Galaxy Voyage to the Stars Beyond (1950)  movie  tt8800000  · poster saved"])
    }

    /// At 40 and 30 columns not even the symbol leaves the title its columns: the poster's state
    /// goes to a line of its own, in the tightest layout too.
    @Test(arguments: [30, 40])
    func onANarrowerScreenThePosterStateGoesToTheNextLine(width: Int) async throws {
        let lines = try await page(rated: true).rowLines(0, width: width, layout: Self.tight, frame: 0, style: .plain)
        #expect(lines.count == 3 && lines[2] == LivePage.indent + "poster saved: x.jpg" && !lines[0].contains("▣") && !lines[0].contains("IMDb"), "\(lines)")
    }

    /// A short title stays whole beside the symbol and its ratings.
    @Test func aShortTitleStaysWhole() async throws {
        let lines = try await page(title: "Up", rated: true).rowLines(0, width: 40, layout: Self.tight, frame: 0, style: .plain)
        #expect(lines[0] == "✓   1. Up (1950)  movie  tt8800000  ▣", "\(lines[0])")
    }

    // MARK: plot full

    static let plot = Array(repeating: "The crew meets one strange world after another on the long way out.", count: 4).joined(separator: " ")

    /// With `plot full`, a row shows its whole plot on as many lines as it takes, when the page fits.
    @Test func plotFullShowsTheWholePlotWhereTheScreenHasRoom() async throws {
        let page = try await page(rated: false, wholePlots: true, plot: Self.plot)
        let whole = wrap(Self.plot, width: 79, indent: LivePage.indent)
        #expect(whole.count > 3)
        let lines = try #require(page.lines(width: 80, screenRows: 24, frame: 0, style: .plain))
        try #require(lines.count >= 2 + whole.count, "\(lines.joined(separator: "\n"))")
        #expect(Array(lines[2..<(2 + whole.count)]) == whole && lines.last == LivePage.indent + "poster saved: x.jpg", "\(lines.joined(separator: "\n"))")
        // A page taller than the screen is printed row by row, each with its whole plot.
        let printed = page.rowLines(0, width: 80, layout: page.printedLayout, frame: 0, style: .plain)
        #expect(printed.count == whole.count + 2)
    }

    /// A screen too short for the whole plots: the layout that fits decides, as with short plots.
    @Test func plotFullOnAShortScreenCutsThePlotToFit() async throws {
        let page = try await page(rated: false, wholePlots: true, plot: Self.plot)
        let lines = try #require(page.lines(width: 80, screenRows: 7, frame: 0, style: .plain))
        // A heading and one row of four lines; short plots are cut to two lines, as before, even on a tall screen.
        let short = try await self.page(rated: false, plot: Self.plot)
        #expect([lines.count, short.lines(width: 80, screenRows: 50, frame: 0, style: .plain)?.count] == [5, 5] && lines[3].hasSuffix(" …"), "\(lines)")
    }

    // MARK: Words

    /// `show`'s ratings say Metacritic's once (not again as `Metascore`), and break only between
    /// ratings, never inside one (`Rotten` / `Tomatoes 93%`). (A rating longer than a line, as
    /// `Internet Movie Database 8.6/10` is under 44 columns, breaks between its words.)
    @Test(arguments: [44, 60, 80])
    func showsRatingsSayTheMetascoreOnceAndBreakBetweenRatings(width: Int) async throws {
        let record: [String: Any] = ["Response": "True", "Title": "Star Wars", "imdbID": "tt0076759", "Year": "1977", "imdbVotes": "1,234,567",
                                     "Metascore": "90", "Ratings": [["Source": "Internet Movie Database", "Value": "8.6/10"],
                                                                    ["Source": "Rotten Tomatoes", "Value": "93%"], ["Source": "Metacritic", "Value": "90/100"]]]
        let movie = try await OMDbClient(configuration: .init(apiKey: "stub-key", baseURL: StubTransport.baseURL), transport: RecordTransport(body: try JSONSerialization.data(withJSONObject: record)))
            .movie(imdbID: "tt0076759")
        #expect(movie.ratings.count == 3)
        let capture = Capture()
        let lines = Details.lines(for: movie, poster: nil, console: capture.console(width: width), display: { $0.lastPathComponent })
        let start = try #require(lines.firstIndex { $0.hasPrefix("  Ratings: ") })
        let ratings = lines[start...].prefix { $0 == lines[start] || $0.hasPrefix("           ") }
        let text = ratings.map { $0.dropFirst("  Ratings: ".count) }.joined(separator: "\n")
        let broken = ["Internet Movie Database 8.6/10", "Rotten Tomatoes 93%", "Metacritic 90/100", "1,234,567 votes"].filter { !text.contains($0) }
        #expect(broken == [] && !text.contains("Metascore"), "\(width):\n\(text)")
        #expect(lines.filter { displayWidth($0) > width } == [])
    }

    /// `quota` and `cache` on a terminal break between words (a terminal broke them mid-word);
    /// piped, each is the line it was.
    @Test(arguments: [30, 40, 60])
    func messagesBreakBetweenWordsOnATerminal(width: Int) {
        let capture = Capture()
        let writeOut = capture.console().writeOut
        let text = "Cache: 12 answers, 40 KB of at most 50 MB, in /home/someone/.cache/movies. 3 answers came from it in this run."
        let console = Console(writeOut: writeOut, writeErr: { _ in }, style: .plain, errorStyle: .plain,
                              measureWidth: { width }, isInteractive: true, outputWidth: { width })
        console.say(text)
        let lines = capture.outLines
        #expect(lines.count > 1 && lines.allSatisfy { displayWidth($0) <= width }, "\(lines)")
        #expect(lines.joined(separator: " ") == text, "no word lost or broken: \(lines)")

        let piped = Capture()
        Console(writeOut: piped.console().writeOut, writeErr: { _ in }, style: .plain, errorStyle: .plain,
                measureWidth: { width }, isInteractive: false).say(text)
        #expect(piped.out == text + "\n")
    }
}

/// Answers every request with one record, as OMDb's JSON (its `Ratings` a list).
private struct RecordTransport: InMemoryTransport {
    let body: Data

    func answer(_ url: URL, timeout: Int) async throws -> HTTPResponse {
        HTTPResponse(statusCode: 200, body: body, contentType: "application/json")
    }
}
