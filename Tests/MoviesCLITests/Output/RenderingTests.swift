import Foundation
import OMDbKit
import Testing
@testable import MoviesCLI

@MainActor
@Suite struct RenderingTests {
    static let escape = "\u{1B}"

    /// The last page reached by a jump, with pages before it never shown, does not say "that is all".
    @Test func theLastPageJumpedToSaysItIsTheLastNotThatItIsAll() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        var goOn = [await session.handle(.search("star"))]
        capture.clear()
        goOn.append(await session.handle(.page(4)))
        let jumped = capture.outLines.last
        capture.clear()
        for page in 2...4 { goOn.append(await session.handle(.page(page))) }
        #expect(goOn == Array(repeating: ExitStatus.success, count: 5))
        #expect(jumped == "Showing 31–38 of 38: this is the last page; pages 2 and 3 are not shown yet: type page 2.")
        #expect(capture.outLines.last?.hasSuffix(": that is all.") == true, "\(capture.outLines.last ?? "")")
    }

    @Test func plainSearchOutputHasNoEscapeCodesAndListsEveryRow() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        #expect(await session.handle(.search("toxic")) == ExitStatus.success)

        let out = capture.out
        #expect(!out.contains(Self.escape) && capture.err == "")
        let lines = capture.outLines
        #expect([lines.first, lines.last] == ["Results for \"toxic\": page 1 of 1, 10 in all", "Showing 10 of 10: that is all."])
        #expect(session.searchController.rows.count == 10 && session.searchController.rows.first?.item.title == "The Toxic Avenger")
        for (offset, row) in session.searchController.rows.enumerated() {
            let number = offset + 1
            let label = String(repeating: " ", count: number < 10 ? 2 : 1) + "\(number)."
            let title = row.item.title + (row.item.year.map { " (\($0.text))" } ?? "")
            // The row, once (issue 24): number, title, type, ID and ratings, then its plot wrapped under it.
            #expect(lines.count(where: { $0.hasPrefix("\(label) ") }) == 1, "row \(number) is not printed once")
            let plot = try #require(row.movie?.plot, "row \(number) has no plot")
            // Issue 18: the title line gains the record's ratings, when it has any.
            let ratings = try #require(row.movie.map { RatingsSummary($0).text(parts: 3) })
            let block = (["\(label) \(title)  \(row.item.type)  \(row.item.imdbID)" + (ratings.isEmpty ? "" : "  " + ratings)]
                         + wrap(plot, width: 80, indent: "     ")).joined(separator: "\n") + "\n"
            #expect(out.contains(block), "row \(number)'s plot is not printed under it")
        }
    }

    @Test func colouredSearchOutputHasEscapeCodes() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture, style: Style(enabled: true))
        await session.handle(.search("toxic"))
        #expect(capture.out.contains("\u{1B}[1mResults for \"toxic\": page 1 of 1, 10 in all\u{1B}[0m"))
    }

    @Test func plainErrorsHaveNoEscapeCodes() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.posters("/dev/null/x"))
        #expect(capture.err.hasPrefix("error: Cannot use") && !capture.err.contains(Self.escape))
    }

    @Test func safeDropsControlCharacters() {
        let cleaned = ["Evil\u{1B}[2JTitle\u{07}", "a\u{9B}31mb\u{202E}c\u{7F}", "  line\none\ttab  "].map(safe)
        #expect(cleaned == ["Evil[2JTitle", "a31mbc", "line one tab"])
    }

    @Test func titleWithAnEscapeSequenceIsPrintedWithoutTheEscapeByte() {
        let item = SearchItem(imdbID: "tt0000001", title: "Evil\u{1B}[2JTitle\u{07}", year: ReleaseYear("1999"),
                              type: .movie, posterURL: nil)
        #expect([TextPresenter.titleAndYear(item), TextPresenter.rowLine(item, number: 1, style: .plain)]
            == ["Evil[2JTitle (1999)", "  1. Evil[2JTitle (1999)  movie  tt0000001"])

        let capture = Capture()
        let presenter = TextPresenter(console: capture.console(), currentDirectory: URL(fileURLWithPath: "/"))
        let page = SearchPage(query: SearchQuery(text: "evil\u{1B}]0;x\u{07}"), number: 1, totalResults: 1, items: [item], shownSoFar: 1)
        presenter.pageArrived(page, first: 1)
        presenter.pageFinished(page, pagesShown: [1])
        #expect(capture.out.hasPrefix("Results for \"evil]0;x\": page 1 of 1, 1 in all\n  1. Evil[2JTitle (1999)  movie  tt0000001\n"))
    }

    @Test func networkTextWithEscapesNeverReachesTheTerminal() async throws {
        let stub = StubTransport(
            searchRows: [["Title": "Evil\u{1B}[2JTitle\u{07}", "Year": "1999", "imdbID": "tt0000001", "Type": "movie", "Poster": "N/A"]],
            records: ["tt0000001": ["Title": "Evil\u{1B}[2JTitle\u{07}", "imdbID": "tt0000001", "Year": "1999",
                                    "Plot": "Clears\u{1B}[2J the \u{1B}]0;owned\u{07}screen.", "Director": "Mr\u{1B}[31m Red"]])
        let capture = Capture()
        let console = capture.console()
        let session = Session(client: stub.client(), settings: Settings(), console: console,
                              presenter: TextPresenter(console: console, currentDirectory: URL(fileURLWithPath: "/")),
                              currentDirectory: URL(fileURLWithPath: "/"))
        await session.handle(.search("evil"))
        await session.handle(.show(1))
        #expect(!capture.out.contains(Self.escape) && !capture.out.contains("\u{07}"))
        #expect(capture.out.contains("     Clears[2J the ]0;ownedscreen.\n") && capture.out.contains("  Director: Mr[31m Red\n"))
    }

    @Test func numberLabelsLineUp() {
        #expect([1, 10, 100, 1000].map(TextPresenter.numberLabel) == ["  1.", " 10.", "100.", "1000."])
    }

    static let prose = """
    Melvin is the favourite target of the gym regulars in Tromaville until a prank lands him in a barrel of \
    chemical sludge. He mutates into a deformed giant with a strong sense of justice and starts gorily \
    dispatching the local thugs. His crusade eventually puts him on a collision course with the corrupt mayor.
    """

    @Test(arguments: [25, 26, 30, 40, 57, 80, 132], ["", "  ", "     "])
    func wrapKeepsEveryLineWithinWidth(width: Int, indent: String) {
        let lines = wrap(Self.prose, width: width, indent: indent)
        #expect(lines.count > 1 || width >= Self.prose.count + indent.count)
        for line in lines {
            #expect(line.count <= width, "\"\(line)\" is \(line.count) columns, more than \(width)")
            #expect(line.hasPrefix(indent) && !line.dropFirst(indent.count).hasPrefix(" "))
        }
        // No word lost or reordered, and each line is as full as it can be.
        let words = Self.prose.split(separator: " ").map(String.init)
        let rewrapped: [String] = lines.flatMap { $0.split(separator: " ").map(String.init) }   // typed: seconds to infer inside #expect
        #expect(rewrapped == words)
        for (line, next) in zip(lines, lines.dropFirst()) {
            let nextWord = next.dropFirst(indent.count).prefix { $0 != " " }
            #expect(line.count + 1 + nextWord.count > width, "\"\(nextWord)\" would have fitted on \"\(line)\"")
        }
    }

    @Test func wrapOfNothingIsNoLines() {
        #expect(wrap("", width: 80, indent: "  ") + wrap("   ", width: 80, indent: "  ") == [])
    }

    @Test func showPrintsTheFullRecord() async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(.search("toxic avenger"))
        capture.clear()
        await session.handle(.show(1))
        let lines = capture.outLines
        #expect([lines.first, lines.last] == ["The Toxic Avenger (1984)  movie  tt0090190", "  IMDb: https://www.imdb.com/title/tt0090190/"])
        let fields = ["R · 82 min · Action, Comedy, Horror", "  Director: Michael Herz, Lloyd Kaufman", "  Released: 1986-04-11", "  Plot:"]
        #expect(fields.filter { !lines.contains($0) } == [])
        #expect(capture.out.contains("    Melvin is the favourite target") && capture.err == "")
    }

    /// Each field line is indent (2) + label + ": " + value, so the value must wrap to what is left.
    @Test func detailsKeepEveryLineWithinWidth() async throws {
        let actors = Array(repeating: "abc", count: 40).joined(separator: " ")
        let stub = StubTransport(records: ["tt0000002": ["Title": "Crowded", "imdbID": "tt0000002", "Actors": actors, "Plot": "Short."]])
        let movie = try await stub.client().movie(imdbID: "tt0000002")
        let capture = Capture()
        let lines = Details.lines(for: movie, poster: nil, console: capture.console(width: 60), display: { $0.lastPathComponent })
        let actorLines = lines.drop { !$0.hasPrefix("  Actors: ") }.prefix { $0.hasPrefix("  Actors: ") || $0.hasPrefix("          ") }
        let actorWords: [Substring] = actorLines.flatMap { $0.split(separator: " ") }
        #expect(actorLines.count > 2 && actorWords.count(where: { $0 == "abc" }) == 40)
        #expect(lines.filter { $0.count > 60 } == [])
    }
}
