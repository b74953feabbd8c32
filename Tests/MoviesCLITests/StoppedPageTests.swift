import Foundation
import OMDbKit
import Synchronization
import Testing
@testable import MoviesCLI
@testable import OMDbKit
import TestSupport

/// Ctrl-C while a page's posters are being put in place (flushed and renamed): a poster whose
/// bytes had all arrived is still saved, and its row says so. Before, the page's stream ended at
/// the Ctrl-C and its rows said "poster: stopped" beside the files in the folder (found by the
/// hostile pass of stop 31: 4 complete posters, "posters 0/10").
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

    /// A disk that holds every poster's commit (its flush and rename) until the test opens it,
    /// and says when `expected` commits have begun, and when they have all ended.
    final class HeldDisk: Sendable {
        let allCommitting = Latch(), open = Latch(), allFinished = Latch()
        private let committing = Atomic(0), finished = Atomic(0)
        private let expected: Int

        init(expected: Int) { self.expected = expected }

        /// Holds the commits of the session's poster store.
        @MainActor func hold(_ session: Session) {
            session.context.currentStore?.commit = { [self] (file, destination, gate) throws(OMDbError) in
                defer { if finished.add(1, ordering: .relaxed).newValue == expected { allFinished.open() } }
                if committing.add(1, ordering: .relaxed).newValue == expected { allCommitting.open() }
                open.wait(timeout: .seconds(60))
                return try file.commit(to: destination, unless: gate)
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

    /// Ctrl-C as both posters of a page are being flushed and renamed. A disk that answers within
    /// the page's wait (a second): both are saved, and the rows say so. A slower one: the prompt
    /// comes back after that second, the rows say "poster: stopped", and the writes are given up,
    /// their temporary names gone at once: no poster appears afterwards that the rows said was
    /// stopped (found by the hostile pass, stop 32: files renamed into place 1.2 s after the rows
    /// had said "poster: stopped").
    @Test(arguments: [true, false])
    func postersBeingPutInPlaceAsThePageIsStopped(diskAnswersWithinTheWait: Bool) async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let posters = folder.appendingPathComponent("posters")
        let capture = Capture()
        let session = session(capture, in: folder)
        // Both posters have arrived and wait, in their commits, for a disk the test opens.
        let disk = HeldDisk(expected: 2)
        defer { disk.open.open() }
        disk.hold(session)
        let page = Task { await session.handle(.search("stub")) }
        try await disk.allCommitting.wait(for: "both posters to be put in place")
        page.cancel()
        if diskAnswersWithinTheWait {
            // The stream ends at the cancellation; the disk answers a moment after.
            try await Task.sleep(for: .milliseconds(100))
            disk.open.open()
            _ = await page.value
            #expect(files(in: posters) == ["One (1999) [tt0000001].jpg", "Two (1999) [tt0000002].jpg"])
            #expect(session.rows.map { $0.poster?.file.lastPathComponent } == files(in: posters))
            #expect(capture.out.components(separatedBy: "poster saved: ").count - 1 == 2)
            #expect(!capture.out.contains("poster: stopped"))
        } else {
            _ = await page.value
            // Given up: the temporary files' names are gone already, while the flushes go on.
            #expect(files(in: posters).isEmpty)
            // The disk answers only once the prompt is back.
            disk.open.open()
            try await disk.allFinished.wait(for: "both writes to end")
            #expect(files(in: posters).isEmpty)
            #expect(session.rows.allSatisfy { $0.poster == nil })
            #expect(capture.out.components(separatedBy: "poster: stopped").count - 1 == 2)
        }
    }

    /// `--pages 2`, Ctrl-C while page 1 is shown and page 2's posters, loading ahead, are being
    /// put in place: page 2's work stops with page 1, and nothing is saved for its rows, which the
    /// output never names, even when the disk answers within page 1's second of waiting (page 1's
    /// posters are then saved and said saved). Before, one-shot `--pages 2` stopped by SIGINT saved
    /// ranks 11-20 and printed ranks 1-10 (hostile pass, stop 32); and page 2's writes were given
    /// up only after page 1's wait, so a disk answering within it still saved them (review).
    @Test(arguments: [false, true])
    func ctrlCDuringPagesSavesNothingForThePagesNeverShown(diskAnswersWithinTheWait: Bool) async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let posters = folder.appendingPathComponent("posters")
        let capture = Capture()
        let session = session(capture, in: folder, client: try catalogueClient())
        // Every poster of both pages (16 in the catalogue) waits in its commit for a disk the test opens.
        let disk = HeldDisk(expected: 16)
        defer { disk.open.open() }
        disk.hold(session)
        let run = Task { await session.search("star wars", pages: 2) }
        try await disk.allCommitting.wait(for: "the posters of both pages to be put in place")
        run.cancel()
        if diskAnswersWithinTheWait {
            try await Task.sleep(for: .milliseconds(100))
            disk.open.open()
        }
        _ = await run.value
        disk.open.open()
        try await disk.allFinished.wait(for: "every write to end")
        #expect(!capture.out.contains(" 11. "))
        let shown = session.rows.filter { $0.number <= 10 }
        if diskAnswersWithinTheWait {
            #expect(files(in: posters).count == 10)
            #expect(Set(files(in: posters)) == Set(shown.compactMap { $0.poster?.file.lastPathComponent }))
            #expect(capture.out.components(separatedBy: "poster saved: ").count - 1 == 10)
        } else {
            #expect(files(in: posters).isEmpty)
            #expect(capture.out.components(separatedBy: "poster: stopped").count - 1 == 10)
        }
    }
}
