import Foundation
import OMDbKit

/// How a page of results reaches the person: rows at once, then each row's details as they come.
@MainActor
protocol Presenter {
    /// The page's results arrived; `first` is its first row's number. `savingPosters`: rows get a poster
    /// state. `wholePlots`: `plot full`, whole plots where the screen has room.
    func pageArrived(_ page: SearchPage, first: Int, savingPosters: Bool, wholePlots: Bool)
    /// One row's record, or its poster, is in.
    func rowUpdated(_ update: MovieUpdate, number: Int)
    /// Every row of the page is in, or the load was stopped (Ctrl-C). `pagesShown`: the numbers of
    /// the search's pages shown so far, this one included.
    func pageFinished(_ page: SearchPage, pagesShown: Set<Int>) async
    /// How a saved file is named to the person.
    func display(_ file: URL) -> String
    /// `work`'s result; meanwhile a live page says what is awaited (`Searching OMDb for "alien"…`), and
    /// nothing of that is left once the answer came (or failed).
    func waiting<T>(_ text: String, for work: () async throws -> T) async rethrows -> T
}

extension Presenter {
    func waiting<T>(_ text: String, for work: () async throws -> T) async rethrows -> T { try await work() }
}

/// Plain text where no live page can be drawn: each row once, whole, in rank order, as soon as it and
/// every row above it are done, so two runs print the same whatever order the network answers in.
@MainActor
final class TextPresenter: Presenter {
    let console: Console
    let currentDirectory: URL
    /// How to get the page after the one given (a command, or an option in one-shot mode); `nil` when
    /// it follows anyway.
    let moreHint: (SearchPage) -> String?

    /// The page being filled in, and how many of its rows are printed.
    private var pending: LivePage?
    private var printed = 0

    init(console: Console, currentDirectory: URL, moreHint: @escaping (SearchPage) -> String? = { _ in "Type more for the next page." }) {
        self.console = console
        self.currentDirectory = currentDirectory
        self.moreHint = moreHint
    }

    /// The heading now; the rows as they are done (plots always whole).
    func pageArrived(_ page: SearchPage, first: Int, savingPosters: Bool = false, wholePlots: Bool = false) {
        let (style, heading) = (console.style, Self.heading(for: page))
        console.out(style.bold(heading))
        if page.items.isEmpty {
            console.out(style.dim(page.repeatedCount > 0 ? "  (this page only repeated earlier results)" : "  (OMDb sent no results on this page)"))
        }
        pending = LivePage(heading: heading, first: first, items: page.items, postersOn: savingPosters)
        printed = 0
    }

    func rowUpdated(_ update: MovieUpdate, number: Int) {
        pending?.update(update, number: number)
        printDone()
    }

    /// Rows that never finished (Ctrl-C, the day's limit) are printed as they are, marked.
    func pageFinished(_ page: SearchPage, pagesShown: Set<Int>) {
        pending?.finish()
        printDone()
        pending = nil
        console.out(console.style.dim(Self.footer(page, pagesShown: pagesShown, hint: moreHint(page))))
    }

    /// The line under a page: what of the search it shows (`Showing 20 of 22` when it ends the pages shown
    /// in order from the first, else its own rows, `Showing 1–10 of 22`), and what comes next.
    static func footer(_ page: SearchPage, pagesShown: Set<Int>, hint: String?) -> String {
        let inOrder = pagesShown.max() == page.number && (1...page.number).allSatisfy(pagesShown.contains)
        let first = SearchController.firstNumber(ofPage: page.number), last = first + page.items.count - 1
        let shown = inOrder || page.items.isEmpty ? "\(page.shownSoFar)" : first == last ? "\(first)" : "\(first)–\(last)"
        let showing = "Showing \(shown) of \(page.totalResults)"
        if page.hasMore { return showing + "." + (hint.map { " " + $0 } ?? "") }
        // The last page, jumped to: "that is all" would be untrue.
        let missing = (1..<page.number).filter { !pagesShown.contains($0) }
        guard missing.isEmpty else {
            return showing + ": this is the last page; \(SearchController.pagesAre(missing)) not shown yet: type page \(missing[0])."
        }
        return showing + ": that is all."
    }

    /// Prints the rows, from the first not printed yet, that are done.
    private func printDone() {
        guard let page = pending else { return }
        while printed < page.rows.count, page.isDone(printed) {
            console.out(rowLines(page.rows[printed], postersOn: page.postersOn))
            printed += 1
        }
    }

    /// A row whole: `  3. Title (1984)  movie  tt0090190  IMDb 8.6 · RT 93%`, its plot, its poster's fate.
    func rowLines(_ row: LivePage.Row, postersOn: Bool) -> [String] {
        let style = console.style
        let indent = String(repeating: " ", count: Self.numberWidth + 2)
        let ratings = row.movie.map { RatingsSummary($0).text(parts: 3) } ?? ""
        var lines = [Self.rowLine(row.item, number: row.number, style: style) + (ratings.isEmpty ? "" : "  " + style.yellow(ratings))]
        switch row.record {
        case .success(let movie)?:
            if let plot = movie.plot {
                lines += wrap(safe(plot), width: console.width, indent: indent)
            } else {
                lines.append(indent + style.dim("(OMDb has no plot for this title)"))
            }
        case .failure(let error)?:
            lines.append(indent + style.yellow("plot unavailable: ") + safe(error.forPerson))
        case nil:
            lines.append(indent + style.dim("(stopped)"))
        }
        guard postersOn else { return lines }
        switch row.poster {
        case .success(let saved)?:
            let verb = saved.wasAlreadyThere ? "poster already saved: " : "poster saved: "
            lines.append(indent + style.green(verb) + display(saved.file) + (saved.fallback.map { "  " + style.yellow("(\(safe($0)))") } ?? ""))
        case .failure(let error)?:
            lines.append(indent + style.dim("no poster saved: ") + safe(error.forPerson))
        case nil:
            lines.append(indent + style.dim("poster: stopped"))
        }
        return lines
    }

    /// A path relative to the working directory when it is inside it.
    func display(_ file: URL) -> String {
        let path = file.standardizedFileURL.path
        let base = currentDirectory.standardizedFileURL.path + "/"
        return safe(path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path)
    }

    static let numberWidth = 3

    /// `Results for "alien" (movie): page 1 of 3, 25 in all`
    static func heading(for page: SearchPage) -> String {
        var heading = "Results for \"\(safe(page.query.text))\""
        let filters = [page.query.type?.rawValue, page.query.year.map(String.init)].compactMap { $0 }
        if !filters.isEmpty { heading += " (\(filters.joined(separator: ", ")))" }
        return heading + ": page \(page.number) of \(page.lastPage), \(page.totalResults) in all"
    }

    static func numberLabel(_ number: Int) -> String {
        let text = "\(number)."
        return String(repeating: " ", count: max(0, numberWidth + 1 - text.count)) + text
    }

    static func titleAndYear(_ item: SearchItem) -> String {
        safe(item.title) + (item.year.map { " (\(safe($0.text)))" } ?? "")
    }

    static func rowLine(_ item: SearchItem, number: Int, style: Style) -> String {
        "\(numberLabel(number)) \(titleAndYear(item))  " + style.dim("\(safe(item.type.description))  \(safe(item.imdbID))")
    }
}

/// One line per movie for scripts (`--json` or `--format`), in result order once a page is complete.
@MainActor
final class JSONPresenter: Presenter {
    let console: Console
    /// `--json`, `--json=FIELDS` or `--format`.
    let format: LineFormat
    /// The page's rows as they fill in (never drawn).
    private var pending: LivePage?

    init(console: Console, format: LineFormat = .json(fields: nil)) {
        self.console = console
        self.format = format
    }

    func pageArrived(_ page: SearchPage, first: Int, savingPosters: Bool = false, wholePlots: Bool = false) {
        pending = LivePage(heading: "", first: first, items: page.items, postersOn: savingPosters)
    }

    func rowUpdated(_ update: MovieUpdate, number: Int) { pending?.update(update, number: number) }

    /// Rows whose record never arrived (Ctrl-C) are left out, unless their poster was saved.
    func pageFinished(_ page: SearchPage, pagesShown: Set<Int>) {
        for row in pending?.rows ?? [] where row.record != nil || row.savedPoster != nil {
            console.out(format.line(Self.output(row, page: page.number, rank: row.number)))
        }
        pending = nil
    }

    /// The `plotError` of a row whose record a stop (Ctrl-C, a signal) cut off.
    static let stoppedPlot = "stopped before it arrived"

    /// The full path, as the `poster` field has it.
    func display(_ file: URL) -> String { safe(file.path) }

    /// The row as output: its record's fields when it came, and what went wrong when something did; then
    /// its `page` and `rank` (its number) on a search's line, neither for `movies show --json`.
    static func output(_ row: LivePage.Row, page: Int? = nil, rank: Int? = nil) -> RecordOutput {
        var output = RecordOutput(item: row.item, movie: row.movie, poster: row.savedPoster?.file.path,
                                  page: page, rank: rank)
        switch row.record {
        case .failure(let error)?: output.plotError = error.forPerson
        case nil where row.savedPoster != nil: output.plotError = stoppedPlot
        case .success?, nil: break
        }
        switch row.poster {
        case .success(let saved)?: output.posterFallback = saved.fallback
        case .failure(let error)?: output.posterError = error.forPerson
        case nil: break
        }
        return output
    }
}
