import Foundation
import OMDbKit
import Synchronization
import Testing
@testable import MoviesCLI
@testable import OMDbKit
import TestSupport

/// Ctrl-C while a page's posters are being put in place (flushed and renamed): the rows tell
/// the truth without waiting for the disk. A poster in place before the stop is said saved; one
/// still being flushed is given up at once (its temporary name gone, so it can never appear) and
/// said stopped; the prompt comes back while the disk still holds that flush.
@MainActor
@Suite struct StoppedPageTests {
    static let stub = StubTransport(
        searchRows: [
            ["Title": "One", "Year": "1999", "imdbID": "tt0000001", "Type": "movie", "Poster": StubTransport.posterURL("one").absoluteString],
            ["Title": "Two", "Year": "1999", "imdbID": "tt0000002", "Type": "movie", "Poster": StubTransport.posterURL("two").absoluteString],
        ],
        records: [
            "tt0000001": ["imdbID": "tt0000001", "Title": "One", "Year": "1999", "Type": "movie", "Plot": "First."],
            "tt0000002": ["imdbID": "tt0000002", "Title": "Two", "Year": "1999", "Type": "movie", "Plot": "Second."],
        ])

    /// A disk that holds the flush of the posters `held` names until the test opens it, and says
    /// when `heldCount` of them are flushing, when `placedCount` others are in place, and when the
    /// held flushes have all ended.
    final class HeldDisk: Sendable {
        let allHeld = Latch(), allPlaced = Latch(), open = Latch(), allFinished = Latch()
        private let flushing = Atomic(0), finished = Atomic(0), placed = Atomic(0)
        private let held: @Sendable (String) -> Bool
        private let heldCount: Int, placedCount: Int

        init(heldCount: Int, placedCount: Int = 0, held: @escaping @Sendable (String) -> Bool) {
            (self.heldCount, self.placedCount, self.held) = (heldCount, placedCount, held)
            if placedCount == 0 { allPlaced.open() }
        }

        /// Holds the flushes of the session's poster store.
        @MainActor func hold(_ session: Session) {
            session.context.currentStore?.disk.flush = { [self] file throws(OMDbError) in
                guard held(file.destination.lastPathComponent) else { return try file.flush() }
                defer { if finished.add(1, ordering: .relaxed).newValue == heldCount { allFinished.open() } }
                if flushing.add(1, ordering: .relaxed).newValue == heldCount { allHeld.open() }
                open.wait(timeout: .seconds(60))
                try file.flush()
            }
            session.context.currentStore?.disk.rename = { [self] file throws(OMDbError) in
                try file.rename()
                if placed.add(1, ordering: .relaxed).newValue == placedCount { allPlaced.open() }
            }
        }
    }

    /// A session saving posters into `folder/posters`, asking nothing in the background, over
    /// `client` (the stub's two titles by default), writing into `capture`.
    private func session(_ capture: Capture, in folder: URL, client: OMDbClient = Self.stub.client()) -> Session {
        var settings = Settings()
        settings.posters = folder.appendingPathComponent("posters")
        settings.prefetch = false
        return Session(client: client, settings: settings, console: capture.console(),
                       presenter: TextPresenter(console: capture.console(), currentDirectory: folder), currentDirectory: folder)
    }

    /// Ctrl-C as the second poster of a page is being flushed, the first in place already.
    @Test func ctrlCSaysThePosterInPlaceSavedAndGivesUpTheOneBeingFlushed() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let posters = folder.appendingPathComponent("posters")
        let capture = Capture()
        let session = session(capture, in: folder)
        let disk = HeldDisk(heldCount: 1, placedCount: 1) { $0.contains("tt0000002") }
        defer { disk.open.open() }
        disk.hold(session)
        let page = Task { await session.handle(.search("stub")) }
        try await disk.allHeld.wait(for: "the second poster's flush")
        try await disk.allPlaced.wait(for: "the first poster in place")
        page.cancel()
        _ = await page.value
        #expect(!disk.open.isOpen)
        #expect(files(in: posters) == ["One (1999) [tt0000001].jpg"])
        #expect(session.searchController.rows.map { $0.savedPoster?.file.lastPathComponent } == ["One (1999) [tt0000001].jpg", nil])
        #expect(capture.out.components(separatedBy: "poster saved: ").count - 1 == 1)
        #expect(capture.out.components(separatedBy: "poster: stopped").count - 1 == 1)
        disk.open.open()
        try await disk.allFinished.wait(for: "the held write to end")
        #expect(files(in: posters) == ["One (1999) [tt0000001].jpg"])
    }

    /// `--pages 2`, Ctrl-C while page 1 is shown (nine of its posters in place, one being flushed)
    /// and page 2's posters, loading ahead, are being flushed: page 2's work stops with page 1,
    /// nothing is saved for its rows, which the output never names, and page 1's rows say which
    /// of its posters were saved.
    @Test func ctrlCDuringPagesSavesNothingForThePagesNeverShown() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let posters = folder.appendingPathComponent("posters")
        let capture = Capture()
        let client = try catalogueClient()
        let search = client.search("star wars")
        let first = try await search.next().items.map(\.imdbID)
        // Page 2's posters (6 in the catalogue) and page 1's last wait in their flushes.
        let held = Set(try await search.next().items.map(\.imdbID) + [first[9]])
        let session = session(capture, in: folder, client: client)
        let disk = HeldDisk(heldCount: held.count, placedCount: 9) { name in held.contains { name.contains($0) } }
        defer { disk.open.open() }
        disk.hold(session)
        let run = Task { await session.searchController.search("star wars", pages: 2) }
        try await disk.allHeld.wait(for: "page 2's posters and page 1's last to be flushing")
        try await disk.allPlaced.wait(for: "page 1's other nine posters in place")
        run.cancel()
        _ = await run.value
        #expect(!disk.open.isOpen)
        #expect(!capture.out.contains(" 11. "))
        let saved = session.searchController.rows.filter { $0.number <= 10 }.compactMap { $0.savedPoster?.file.lastPathComponent }
        #expect(files(in: posters).count == 9)
        #expect(Set(files(in: posters)) == Set(saved))
        #expect(capture.out.components(separatedBy: "poster saved: ").count - 1 == 9)
        disk.open.open()
        try await disk.allFinished.wait(for: "every held write to end")
        #expect(files(in: posters).count == 9)
    }
}
