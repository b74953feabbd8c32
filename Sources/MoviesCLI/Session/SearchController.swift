import Foundation
import OMDbKit

/// The current search and its numbered rows: loads pages, shows them and fills their rows in as records
/// and posters arrive. Cancelling a load (Ctrl-C) keeps what already arrived.
@MainActor
final class SearchController: SessionPart {
    let context: SessionContext
    /// The search whose pages `more`, `page N` and `--pages` load; `nil` before the first.
    var current: Search?
    /// The rows shown in this search, in number order (not the order their pages were loaded).
    var rows: [LivePage.Row] = []
    /// The last page shown, for `more`.
    var lastPage: SearchPage?
    /// The pages of the current search shown so far, for `prev`, `first` and `page N` to show from memory.
    var loadedPages: [Int: SearchPage] = [:]
    /// The catalogue's page on screen, whose titles are the rows; `nil` for a search's.
    var cataloguePage: Int?
    /// Set when the last page load failed, so `--pages` stops instead of asking again.
    var lastLoadFailed = false
    /// The daily quota is spent (by OMDb's word or this tool's count): `--pages` shows no more pages.
    var quotaSpent = false
    init(context: SessionContext) {
        self.context = context
    }

    /// True when the current search has another page and the last load did not fail.
    var canLoadMore: Bool { !lastLoadFailed && (lastPage?.hasMore ?? false) }

    /// Starts a search and shows its first `pages` pages, in order, fetched together once page 1 gives the total.
    func search(_ typed: String, pages count: Int = 1) async -> ExitStatus {
        // Normalised (a pasted NBSP, a decomposed accent), so messages quote what is sent.
        let text = PrintableText.query(typed)
        guard !text.isEmpty else {
            console.err("search needs text: search TEXT")
            return .usage
        }
        let (type, year) = (settings.type, settings.year)
        // The rows on screen stay until the new search has a page: a typo does not take them away.
        let query = SearchQuery(text: text, type: type, year: year)
        // A paste gone wrong, not a title: refused before any request.
        if query.text.count > Self.longestQuery {
            console.err("That search is \(query.text.count) characters long; titles are far shorter: type up to \(Self.longestQuery) characters.")
            return .usage
        }
        // Bytes that are not UTF-8 arrive as U+FFFD, which OMDb answers with "Something went wrong."
        if query.text.contains("\u{FFFD}") {
            console.err("That search holds bytes that are not UTF-8 text (shown as \u{FFFD}): type it again, or set the terminal or the file to UTF-8.")
            return .usage
        }
        let waiting = "Searching \(source) for \"\(safe(query.text))\"…"
        let search = client.search(text, type: type, year: year)
        let (first, status) = await fetch(recovering: query, { [presenter] in
            try await presenter.waiting(waiting) { try await search.next() }
        })
        guard let first else { return status }
        current = search
        startNewResults()
        return count > 1 ? await showPages(first, through: count) : await show(first)
    }

    /// The rows and pages of the search before go: a new one has a page to show.
    func startNewResults() {
        rows.removeAll()
        lastPage = nil
        loadedPages.removeAll()
        cataloguePage = nil
    }

    /// Fetches a page of `search` and shows it. `startsNewResults`: a new search's first page, which
    /// replaces the rows on screen once it arrives.
    func load(_ search: Search, startsNewResults: Bool = false, _ fetchPage: () async throws -> SearchPage) async -> ExitStatus {
        let (page, status) = await fetch(fetchPage)
        guard let page else { return status }
        if startsNewResults {
            current = search
            startNewResults()
        }
        return await show(page)
    }

    /// The page; or `nil` when it failed (then reported, or answered by ``recover(from:query:)``),
    /// with how that went.
    private func fetch(recovering query: SearchQuery? = nil,
                       _ fetchPage: () async throws -> SearchPage) async -> (page: SearchPage?, status: ExitStatus) {
        do {
            let page = try await fetchPage()
            lastLoadFailed = false
            return (page, .success)
        } catch {
            // A search that fails leaves the page on screen, and whether it can go on, as they were.
            if query == nil { lastLoadFailed = true }
            if let query, let error = error as? OMDbError, let recovered = await recover(from: error, query: query) {
                return (nil, recovered)
            }
            let status = report(error)
            await warnIfNearLimit()
            return (nil, status)
        }
    }

    /// Shows a page's rows at once, then fills each in as its record and poster arrive.
    /// - Parameter updates: the page's details, when started before its turn.
    /// - Parameter again: shown before (`prev`): the rows fill in from memory, with no request.
    func show(_ page: SearchPage, updates: MovieUpdates? = nil, again: Bool = false) async -> ExitStatus {
        let updates = updates ?? client.detailUpdates(for: page.items, plot: settings.plot, posters: posterStore)
        lastPage = page
        context.warmup?.remember(postersOf: page)
        let first = Self.firstNumber(ofPage: page.number)
        if !again {
            insert(page.items.enumerated().map { LivePage.Row(item: $0.element, number: first + $0.offset) })
            for (offset, item) in page.items.enumerated() { context.exportLog.note(item, page: page.number, rank: first + offset) }
            loadedPages[page.number] = page
        }
        presenter.pageArrived(page, first: first, savingPosters: settings.posters != nil, wholePlots: settings.plot == .full)
        // The next page's search goes out while this one is read, so `more` waits only for the rows.
        if settings.prefetch { current?.prefetch(through: page.number + 1) }

        var done = 0
        var limitReached: OMDbError?
        // Records that failed, and the first reason, for a one-shot's stderr.
        var failed = (count: 0, first: OMDbError?.none)
        // Posters not written (a full disk, a folder gone), told once under the page: a row says only "not saved".
        var unsaved = (count: 0, first: OMDbError?.none)
        // Stopped (Ctrl-C, a signal), the page's work stops at once, wherever this loop is: the
        // writes not in place are given up before the process may end; the updates that follow
        // say which posters were in place.
        await withTaskCancellationHandler {
            for await update in updates {
                // Looked up by number each time: an index kept across an await is a promise not worth making.
                guard let row = index(of: first + update.index) else { continue }
                switch update.part {
                case .record(.failure(let error)) where error.isDailyLimit:
                    // Not a row's failure: the page stops there, said once below.
                    limitReached = error
                    quotaSpent = true
                    continue
                case .record(let result):
                    done += 1
                    if case .failure(let error) = result, !error.isNoResults {
                        failed = (failed.count + 1, failed.first ?? error)
                    }
                    if case .failure(let error) = result, error.underlying == .quotaExhausted { quotaSpent = true }
                case .poster(let result):
                    if case .failure(let error) = result, error.isPosterNotWritten {
                        unsaved = (unsaved.count + 1, unsaved.first ?? error)
                    }
                }
                rows[row].apply(update.part)
                context.exportLog.note(update.item, movie: rows[row].movie, poster: rows[row].savedPoster?.file)
                presenter.rowUpdated(update, number: first + update.index)
            }
        } onCancel: {
            updates.cancel()
        }
        // The page is finished (and a live page let go of the screen) before the note is printed.
        await presenter.pageFinished(page, pagesShown: Set(loadedPages.keys))
        var status: ExitStatus = failed.first == nil && unsaved.first == nil ? .success : .failure
        if Task.isCancelled {
            console.note(Self.stoppedNote(done: done, of: page.items.count))
        } else if let limitReached {
            status = status.combined(with: report(limitReached))
        } else if context.isOneShot, let first = failed.first {
            // The rows say why on stdout (JSON leaves out a row with no record): a script reads stderr.
            // A refused key or a spent quota stops the page: its rows say "(stopped)", the key is the news.
            console.err(first.isKeyProblem ? safe(first.forPerson)
                        : "\(failed.count) of \(page.items.count) rows of page \(page.number) failed: \(safe(first.forPerson))")
        } else if let first = unsaved.first {
            let posters = unsaved.count == 1 ? "1 poster" : "\(unsaved.count) posters"
            console.err("\(posters) of page \(page.number) could not be saved: \(safe(first.forPerson)). Check the folder (a full "
                        + "disk?), or choose another: " + (context.isOneShot ? "--posters DIR." : "posters DIR."))
        }
        await warnIfNearLimit()
        return status
    }

    /// The longest search text sent (OMDb's longest titles are under 200 characters).
    static let longestQuery = 500

    /// What Ctrl-C while a page was filling in says.
    static func stoppedNote(done: Int, of count: Int) -> String {
        switch done {
        case 0: "Stopped before any of the \(count) rows of this page was filled in."
        case 1: "Stopped: 1 of \(count) rows of this page was filled in; it is kept."
        default: "Stopped: \(done) of \(count) rows of this page were filled in; they are kept."
        }
    }

    /// The number of page `number`'s first row: OMDb's pages hold ``SearchPage/size`` results.
    nonisolated static func firstNumber(ofPage number: Int) -> Int { (number - 1) * SearchPage.size + 1 }

    /// Puts `new` among the rows, keeping them in number order.
    func insert(_ new: [LivePage.Row]) {
        rows += new
        rows.sort { $0.number < $1.number }
    }

    func index(of number: Int) -> Int? { rows.firstIndex { $0.number == number } }

    /// Row `number`, or `nil` after saying why there is none.
    func row(_ number: Int) -> LivePage.Row? {
        numbers(RowList([number])).flatMap { _ in index(of: number).map { rows[$0] } }
    }

    /// The numbers of `list` when every one is a row; `nil` after saying which is not (`show 2 99` shows nothing).
    func numbers(_ list: RowList) -> [Int]? {
        guard !rows.isEmpty else { console.err("No results yet: search for a title first."); return nil }
        if let missing = list.numbers.first(where: { index(of: $0) == nil }) {
            console.err(self.missing(missing))
            return nil
        }
        return list.numbers
    }

    /// Why there is no row `number`: the numbers there are, and the page to load when it is on one not loaded.
    func missing(_ number: Int) -> String {
        let page = (number - 1) / SearchPage.size + 1
        if let shown = lastPage, loadedPages[page] == nil, page <= shown.lastPage, number <= shown.totalResults {
            let searchRows = rows.filter { !$0.isEpisode }.map(\.number)
            return "There is no result \(number): \(Self.pagesAre(loadedPages.keys.sorted())) loaded (\(Self.ranges(searchRows, through: "–"))); type page \(page) to load it."
        }
        return "There is no result \(number): choose \(Self.ranges(rows.map(\.number), through: " to "))"
            + (canLoadMore ? ", or type more for the next page." : ".")
    }

    /// Sorted `numbers` as runs: `1 to 10 or 21 to 29` (`through` " to "), `1–10, 21–29` ("–").
    nonisolated static func ranges(_ numbers: [Int], through: String) -> String {
        var runs: [ClosedRange<Int>] = []
        for number in numbers {
            if let last = runs.last, last.upperBound + 1 == number {
                runs[runs.count - 1] = last.lowerBound...number
            } else {
                runs.append(number...number)
            }
        }
        let words = runs.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)\(through)\($0.upperBound)" }
        return through == " to " ? words.inWords("or") : words.joined(separator: ", ")
    }

    /// `page 2 is`, `pages 1 and 3 are`.
    nonisolated static func pagesAre(_ numbers: [Int]) -> String {
        numbers.count == 1 ? "page \(numbers[0]) is" : "pages \(numbers.map(String.init).inWords()) are"
    }
}
