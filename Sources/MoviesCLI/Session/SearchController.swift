import Foundation
import OMDbKit

/// The current search and its numbered rows: `search`, `more` and `--pages` load pages, show
/// them and fill their rows in as records and posters arrive. Cancelling the task that runs a
/// load (Ctrl-C) stops it and keeps what already arrived.
@MainActor
final class SearchController: SessionPart {
    /// One numbered result and what is known of it so far.
    struct Row {
        let item: SearchItem
        var movie: Movie?
        var poster: SavedPoster?
        /// The record's answer came, a failure included; false while loading and after Ctrl-C.
        var loaded = false
        /// An episode listed by `episodes`: numbered with the search's rows, but not one of them.
        var isEpisode = false
    }

    let context: SessionContext
    var rows: [Row] = []
    /// The last page shown, for `more`.
    var lastPage: SearchPage?
    /// The pages of the current search shown so far, by number, with the index of each one's
    /// first row: `prev`, `first` and `page N` show them again from memory.
    var loadedPages: [Int: LoadedPage] = [:]
    /// Set when the last page load failed, so `--pages` stops instead of asking again.
    var lastLoadFailed = false
    /// Set when OMDb said the key's daily quota is spent, or this tool's count reached the daily
    /// limit: `--pages` shows no page after this one (each would only say so again).
    var quotaSpent = false
    /// When a page is shown, fetch the next page's search in the background (the prompt, unless
    /// switched off). The one-shot mode knows how many pages it wants and asks for exactly those.
    var prefetchesNextPage: Bool

    init(context: SessionContext) {
        self.context = context
        prefetchesNextPage = context.settings.prefetch
    }

    /// True when the current search has another page and the last load did not fail.
    var canLoadMore: Bool { !lastLoadFailed && (lastPage?.hasMore ?? false) }

    /// Starts a search and shows its first `pages` pages. Past the first, the searches for pages
    /// 2…N go out together as soon as page 1 gives the total, and every page's rows are fetched
    /// the moment the page arrives, so the pages overlap; the output stays in page order.
    func search(_ typed: String, pages count: Int = 1) async -> ExitStatus {
        // What is sent is what messages quote: a pasted NBSP or decomposed accent is normalised first.
        let text = PrintableText.query(typed)
        guard !text.isEmpty else {
            console.err("search needs text: search TEXT")
            return .usage
        }
        let (type, year) = (settings.type, settings.year)
        // The rows on screen stay until the new search has a page to show: a search that finds
        // nothing (a typo) does not take away the results `show 2` was about to use.
        let query = SearchQuery(text: text, type: type, year: year)
        // A paste gone wrong, not a title: refused before any request (1 MB cost seconds and a request).
        if query.text.count > Self.longestQuery {
            console.err("That search is \(query.text.count) characters long; titles are far shorter: type up to \(Self.longestQuery) characters.")
            return .usage
        }
        let waiting = "Searching \(source) for \"\(safe(query.text))\"…"
        let (first, status) = await fetch(recovering: query, { [client, presenter] in
            try await presenter.waiting(waiting) { try await client.search(text, type: type, year: year) }
        })
        guard let first else { return status }
        startNewResults()
        return count > 1 ? await showPages(first, through: count) : await show(first)
    }

    /// The rows and pages of the search before go: a new one has a page to show.
    func startNewResults() {
        rows.removeAll()
        lastPage = nil
        loadedPages.removeAll()
    }

    /// Fetches a page and shows it. `startsNewResults`: the page is a new search's first, which
    /// replaces the rows on screen once it arrives.
    func load(startsNewResults: Bool = false, _ fetchPage: () async throws -> SearchPage) async -> ExitStatus {
        let (page, status) = await fetch(fetchPage)
        guard let page else { return status }
        if startsNewResults { startNewResults() }
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

    /// Shows a page's rows at once (numbered on from the rows already shown), then fills each
    /// in as its record and poster arrive.
    /// - Parameter updates: the page's details, when they were started before it was its turn.
    /// - Parameter again: the index of the page's first row when it was shown before (`prev`):
    ///   its rows are filled in again from the session's memory, with no request for what arrived.
    func show(_ page: SearchPage, updates: AsyncStream<MovieUpdate>? = nil, again: Int? = nil) async -> ExitStatus {
        let updates = updates ?? client.details(for: page.items, plot: settings.plot, posters: posterStore)
        lastPage = page
        context.warmup?.remember(postersOf: page)
        let first = again ?? rows.count
        if again == nil {
            rows += page.items.map { Row(item: $0) }
            for (offset, item) in page.items.enumerated() { context.exportLog.note(item, page: page.number, rank: first + offset + 1) }
            loadedPages[page.number] = LoadedPage(page: page, first: first)
        }
        presenter.pageArrived(page, first: first + 1, savingPosters: settings.posters != nil, wholePlots: settings.plot == .full)
        // While the person reads this page, the next one's search is already on its way: `more`
        // then only waits for the rows. Not awaited: the rows are shown without waiting for the client.
        if prefetchesNextPage {
            let (client, next) = (client, page.number + 1)
            Task { await client.prefetch(through: next) }
        }

        var done = 0
        var status = ExitStatus.success
        var limitReached: OMDbError?
        for await update in updates {
            let row = first + update.index
            switch update.part {
            case .record(.failure(let error)) where error.isDailyLimit:
                // Not a row's failure: the page stops there, said once below, after the rows sent.
                limitReached = error
                quotaSpent = true
                continue
            case .record(let result):
                done += 1
                rows[row].movie = try? result.get()
                rows[row].loaded = true
                if case .failure(let error) = result, !error.isNoResults { status = .failure }
                if case .failure(let error) = result, error.underlying == .quotaExhausted { quotaSpent = true }
            case .poster(let result):
                rows[row].poster = try? result.get()
                if case .failure(.posterNotWritten) = result { status = .failure }
            }
            context.exportLog.note(update.item, movie: rows[row].movie, poster: rows[row].poster?.file)
            presenter.rowUpdated(update, number: row + 1)
        }
        // The page is finished (and a live page let go of the screen) before the note is printed.
        await presenter.pageFinished(page)
        if Task.isCancelled {
            console.note(Self.stoppedNote(done: done, of: page.items.count))
        } else if let limitReached {
            status = status.combined(with: report(limitReached))
        }
        await warnIfNearLimit()
        return status
    }

    /// The longest search text sent; longer is refused. OMDb's longest titles are under 200 characters.
    static let longestQuery = 500

    /// What Ctrl-C while a page was filling in says, worded for none, one and several rows done.
    static func stoppedNote(done: Int, of count: Int) -> String {
        switch done {
        case 0: "Stopped before any of the \(count) rows of this page was filled in."
        case 1: "Stopped: 1 of \(count) rows of this page was filled in; it is kept."
        default: "Stopped: \(done) of \(count) rows of this page were filled in; they are kept."
        }
    }

    /// Row `number`, or `nil` after saying why there is none.
    func row(_ number: Int, for command: String) -> Row? {
        guard !rows.isEmpty else { console.err("No results yet: search for a title first."); return nil }
        guard number <= rows.count else {
            console.err("There is no result \(number): \(command) takes 1 to \(rows.count).")
            return nil
        }
        return rows[number - 1]
    }

    /// The numbers of `list` when every one of them is a row; `nil` after saying which is not,
    /// so that `show 2 99` shows nothing rather than half of what was asked.
    func numbers(_ list: RowList, for command: String) -> [Int]? {
        guard !rows.isEmpty else { console.err("No results yet: search for a title first."); return nil }
        if let missing = list.numbers.first(where: { $0 > rows.count }) {
            console.err("There is no result \(missing): choose 1 to \(rows.count)" + (canLoadMore ? ", or type more for the next page." : "."))
            return nil
        }
        return list.numbers
    }
}
