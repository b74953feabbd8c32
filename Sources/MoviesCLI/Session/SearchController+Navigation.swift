import Foundation
import OMDbKit

/// `more`, `prev`, `first` and `page N`: walking the current search's pages; one shown before comes
/// back from memory, with no request.
extension SearchController {
    func more() async -> ExitStatus {
        guard let shown = lastPage else { return noSearchYet() }
        return await goToPage(shown.number + 1, from: shown)
    }

    func previousPage() async -> ExitStatus {
        guard let shown = lastPage else { return noSearchYet() }
        guard shown.number > 1 else {
            console.err("This is the first page of \"\(safe(shown.query.text))\"" + (shown.hasMore ? ": type next for the page after it." : ", and its only one."))
            return .success
        }
        return await goToPage(shown.number - 1, from: shown)
    }

    /// Page `number` of the current search (`first` is page 1).
    func page(_ number: Int) async -> ExitStatus {
        guard let shown = lastPage else { return noSearchYet() }
        let last = shown.lastPage
        guard number <= last else {
            console.err("There is no page \(number) of \"\(safe(shown.query.text))\": it has \(last == 1 ? "1 page" : "\(last) pages").")
            return .success
        }
        return await goToPage(number, from: shown)
    }

    /// Shows page `number` again from memory, or loads just that page.
    private func goToPage(_ number: Int, from shown: SearchPage) async -> ExitStatus {
        if let page = loadedPages[number] {
            // Its rows as they were; "Showing N of T" counts every result seen by now.
            let seen = rows.filter { !$0.isEpisode }.count
            return await show(SearchPage(query: page.query, number: page.number, totalResults: page.totalResults, items: page.items,
                                         shownSoFar: max(page.shownSoFar, seen), repeatedCount: page.repeatedCount), again: true)
        }
        // Past the end (an exact-title match has no search to continue).
        guard number <= shown.lastPage, let search = current else {
            lastLoadFailed = true
            return report(OMDbError.noMorePages(query: shown.query.text, shown: shown.shownSoFar, total: shown.totalResults))
        }
        let waiting = "Loading page \(number) of \"\(safe(shown.query.text))\" from \(source)…"
        return await load(search) { [presenter] in try await presenter.waiting(waiting) { try await search.page(number) } }
    }

    /// `more` or `page N` before any search.
    private func noSearchYet() -> ExitStatus {
        console.err("There is no search to continue yet: search for a title first.")
        return .success
    }
}
