import FakeOMDb
import Foundation
import OMDbTestSupport
import Testing
@testable import OMDbKit
import Synchronization
import TestSupport

/// A fake search backend: `total` results named by number, pages of 10, optional duplicates.
private func pagedTransport(total: Int, duplicate: (page: Int, id: String)? = nil, log: RequestLog) -> ClosureTransport {
    ClosureTransport { url in
        log.record(url)
        if let id = url.query("i") {
            return json(#"{"Title":"Film \#(id)","Year":"2000","imdbID":"\#(id)","Type":"movie","Plot":"Plot of \#(id)","Response":"True"}"#)
        }
        let page = Int(url.query("page") ?? "1")!
        let first = (page - 1) * 10
        guard first < total else { return json(#"{"Response":"False","Error":"Movie not found!"}"#) }
        var ids = (first..<min(first + 10, total)).map { String(format: "tt%07d", $0 + 1) }
        if let duplicate, duplicate.page == page { ids[ids.count - 1] = duplicate.id }
        let rows = ids.map { #"{"Title":"Film \#($0)","Year":"2000","imdbID":"\#($0)","Type":"movie","Poster":"N/A"}"# }
        return json(#"{"Search":[\#(rows.joined(separator: ","))],"totalResults":"\#(total)","Response":"True"}"#)
    }
}

@Suite struct PagingTests {
    @Test func pagesRunToTheLastAndNoFurther() async throws {
        let log = RequestLog()
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: pagedTransport(total: 35, log: log))
        let search = client.search("film")
        var page = try await search.next()
        var numbers = [page.number]
        while page.hasMore {
            page = try await search.next()
            numbers.append(page.number)
        }
        #expect(numbers == [1, 2, 3, 4])
        #expect(page.lastPage == 4)
        #expect(page.items.count == 5)
        #expect(page.shownSoFar == 35)
        await #expect(throws: OMDbError.noMorePages(query: "film", shown: 35, total: 35)) { try await search.next() }
        // The refused fifth page never reached the network.
        #expect(log.all.compactMap { $0.query("page") } == ["1", "2", "3", "4"])
    }

    @Test func exactMultipleOfTenHasNoEmptyLastPage() async throws {
        let log = RequestLog()
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: pagedTransport(total: 20, log: log))
        let search = client.search("film")
        _ = try await search.next()
        let second = try await search.next()
        #expect(!second.hasMore)
        await #expect(throws: OMDbError.self) { try await search.next() }
        #expect(log.all.count == 2)
    }

    @Test func duplicatesAcrossAndWithinPagesAreDropped() async throws {
        let log = RequestLog()
        // Page 2's last row repeats page 1's first: OMDb does this.
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: pagedTransport(total: 20, duplicate: (2, "tt0000001"), log: log))
        let search = client.search("film")
        let first = try await search.next()
        let second = try await search.next()
        #expect(first.items.count == 10)
        #expect(second.items.count == 9)
        #expect(!second.items.contains { $0.imdbID == "tt0000001" })
        #expect(second.shownSoFar == 19)
    }

    @Test func duplicateWithinOnePageIsDropped() async throws {
        let body = #"{"Search":[{"Title":"A","imdbID":"tt0000001","Type":"movie"},{"Title":"A again","imdbID":"tt0000001","Type":"movie"}],"totalResults":"2","Response":"True"}"#
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { _ in json(body) })
        let page = try await client.search("a").next()
        #expect(page.items.map(\.title) == ["A"])
    }

    @Test func aSearchSendsNothingUntilAPageIsAskedFor() async {
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { _ in Issue.record("no request expected"); return json("{}") })
        let search = client.search("  film ")
        #expect(search.query == SearchQuery(text: "film"))
        let (last, more) = (search.lastPage, search.hasMore)
        #expect(last == nil && more)
        search.prefetch(through: 3)
    }

    @Test func aFailedPageDoesNotMoveTheCursor() async throws {
        let failNext = Mutex(false)
        let log = RequestLog()
        let inner = pagedTransport(total: 30, log: log)
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            if failNext.withLock({ $0 }) { return HTTPResponse(statusCode: 503, body: Data()) }
            return try await inner.get(url, timeout: 1)
        })
        let search = client.search("film")
        _ = try await search.next()
        failNext.withLock { $0 = true }
        await #expect(throws: OMDbError.self) { try await search.next() }
        failNext.withLock { $0 = false }
        let retry = try await search.next()
        #expect(retry.number == 2)
    }

    @Test func aNewSearchStartsAgainFromPageOne() async throws {
        let log = RequestLog()
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: pagedTransport(total: 30, log: log))
        let search = client.search("film")
        _ = try await search.next()
        _ = try await search.next()
        let fresh = client.search("film")
        let again = try await fresh.next()
        #expect(again.number == 1)
        #expect(again.items.count == 10)
        #expect(try await fresh.next().number == 2)
        #expect(try await search.next().number == 3)
        // Pages already answered are not asked again, whichever search asks.
        #expect(log.all.count == 3)
    }

    @Test func filtersAreSentOnEveryPage() async throws {
        let log = RequestLog()
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: pagedTransport(total: 30, log: log))
        let search = client.search("  film ", type: .series, year: 1999)
        _ = try await search.next()
        _ = try await search.next()
        #expect(log.all.allSatisfy { $0.query("type") == "series" && $0.query("y") == "1999" && $0.query("s") == "film" })
    }
}

@Suite struct ErrorsThroughTheClientTests {
    @Test(arguments: ErrorTableTests.table, [200, 401])
    func searchThrowsTheMappedError(row: (String, OMDbError), status: Int) async {
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { _ in
            json(#"{"Response":"False","Error":"\#(row.0)"}"#, status: status)
        })
        let expected: OMDbError = switch row.1 {
        case .notFound: .notFound(query: "alien")
        case .tooManyResults: .tooManyResults(query: "alien")
        case .incorrectIMDbID: .incorrectIMDbID("alien")
        default: row.1
        }
        await #expect(throws: expected) { try await client.search("alien").next() }
    }

    @Test func timeoutsNameTheSecondsAndNotTheKey() async {
        let client = OMDbClient(configuration: .init(apiKey: "secret-key", timeout: 3, retry: quickRetries),
                                transport: ClosureTransport { _ in throw TransportError.timedOut })
        await #expect {
            try await client.movie(imdbID: "tt0090190")
        } throws: { error in
            guard case OMDbError.timedOut(let url, 3, 3) = error else { return false }
            // Requests are built without the key: it is added only where they are sent.
            return !url.contains("apikey") && !url.contains("secret-key") && !"\(error)".contains("secret-key")
        }
    }

    @Test func transportCancellationPassesThroughAsCancellation() async {
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { _ in throw CancellationError() })
        await #expect(throws: CancellationError.self) { try await client.search("alien").next() }
    }
}

@Suite struct DetailsTests {
    @Test func oneFailingChildAmongTenFailsOnlyItsRow() async throws {
        let log = RequestLog()
        let inner = pagedTransport(total: 10, log: log)
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            if url.query("i") == "tt0000004" { return HTTPResponse(statusCode: 500, body: Data("boom".utf8)) }
            return try await inner.get(url, timeout: 1)
        })
        let page = try await client.search("film").next()
        let updates = await collect(client.details(for: page.items))
        #expect(updates.count == 10)
        #expect(Set(updates.map(\.index)) == Set(0..<10))
        let byID = rows(updates)
        let failed = byID.filter { if case .failure? = $0.value.movie { true } else { false } }
        #expect(failed.keys.sorted() == ["tt0000004"])
        if case .failure(let error)? = failed.first?.value.movie { #expect(error == .httpStatus(500, url: error.urlForTest)) }
        #expect(byID.count(where: { (try? $0.value.movie?.get())?.plot == "Plot of \($0.key)" }) == 9)
    }

    @Test func childrenRunAtTheSameTime() async throws {
        // Each record is held until all ten are in flight: in sequence, the first would wait in vain.
        let inFlight = Mutex((now: 0, peak: 0))
        let allTen = Latch()
        let log = RequestLog()
        let inner = pagedTransport(total: 10, log: log)
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            guard url.query("i") != nil else { return try await inner.get(url, timeout: 1) }
            if inFlight.withLock({ $0.now += 1; $0.peak = max($0.peak, $0.now); return $0.now }) == 10 { allTen.open() }
            defer { inFlight.withLock { $0.now -= 1 } }
            try await allTen.wait(for: "ten records in flight at once", timeout: .seconds(30))
            return try await inner.get(url, timeout: 1)
        })
        let page = try await client.search("film").next()
        let updates = await collect(client.details(for: page.items))
        #expect(inFlight.withLock { $0.peak } == 10)
        #expect(rows(updates).values.count(where: { (try? $0.movie?.get()) != nil }) == 10, "a record waited in vain for the others")
    }

    @Test func updatesArriveInCompletionOrder() async throws {
        // The third record answers at once, the second once the third's update has reached the
        // consumer, the first once the second's has: completion order is the reverse of the page's.
        let received = [Latch(), Latch(), Latch()]
        let log = RequestLog()
        let inner = pagedTransport(total: 3, log: log)
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            if let id = url.query("i"), let index = ["tt0000001", "tt0000002"].firstIndex(of: id) {
                try await received[index + 1].wait(for: "the update of row \(index + 2)", timeout: .seconds(30))
            }
            return try await inner.get(url, timeout: 1)
        })
        let page = try await client.search("film").next()
        var updates: [MovieUpdate] = []
        for await update in client.details(for: page.items) {
            updates.append(update)
            received[update.index].open()
        }
        #expect(updates.map(\.index) == [2, 1, 0])
        #expect(rows(updates).values.count(where: { (try? $0.movie?.get()) != nil }) == 3)
    }

    @Test func recordsAndPostersAreNeverFetchedTwice() async throws {
        try await withTemporaryFolder { folder in
            let log = RequestLog()
            let client = catalogueClient(log: log)
            let store = PosterStore(folder: folder)
            let page = try await client.search("star wars").next()
            _ = await collect(client.details(for: page.items, posters: store))
            let afterFirst = log.all.count
            let again = try await client.search("star wars").next()
            let updates = await collect(client.details(for: again.items, posters: store))
            // Not even the search was asked again.
            #expect(log.all.count == afterFirst)
            let posters = rows(updates).values.compactMap { try? $0.poster?.get() }
            #expect(posters.count == 10)
            #expect(posters.allSatisfy { $0.wasAlreadyThere })
            _ = try await client.movie(imdbID: page.items[0].imdbID)
            #expect(log.all.count == afterFirst)
            let searchAndTenRecords: Int = 1 + 10   // summed outside #expect: slow to type-check inside
            #expect(client.apiRequestCount == searchAndTenRecords)
        }
    }

    @Test func aPosterAlreadyInTheFolderIsNotDownloaded() async throws {
        try await withTemporaryFolder { folder in
            try pngBytes.write(to: folder.appendingPathComponent("Whatever I named it [tt0090190].png"))
            let log = RequestLog()
            let client = catalogueClient(log: log)
            let page = try await client.search("toxic avenger").next()
            let updates = await collect(client.details(for: page.items, posters: PosterStore(folder: folder)))
            let toxie = try #require(rows(updates)["tt0090190"])
            #expect(try toxie.poster?.get().wasAlreadyThere == true)
            #expect(!log.all.contains { $0.path.contains("tt0090190") })
            #expect(files(in: folder).count(where: { $0.contains("tt0090190") }) == 1)
        }
    }

    @Test func posterOutcomesCoverMissingBrokenAndGood() async throws {
        try await withTemporaryFolder { folder in
            let client = catalogueClient()
            let page = try await client.search("toxic").next()
            let updates = await collect(client.details(for: page.items, posters: PosterStore(folder: folder)))
            let byID = rows(updates)
            func poster(_ id: String) -> Result<SavedPoster, OMDbError>? { byID[id]?.poster }
            #expect(throws: OMDbError.posterUnavailable) { try poster("tt0166476")?.get() }          // Toxic Love: N/A
            #expect(throws: OMDbError.httpStatus(404, url: "offline://catalogue/posters/tt0080448.jpg")) { try poster("tt0080448")?.get() }
            #expect { try poster("tt0173344")?.get() } throws: { error in                          // an HTML page
                if case OMDbError.posterNotAnImage = error { true } else { false }
            }
            let saved = try #require(try poster("tt0090190")?.get())
            #expect(saved.file.lastPathComponent == "The Toxic Avenger (1984) [tt0090190].png")
            #expect(files(in: folder).count == 5)
            #expect(files(in: folder).allSatisfy { !$0.hasPrefix(".") })
        }
    }

    @Test func noPosterFolderMeansNoPosterRequests() async throws {
        let log = RequestLog()
        let client = catalogueClient(log: log)
        let page = try await client.search("toxic").next()
        let updates = await collect(client.details(for: page.items))
        #expect(updates.count == 10)
        #expect(updates.allSatisfy { $0.isRecord })
        #expect(!log.all.contains { $0.path.contains("posters") })
    }
}

extension OMDbError {
    /// The URL an HTTP error carries, to compare the rest of it.
    var urlForTest: String {
        if case .httpStatus(_, let url) = self { return url }
        return ""
    }
}
