import Foundation
import Synchronization

/// One search and the pages it has given: the caller's to keep, independent of every other.
///
/// Made by ``OMDbClient/search(_:type:year:)``; nothing is sent until a page is asked for. Searches
/// share the client's caches and requests, but each keeps its own place and the results its pages
/// gave (a later page leaves them out); cancelling a call, or dropping a search, never touches another.
///
/// ```swift
/// let search = client.search("alien", type: .movie)
/// let first = try await search.next()
/// if search.hasMore { let second = try await search.next() }
/// ```
public final class Search: Sendable {
    /// What is searched for.
    public let query: SearchQuery
    private let client: OMDbClient
    private let state = Mutex((cursor: Cursor?.none, prefetches: [Task<Void, Never>]()))

    /// Where the search stands once a page has come.
    private struct Cursor {
        var page: Int
        var total: Int
        var seen: Set<String>
        /// The page last returned, for a second call that raced the first for it.
        var last: SearchPage
    }

    init(client: OMDbClient, query: SearchQuery) {
        self.client = client
        self.query = query
    }

    deinit {
        cancel()
    }

    private var cursor: Cursor? { state.withLock { $0.cursor } }

    /// The page returned last; `nil` before the first.
    public var lastPage: SearchPage? { cursor?.last }

    /// Whether ``next()`` has a page to give: true before the first page, false after the last.
    public var hasMore: Bool { cursor?.last.hasMore ?? true }

    /// The next page: the first, then each after the last one returned, without the results
    /// earlier pages gave. Never asks for a page past `ceil(totalResults / 10)`. Two calls at once
    /// share one request and both return that page.
    /// - Throws: ``OMDbError`` (``OMDbError/notFound(query:)`` when nothing matches,
    ///   ``OMDbError/noMorePages(query:shown:total:)`` after the last), or `CancellationError`.
    ///   The search only moves on when a page arrives.
    public func next() async throws -> SearchPage {
        try await move(to: (cursor?.page ?? 0) + 1, aheadIsDone: true)
    }

    /// Page `number`, without the results the pages returned before it gave; ``next()`` goes on
    /// after it (`page(5)`, then `next()`: page 6). Only that page is asked for.
    /// - Throws: as ``next()``: ``OMDbError/noMorePages(query:shown:total:)`` past the last page.
    public func page(_ number: Int) async throws -> SearchPage {
        if let cursor, number == cursor.page { return cursor.last }
        return try await move(to: number, aheadIsDone: false)
    }

    /// Starts loading, in the background, the pages after the last one returned, through page
    /// `number` but never past the last page: ``next()`` then joins the request in flight, or finds
    /// the page answered. Each page is one request however many times it is asked for. Stopped
    /// when the search is dropped or ``cancel()`` is called.
    public func prefetch(through number: Int) {
        guard let cursor else { return }
        let last = min(number, SearchPage.lastPage(forTotal: cursor.total))
        guard cursor.page < last else { return }
        // Failures are left for next() to meet and report; a prefetch only saves time.
        let started = ((cursor.page + 1)...last).map { page in
            Task { [client, query] in _ = try? await client.loadPage(query, number: page) }
        }
        state.withLock { $0.prefetches += started }
    }

    /// Stops the pages loading ahead.
    public func cancel() {
        for task in state.withLock({ state in defer { state.prefetches = [] }; return state.prefetches }) { task.cancel() }
    }

    /// Loads page `number` and moves there once it arrives: the one way pages change.
    /// - Parameter aheadIsDone: `next()` asked for the page after the current one: a search another
    ///   call has moved to it or past it has done what was asked (it answers with that page).
    private func move(to number: Int, aheadIsDone: Bool) async throws -> SearchPage {
        let cursor = self.cursor
        if let cursor, !(1...SearchPage.lastPage(forTotal: cursor.total)).contains(number) {
            throw OMDbError.noMorePages(query: query.text, shown: cursor.seen.count, total: cursor.total)
        }
        let result: (items: [SearchItem], total: Int)
        do {
            result = try await client.loadPage(query, number: number)
        } catch let error as OMDbError {
            // OMDb's total shrank under us: the page past the end answers "Movie not found!" (now or kept).
            guard let cursor, case .notFound = error.underlying else { throw error }
            throw OMDbError.noMorePages(query: query.text, shown: cursor.seen.count, total: cursor.total)
        }
        return state.withLock { state in
            // Another call for the same page got here first: it is the page both asked for.
            if let cursor = state.cursor, cursor.page == number || (aheadIsDone && cursor.page > number) { return cursor.last }
            var seen = state.cursor?.seen ?? []
            let fresh = result.items.filter { seen.insert($0.imdbID).inserted }
            let page = SearchPage(query: query, number: number, totalResults: result.total, items: fresh,
                                  shownSoFar: seen.count, repeatedCount: result.items.count - fresh.count)
            state.cursor = Cursor(page: number, total: result.total, seen: seen, last: page)
            return page
        }
    }
}
