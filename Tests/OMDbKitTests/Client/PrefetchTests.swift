import Foundation
import Synchronization
import Testing
@testable import OMDbKit
import TestSupport

/// A search backend of `total` results whose searches can be held: each search reports its page
/// number on `arrived`, and pages in `held` wait until ``release()``.
private final class HeldPages: Sendable {
    let total: Int
    let log = RequestLog()
    let arrived = Watched<[Int]>([])
    private let state: Mutex<(held: Set<Int>, waiting: [CheckedContinuation<Void, Never>])>

    init(total: Int, held: Set<Int> = []) {
        self.total = total
        state = Mutex((held, []))
    }

    /// Lets every held page answer, now and from now on.
    func release() {
        let waiting = state.withLock { state in
            defer { state = ([], []) }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
    }

    /// The page numbers searched, in order.
    var searchedPages: [Int] { log.all.compactMap { $0.query("page").flatMap(Int.init) } }

    var transport: ClosureTransport {
        ClosureTransport { [self] url in
            log.record(url)
            guard let page = url.query("page").flatMap(Int.init) else { return json(#"{"Response":"False","Error":"Error getting data."}"#) }
            arrived.update { $0.append(page) }
            await withCheckedContinuation { continuation in
                let wait = state.withLock { state in
                    guard state.held.contains(page) else { return false }
                    state.waiting.append(continuation)
                    return true
                }
                if !wait { continuation.resume() }
            }
            let first = (page - 1) * 10
            guard first < total else { return json(#"{"Response":"False","Error":"Movie not found!"}"#) }
            let rows = (first..<min(first + 10, total)).map {
                #"{"Title":"Film \#($0 + 1)","Year":"2000","imdbID":"\#(String(format: "tt%07d", $0 + 1))","Type":"movie","Poster":"N/A"}"#
            }
            return json(#"{"Search":[\#(rows.joined(separator: ","))],"totalResults":"\#(total)","Response":"True"}"#)
        }
    }

    func client() -> OMDbClient { OMDbClient(configuration: .init(apiKey: "k"), transport: transport) }

    /// A client and a search of `query` whose prefetch of page 2 has reached the transport
    /// (held there when page 2 is held); `nil`, with an issue recorded, if it never went out.
    func searchPrefetchingPage2(of query: String) async throws -> (OMDbClient, Search)? {
        let client = client()
        let search = client.search(query)
        _ = try await search.next()
        search.prefetch(through: 2)
        #expect(await waitForSearch(of: 2), "the prefetch never went out")
        return searchedPages.contains(2) ? (client, search) : nil
    }

    /// Waits until the search for `page` has reached the transport: true, or false after a minute.
    func waitForSearch(of page: Int) async -> Bool {
        (try? await arrived.wait("the search for page \(page)") { $0.contains(page) }) != nil
    }
}

@Suite struct PrefetchTests {
    /// `more` while the prefetched page is still on its way joins it: one request for page 2.
    @Test func thePrefetchedPageIsUsedAndNotAskedAgain() async throws {
        let pages = HeldPages(total: 35, held: [2])
        guard let (client, search) = try await pages.searchPrefetchingPage2(of: "film") else { return }
        async let second = search.next()
        search.prefetch(through: 2)   // asked again while in flight: still one request
        pages.release()
        let page = try await second
        #expect(page.number == 2)
        #expect(page.items.first?.imdbID == "tt0000011")
        #expect(pages.searchedPages == [1, 2])
        #expect(client.apiRequestCount == 2, "the prefetch is a request like any other: counted")
    }

    /// A prefetched page that already arrived is served from the session cache.
    @Test func aPrefetchedPageThatArrivedIsServedWithoutARequest() async throws {
        let pages = HeldPages(total: 35)
        let client = pages.client()
        let search = client.search("film")
        _ = try await search.next()
        search.prefetch(through: 4)
        // The prefetches run in the background: nextPage joins whichever is still running.
        for number in 2...4 { #expect(try await search.next().number == number) }
        #expect(pages.searchedPages.sorted() == [1, 2, 3, 4])
        #expect(Set(pages.searchedPages).count == pages.searchedPages.count, "a page was asked twice")
    }

    @Test func prefetchNeverGoesPastTheLastPage() async throws {
        let pages = HeldPages(total: 25)
        let client = pages.client()
        let search = client.search("film")
        _ = try await search.next()
        search.prefetch(through: 50)
        #expect(try await search.next().number == 2)
        #expect(try await search.next().number == 3)
        await #expect(throws: OMDbError.noMorePages(query: "film", shown: 25, total: 25)) { try await search.next() }
        search.prefetch(through: 4)
        #expect(pages.searchedPages.sorted() == [1, 2, 3])
    }

    @Test func prefetchWithoutASearchOrOnTheLastPageSendsNothing() async throws {
        let pages = HeldPages(total: 8)
        let client = pages.client()
        let search = client.search("film")
        search.prefetch(through: 2)
        #expect(pages.searchedPages.isEmpty)
        _ = try await search.next()
        search.prefetch(through: 2)
        await #expect(throws: OMDbError.self) { try await search.next() }
        #expect(pages.searchedPages == [1])
    }

    /// A search dropped (the prompt's, when a new one takes its place) stops its prefetches;
    /// the new search's pages are its own.
    @Test func aSearchDroppedStopsItsPrefetches() async throws {
        let pages = HeldPages(total: 35, held: [2])
        // Its search dropped as soon as it is made: only the client is kept.
        guard let client = try await pages.searchPrefetchingPage2(of: "old")?.0 else { return }
        let search = client.search("new")
        _ = try await search.next()
        pages.release()
        let second = try await search.next()
        #expect(second.query.text == "new")
        let searched = pages.log.all.map { "\($0.query("s") ?? "")/\($0.query("page") ?? "")" }
        #expect(searched == ["old/1", "old/2", "new/1", "new/2"])
    }
}
