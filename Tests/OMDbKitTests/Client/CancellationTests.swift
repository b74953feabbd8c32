import FakeOMDb
import Foundation
import OMDbTestSupport
import Testing
@testable import OMDbKit
import Synchronization
import TestSupport

@Suite struct CancellationTests {
    /// Records for which `held(id)` wait for `release` (or their cancellation, which `cancelled` logs);
    /// the others answer at once; posters are PNGs.
    private func slowTransport(release: Latch, cancelled: RequestLog, held: @escaping @Sendable (String) -> Bool) -> ClosureTransport {
        ClosureTransport { url in
            if url.path.hasPrefix("/posters/") {
                return HTTPResponse(statusCode: 200, body: pngBytes)
            }
            if let id = url.query("i") {
                if held(id) {
                    do { try await release.wait(for: "the test to release \(id)") } catch is CancellationError {
                        cancelled.record(url)
                        throw CancellationError()
                    }
                }
                return json(#"{"Title":"Film \#(id)","Year":"2000","imdbID":"\#(id)","Type":"movie","Plot":"p","Response":"True"}"#)
            }
            let rows = (1...10).map { String(format: "tt%07d", $0) }.map {
                #"{"Title":"Film \#($0)","Year":"2000","imdbID":"\#($0)","Type":"movie","Poster":"http://127.0.0.1/posters/\#($0).jpg"}"#
            }
            return json(#"{"Search":[\#(rows.joined(separator: ","))],"totalResults":"10","Response":"True"}"#)
        }
    }

    @Test func cancellingMidPageKeepsWhatArrivedAndLeavesNoPartialFile() async throws {
        try await withTemporaryFolder { folder in
            // Three records are quick, seven are held until the end of the test; every poster is quick.
            let release = Latch()
            defer { release.open() }
            let cancelled = RequestLog()
            let client = OMDbClient(configuration: .init(apiKey: "k"), transport: slowTransport(release: release, cancelled: cancelled) { id in
                !["tt0000001", "tt0000002", "tt0000003"].contains(id)
            })
            let page = try await client.search("film").next()
            let received = Watched<[MovieUpdate]>([])
            let consumer = Task {
                for await update in client.details(for: page.items, posters: PosterStore(folder: folder)) {
                    received.update { $0.append(update) }
                }
            }
            // Wait for the quick three and the ten posters, then press "Ctrl-C".
            try await received.wait("three records and ten posters") { $0.count == 13 }
            consumer.cancel()
            await consumer.value
            // The held seven were cancelled at the transport, not left to run.
            try await cancelled.wait("the seven held requests to be cancelled", count: 7)
            let kept = received.value
            let keptRecords: [String] = kept.filter(\.isRecord).map(\.item.imdbID).sorted()   // outside #expect: slow to type-check inside
            #expect(keptRecords == ["tt0000001", "tt0000002", "tt0000003"])
            // A poster does not wait for its plot: all ten are written, whole; nothing else is in the folder.
            #expect(kept.count(where: { !$0.isRecord }) == 10)
            let names = files(in: folder)
            #expect(names.count == 10)
            #expect(names.allSatisfy { !$0.hasPrefix(".") && $0.hasSuffix(".png") })
            for name in names {
                #expect(FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) == pngBytes)
            }
        }
    }

    @Test func cancellingASearchThrowsCancellation() async throws {
        let sent = Latch()
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { _ in
            sent.open()
            try await Latch().wait(for: "the search to be cancelled")
            return json("{}")
        })
        let search = client.search("slow")
        let task = Task { try await search.next() }
        try await sent.wait(for: "the search to reach the transport")
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // The search did not move: it has no page yet, and its first is still to come.
        let (last, more) = (search.lastPage, search.hasMore)
        #expect(last == nil && more)
    }

    /// Two searches of one client: cancelling one leaves the other, and neither waits for the other.
    @Test func cancellingOneSearchLeavesAnother() async throws {
        // The slow search is held at the transport until the test ends: only its cancellation ends it.
        let slowSent = Latch()
        let release = Latch()
        defer { release.open() }
        let slowCancelled = Latch()
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            if url.query("s") == "slow" {
                slowSent.open()
                do { try await release.wait(for: "the end of the test") } catch is CancellationError {
                    slowCancelled.open()
                    throw CancellationError()
                }
            }
            let id = url.query("s") == "slow" ? "tt0000001" : "tt0000002"
            return json(#"{"Search":[{"Title":"\#(url.query("s")!)","imdbID":"\#(id)","Type":"movie"}],"totalResults":"1","Response":"True"}"#)
        })
        let slow = client.search("slow")
        let held = Task { try await slow.next() }
        try await slowSent.wait(for: "the slow search to reach the transport")
        let fast = client.search("fast")
        #expect(try await fast.next().items.map(\.title) == ["fast"])
        held.cancel()
        await #expect(throws: CancellationError.self) { try await held.value }
        try await slowCancelled.wait(for: "the slow search's request to be cancelled")
        // The fast search is as it was: its one page shown, none after it.
        #expect(fast.lastPage?.items.map(\.title) == ["fast"])
        await #expect(throws: OMDbError.noMorePages(query: "fast", shown: 1, total: 1)) { try await fast.next() }
        #expect(slow.lastPage == nil)
    }

    /// A page stopped while its posters are being put in place says the truth about each, by
    /// event and without waiting for the disk: a poster in place before the stop is said saved
    /// (the updates go on to their end after the stop); one still being flushed is given up, its
    /// temporary name gone at once, so it can never appear; and the updates end while the disk
    /// still holds that flush.
    @Test func aStoppedPageSaysWhichPostersArePlacedAndGivesUpTheRestWithoutWaitingForTheDisk() async throws {
        try await withTemporaryFolder { folder in
            let client = OMDbClient(configuration: .init(apiKey: "k"), transport: slowTransport(release: Latch(), cancelled: RequestLog()) { _ in false })
            let items = Array(try await client.search("film").next().items.prefix(2))
            var store = PosterStore(folder: folder.appendingPathComponent("posters"))
            // The second title's flush waits for `disk`, held until the end of the test.
            let held = items[1].imdbID, flushing = Latch(), disk = Latch()
            defer { disk.open() }
            store.disk.flush = { file throws(OMDbError) in
                if file.destination.lastPathComponent.contains(held) {
                    flushing.open()
                    disk.wait(timeout: .seconds(60))
                }
                try file.flush()
            }
            let received = Mutex<[MovieUpdate]>([])
            let firstPlaced = Latch()
            let consumer = Task { [store] in
                for await update in client.details(for: items, posters: store) {
                    received.withLock { $0.append(update) }
                    if case .poster(.success) = update.part, update.index == 0 { firstPlaced.open() }
                }
            }
            try await firstPlaced.wait(for: "the first poster to be put in place")
            try await flushing.wait(for: "the second poster's flush")
            consumer.cancel()
            await consumer.value
            #expect(!disk.isOpen)
            let posters = received.withLock { $0 }.filter { !$0.isRecord }.map(\.index)
            #expect(posters == [0])
            #expect(files(in: store.folder).count == 1 && files(in: store.folder)[0].contains(items[0].imdbID))
        }
    }

    /// Updates dropped unread stop the work they stand for, and so does cancel(): what `--pages`
    /// uses for the pages loading ahead, which wait, kept, behind the page shown. Before, nothing
    /// could stop them short of dropping them, and they were kept until the page shown had ended:
    /// one-shot `--pages 2` saved page 2's posters after a Ctrl-C, for rows it never printed
    /// (hostile pass, stop 32).
    @Test(arguments: [false, true])
    func updatesDroppedOrCancelledStopTheirWork(cancelled: Bool) async throws {
        let release = Latch()
        defer { release.open() }
        let stopped = RequestLog()
        let arrived = Watched(0)
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: slowTransport(release: release, cancelled: stopped) { _ in
            arrived.update { $0 += 1 }
            return true
        })
        let items = try await client.search("film").next().items
        var updates: MovieUpdates? = client.detailUpdates(for: items)
        try await arrived.wait("the ten records to be asked for") { $0 == 10 }
        if cancelled { updates?.cancel() } else { updates = nil }
        try await stopped.wait("the ten held records to be cancelled", timeout: .seconds(20), count: 10)
        withExtendedLifetime(updates) {}
    }

    /// At the daily limit part way through a page, ranks 1…k get their records, and only they get
    /// posters: a row the day had no place for is never shown, so its poster is not fetched.
    /// Before, every row's poster was saved (one-shot `--pages 5 --daily-limit 12` printed ranks
    /// 1-10 and saved the posters of ranks 1-20; hostile pass, stop 32).
    @Test func aRowTheDayHasNoPlaceForGetsNoPoster() async throws {
        try await withTemporaryFolder { folder in
            var configuration = OMDbClient.Configuration(apiKey: "k")
            // The search takes one place of four: three rows get theirs.
            configuration.ledger = QuotaLedger(folder: folder.appendingPathComponent("state"), apiKey: "k", dailyLimit: 4)
            let client = OMDbClient(configuration: configuration, transport: slowTransport(release: Latch(), cancelled: RequestLog()) { _ in false })
            let items = try await client.search("film").next().items
            let posters = folder.appendingPathComponent("posters")
            let updates = await collect(client.details(for: items, posters: PosterStore(folder: posters)))
            let records: [Int] = updates.compactMap { if case .record(.success) = $0.part { $0.index } else { nil } }.sorted()
            let saved: [Int] = updates.compactMap { if case .poster(.success) = $0.part { $0.index } else { nil } }.sorted()
            #expect(records == [0, 1, 2])
            #expect(saved == [0, 1, 2])
            #expect(files(in: posters).count == 3)
        }
    }
}
