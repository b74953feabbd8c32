import Foundation
import OMDbKit
import Synchronization

/// `--pages N`: pages 2…N loaded together, shown in order.
extension SearchController {
    /// Page 1 is in: pages 2…`count` load together, each page's rows start as it arrives (within
    /// ``pagesLoadingAhead(concurrency:)``), and the pages are shown in order.
    func showPages(_ first: SearchPage, through count: Int) async -> ExitStatus {
        let (plot, store, window) = (settings.plot, posterStore, Self.pagesLoadingAhead(concurrency: settings.concurrency))
        // Page 1's rows take their places in the day's count first, then only as many page searches
        // as the places left could fill: near the limit, searches must not crowd out page 1's records.
        let firstUpdates = client.detailUpdates(for: first.items, plot: plot, posters: store)
        let affordable = context.budget?.ledger?.placesLeft().map { first.number + $0 / (first.items.count + 1) } ?? count
        guard let search = current else { return .success }
        search.prefetch(through: min(count, affordable))
        // A page's updates wait until the pages before it are shown; dropping them cancels their work.
        let (later, feed) = AsyncStream.makeStream(of: Result<(SearchPage, MovieUpdates), any Error>.self)
        // A token each time a page is shown: rows start only while fewer than `window` pages are loading.
        let (shown, shownFeed) = AsyncStream.makeStream(of: Void.self)
        // Pages loading ahead stop the moment this one is stopped: their rows will never be shown.
        let ahead = PagesAhead()
        let producer = Task { [client] in
            var page = first
            var pagesShown = 0
            var tokens = shown.makeAsyncIterator()
            while page.number < count, page.hasMore, !Task.isCancelled {
                do {
                    page = try await search.next()
                    while page.number - 1 - pagesShown >= window {
                        guard await tokens.next() != nil else { break }
                        pagesShown += 1
                    }
                    guard !Task.isCancelled else { break }
                    let updates = client.detailUpdates(for: page.items, plot: plot, posters: store)
                    ahead.add(updates)
                    feed.yield(.success((page, updates)))
                } catch {
                    feed.yield(.failure(error))
                    break
                }
            }
            feed.finish()
        }
        defer {
            producer.cancel()
            shownFeed.finish()
            // Stopped at the daily limit or by a failed page: the pages after it are not shown either.
            ahead.cancelAll()
        }
        // Page 1, then each page of `later` as it comes, saying so through `shownFeed`.
        return await withTaskCancellationHandler {
            var status = await show(first, updates: firstUpdates)
            shownFeed.yield(())
            for await next in later {
                guard !Task.isCancelled, !quotaSpent else { break }
                switch next {
                case .success(let (page, updates)):
                    lastLoadFailed = false
                    status = status.combined(with: await show(page, updates: updates))
                case .failure(let error):
                    lastLoadFailed = true
                    status = status.combined(with: report(error))
                    // The way on is the page that failed; not at the daily limit, nor on JSON's stdout.
                    let limit = (error as? OMDbError)?.isDailyLimit == true
                    if let shown = lastPage, shown.hasMore, !quotaSpent, !limit, !(presenter is JSONPresenter) {
                        console.out(console.style.dim("Use --pages \(shown.number + 1) to see more."))
                    }
                }
                shownFeed.yield(())
            }
            return status
        } onCancel: {
            producer.cancel()
            ahead.cancelAll()
        }
    }

    /// The updates of the pages started, to stop them together.
    private final class PagesAhead: Sendable {
        private let state = Mutex((started: [MovieUpdates](), stopped: false))

        /// A page's rows started; stopped at once when the pages were stopped already.
        func add(_ updates: MovieUpdates) {
            let stopped = state.withLock { state in
                state.started.append(updates)
                return state.stopped
            }
            if stopped { updates.cancel() }
        }

        /// Stops every page's work: a page shown says what its rows came to, the others are never shown.
        func cancelAll() {
            for updates in state.withLock({ state in state.stopped = true; return state.started }) { updates.cancel() }
        }
    }

    /// How many pages' rows may load at once: enough to keep `concurrency` requests busy (20 a page),
    /// plus the one being shown.
    static func pagesLoadingAhead(concurrency: Int) -> Int {
        max(2, (concurrency + 19) / 20 + 1)
    }
}
