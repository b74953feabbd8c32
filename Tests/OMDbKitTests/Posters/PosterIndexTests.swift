import Dispatch
import Files
import Foundation
import Synchronization
import Testing
@testable import OMDbKit
import TestSupport

/// A store lists its folder once, in the background, and answers every lookup from that listing.
@Suite struct PosterIndexTests {
    /// A listing that counts how often it runs and, when `held`, waits for `release()` before it lists.
    final class Listing: Sendable {
        let count = Mutex(0)
        private let gate = DispatchSemaphore(value: 0)
        private let held: Bool
        /// When set, the names handed out instead of the folder's.
        private let names: [String]?

        init(held: Bool = false, names: [String]? = nil) {
            self.held = held
            self.names = names
        }

        var run: PosterIndex.Listing {
            { [self] folder, visit in
                count.withLock { $0 += 1 }
                // Blocks a Dispatch thread, never the cooperative pool: the index lists on its own thread.
                if held { gate.wait() }
                guard let names else { return folder.names(visit) }
                for name in names { name.withCString(visit) }
            }
        }

        func release() { gate.signal() }
    }

    @Test func aStoreListsItsFolderOnceHoweverManyLookupsSavesAndWidths() async throws {
        try await withTemporaryFolder { folder in
            try pngBytes.write(to: folder.appendingPathComponent("Old [tt0000009].png"))
            let listing = Listing()
            let store = PosterStore(folder: folder, owner: .current, listing: listing.run)
            for n in 0..<20 { _ = await store.existingFile(for: "tt\(n)") }
            for n in 0..<5 { _ = try await store.save(streaming: HTTPBody(pngBytes), source: "u", title: "T\(n)", year: nil, imdbID: "tt100\(n)") }
            let wider = store.atWidth(PosterWidth("600")!)
            #expect(await wider.existingFile(for: "tt1003")?.lastPathComponent == "T3 [tt1003].png")
            #expect(await store.existingFile(for: "tt0000009")?.lastPathComponent == "Old [tt0000009].png")
            await store.index.sweptLeftovers()
            #expect(listing.count.withLock { $0 } == 1)
        }
    }

    @Test func theLeftoverSweepWorksFromTheIndexsListing() async throws {
        try await withTemporaryFolder { folder in
            let (listed, unlisted) = ("\(PosterFile.temporaryPrefix)no-owner-1", "\(PosterFile.temporaryPrefix)no-owner-2")
            for name in [listed, unlisted] { try Data("half".utf8).write(to: folder.appendingPathComponent(name)) }
            try pngBytes.write(to: folder.appendingPathComponent("Kept [tt0000001].png"))
            // The listing hands out one of the two leftovers: only that one goes, so the sweep
            // did not list the folder again.
            let listing = Listing(names: [listed, "Kept [tt0000001].png"])
            let store = PosterStore(folder: folder, owner: .current, listing: listing.run)
            await store.index.sweptLeftovers()
            #expect(files(in: folder) == ["Kept [tt0000001].png", unlisted].sorted())
            #expect(await store.existingFile(for: "tt0000001") != nil)
            #expect(listing.count.withLock { $0 } == 1)
        }
    }

    @Test func aLookupDuringTheListingWaitsForItAndFindsTheFile() async throws {
        try await withTemporaryFolder { folder in
            try pngBytes.write(to: folder.appendingPathComponent("Old [tt0000001].png"))
            let listing = Listing(held: true)
            let store = PosterStore(folder: folder, owner: .current, listing: listing.run)
            let lookup = Task { await store.existingFile(for: "tt0000001") }
            #expect((try? await waitUntil("the lookup to wait for the listing") { store.index.lookupsWaiting == 1 }) != nil)
            listing.release()
            #expect(await lookup.value?.lastPathComponent == "Old [tt0000001].png")
        }
    }

    @Test func aPosterSavedWhileTheListingRunsIsFound() async throws {
        try await withTemporaryFolder { folder in
            // The listing started before the save, so it does not hold the new name.
            let listing = Listing(held: true, names: [])
            let store = PosterStore(folder: folder, owner: .current, listing: listing.run)
            let saved = try await store.save(streaming: HTTPBody(pngBytes), source: "u", title: "New", year: nil, imdbID: "tt0000002")
            listing.release()
            #expect(await store.existingFile(for: "tt0000002") == saved)
        }
    }

    /// More lookups wait than the cooperative pool has threads: were each to hold its thread, the
    /// task below could never run and the test would hang.
    @Test(.timeLimit(.minutes(2))) func waitingLookupsHoldNoThread() async {
        await withTemporaryFolder { folder in
            let listing = Listing(held: true)
            let store = PosterStore(folder: folder, owner: .current, listing: listing.run)
            let count = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
            let lookups = (0..<count).map { n in Task { await store.existingFile(for: "tt\(n)") } }
            #expect((try? await waitUntil("\(count) lookups to wait for the listing") { store.index.lookupsWaiting == count }) != nil)
            #expect(await Task.detached { 42 }.value == 42)
            listing.release()
            for lookup in lookups { #expect(await lookup.value == nil) }
        }
    }

    @Test(arguments: [["B [tt0000001].png", "A [tt0000001].png"], ["A [tt0000001].png", "B [tt0000001].png"]])
    func duplicatesPickTheSameFileWhateverTheListingOrder(order: [String]) async throws {
        try await withTemporaryFolder { folder in
            for name in order { try pngBytes.write(to: folder.appendingPathComponent(name)) }
            let store = PosterStore(folder: folder, owner: .current, listing: Listing(names: order).run)
            #expect(await store.existingFile(for: "tt0000001")?.lastPathComponent == "A [tt0000001].png")
        }
    }

    /// The same answers whether endings hash apart or all collide (then they are kept whole).
    @Test(arguments: [false, true])
    func theNameTableAnswersLikeADictionary(colliding: Bool) {
        var table = colliding ? PosterNameTable(hash: { _ in 7 }) : PosterNameTable()
        for name in ["B [tt1].jpg", "A [tt1].jpg", "C [tt2].png", "notes.txt", ".hidden [tt3].jpg", "D [tt4].gif"] {
            name.withCString { table.insertListed($0) }
        }
        #expect(table.name(ending: "[tt1].jpg") == "A [tt1].jpg")
        #expect(table.name(ending: "[tt2].png") == "C [tt2].png")
        #expect(table.name(ending: "[tt3].jpg") == nil)
        #expect(table.name(ending: "[tt9].jpg") == nil)
        table.replace(with: "Z [tt2].png")
        table.replace(with: "E [tt5].webp")
        #expect(table.name(ending: "[tt2].png") == "Z [tt2].png")
        #expect(table.name(ending: "[tt5].webp") == "E [tt5].webp")
        table.forget("A [tt1].jpg")
        table.forget("D [tt4].gif")
        #expect(table.name(ending: "[tt1].jpg") == nil)
        #expect(table.name(ending: "[tt4].gif") == nil)
        #expect(table.name(ending: "[tt2].png") == "Z [tt2].png")
        table.replace(with: "D [tt4].gif")
        #expect(table.name(ending: "[tt4].gif") == "D [tt4].gif")
    }
}
