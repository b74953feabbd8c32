import Foundation
import Testing
@testable import OMDbKit
@testable import MoviesCLI

/// Issue 24: plain output (a pipe, `NO_COLOR` off a terminal, `TERM=dumb`) prints each row once,
/// whole, in rank order, as soon as it and every row above it are done: the same text whatever
/// order the answers came in.
@MainActor
@Suite struct PlainOutputTests {
    static let items = (1...3).map { SearchItem(imdbID: "tt000000\($0)", title: "Row \($0)", year: ReleaseYear("200\($0)"), type: .movie, posterURL: nil) }
    static let page = SearchPage(query: SearchQuery(text: "row"), number: 1, totalResults: 3, items: items, shownSoFar: 3)

    private func movies() async throws -> [Movie] {
        let records = Dictionary(uniqueKeysWithValues: Self.items.map { item in
            (item.imdbID, ["Title": item.title, "imdbID": item.imdbID, "Year": item.year?.text ?? "", "imdbRating": "7.\(item.imdbID.suffix(1))",
                           "Plot": "The plot of \(item.title), which is long enough to take two lines at forty columns."])
        })
        let client = StubTransport(records: records).client()
        var movies: [Movie] = []
        for item in Self.items { movies.append(try await client.movie(imdbID: item.imdbID)) }
        return movies
    }

    private enum Step { case record(Int), poster(Int) }

    /// What the presenter prints for `steps`, and what it had printed after each of them.
    private func run(_ steps: [Step], width: Int = 40) async throws -> (out: String, after: [String]) {
        let movies = try await movies()
        let capture = Capture()
        let presenter = TextPresenter(console: capture.console(width: width), currentDirectory: URL(fileURLWithPath: "/work"))
        presenter.pageArrived(Self.page, first: 1, savingPosters: true)
        var after: [String] = []
        for step in steps {
            switch step {
            case .record(let row):
                presenter.rowUpdated(.at(row - 1, item: Self.items[row - 1], part: .record(.success(movies[row - 1]))), number: row)
            case .poster(let row):
                let file = URL(fileURLWithPath: "/work/p/Row \(row).jpg")
                presenter.rowUpdated(.at(row - 1, item: Self.items[row - 1], part: .poster(.success(SavedPoster(file: file, wasAlreadyThere: false)))), number: row)
            }
            after.append(capture.out)
        }
        presenter.pageFinished(Self.page, pagesShown: [1])
        return (capture.out, after)
    }

    static let expected = """
    Results for "row": page 1 of 1, 3 in all
      1. Row 1 (2001)  movie  tt0000001  IMDb 7.1
         The plot of Row 1, which is long
         enough to take two lines at forty
         columns.
         poster saved: p/Row 1.jpg
      2. Row 2 (2002)  movie  tt0000002  IMDb 7.2
         The plot of Row 2, which is long
         enough to take two lines at forty
         columns.
         poster saved: p/Row 2.jpg
      3. Row 3 (2003)  movie  tt0000003  IMDb 7.3
         The plot of Row 3, which is long
         enough to take two lines at forty
         columns.
         poster saved: p/Row 3.jpg
    Showing 3 of 3: that is all.

    """

    /// The last row first, the first row last: nothing is printed before row 1 is whole, then
    /// rows 1 to 3 at once, each once, in order.
    @Test func laterRowsArrivingFirstWaitForTheRowsAbove() async throws {
        let (out, after) = try await run([.record(3), .poster(3), .record(2), .poster(2), .record(1), .poster(1)])
        #expect(out == Self.expected)
        let heading = "Results for \"row\": page 1 of 1, 3 in all\n"
        #expect(after.prefix(5).allSatisfy { $0 == heading }, "\(after)")
    }

    /// A row is printed as soon as it and the rows above are done, not at the end of the page.
    @Test func aRowIsPrintedOnceItAndTheRowsAboveAreDone() async throws {
        let (out, after) = try await run([.record(1), .record(2), .poster(1), .poster(3), .record(3), .poster(2)])
        #expect(out == Self.expected)
        #expect(after[1] == "Results for \"row\": page 1 of 1, 3 in all\n", "row 1 waits for its poster")
        #expect(after[2].hasSuffix("     poster saved: p/Row 1.jpg\n") && !after[2].contains("  2. "), "\(after[2])")
        #expect(after[4].hasSuffix("     poster saved: p/Row 1.jpg\n"), "row 2 waits for its poster:\n\(after[4])")
        #expect(after[5] + "Showing 3 of 3: that is all.\n" == Self.expected)
    }

    @Test(arguments: [
        [0, 1, 2, 3, 4, 5], [5, 4, 3, 2, 1, 0], [2, 0, 4, 1, 5, 3], [1, 3, 5, 0, 2, 4],
    ])
    func everyArrivalOrderPrintsTheSame(order: [Int]) async throws {
        let steps: [Step] = [.record(1), .poster(1), .record(2), .poster(2), .record(3), .poster(3)]
        #expect(try await run(order.map { steps[$0] }).out == Self.expected)
    }

    /// Rows that never finished (Ctrl-C, the day's limit) are printed at the end of the page, in
    /// their place, as far as they came.
    @Test func rowsThatNeverFinishedArePrintedAtTheEndAsTheyAre() async throws {
        let (out, _) = try await run([.record(2), .poster(2), .poster(1)])
        #expect(out == """
        Results for "row": page 1 of 1, 3 in all
          1. Row 1 (2001)  movie  tt0000001
             (stopped)
             poster saved: p/Row 1.jpg
          2. Row 2 (2002)  movie  tt0000002  IMDb 7.2
             The plot of Row 2, which is long
             enough to take two lines at forty
             columns.
             poster saved: p/Row 2.jpg
          3. Row 3 (2003)  movie  tt0000003
             (stopped)
             poster: stopped
        Showing 3 of 3: that is all.

        """)
    }
}
