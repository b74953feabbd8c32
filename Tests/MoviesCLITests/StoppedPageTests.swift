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

    @Test func postersPutInPlaceAsThePageIsStoppedAreSaidSaved() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        var settings = Settings()
        settings.posters = folder.appendingPathComponent("posters")
        settings.prefetch = false
        let capture = Capture()
        let session = Session(client: Self.stub.client(), settings: settings, console: capture.console(),
                              presenter: TextPresenter(console: capture.console(), currentDirectory: folder), currentDirectory: folder)
        // Both posters have arrived and wait, in their commits, for a disk the test opens.
        let committing = Atomic(0)
        let bothCommitting = Latch(), disk = Latch()
        session.context.currentStore?.commit = { (file, destination, gate) throws(OMDbError) in
            if committing.add(1, ordering: .relaxed).newValue == 2 { bothCommitting.open() }
            disk.wait(timeout: .seconds(30))
            return try file.commit(to: destination, unless: gate)
        }
        let page = Task { await session.handle(.search("stub")) }
        try await bothCommitting.wait(for: "both posters to be put in place")
        page.cancel()
        // The stream ends at the cancellation; the disk answers a moment after.
        try await Task.sleep(for: .milliseconds(100))
        disk.open()
        _ = await page.value

        let saved = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("posters").path).sorted()
        #expect(saved == ["One (1999) [tt0000001].jpg", "Two (1999) [tt0000002].jpg"])
        #expect(session.rows.map { $0.poster?.file.lastPathComponent } == saved)
        #expect(capture.out.components(separatedBy: "poster saved: ").count - 1 == 2)
        #expect(!capture.out.contains("poster: stopped"))
    }

    /// A disk slower than the page's wait (a second): Ctrl-C gives the prompt back after that
    /// second, the rows say "poster: stopped", and the writes are given up: no poster appears in
    /// the folder afterwards that the rows said was stopped (found by the hostile pass, stop 32:
    /// files renamed into place 1.2 s after the rows had said "poster: stopped").
    @Test func postersStillBeingFlushedAfterTheWaitAreGivenUpNotSavedBehindTheRows() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let posters = folder.appendingPathComponent("posters")
        var settings = Settings()
        settings.posters = posters
        settings.prefetch = false
        let capture = Capture()
        let session = Session(client: Self.stub.client(), settings: settings, console: capture.console(),
                              presenter: TextPresenter(console: capture.console(), currentDirectory: folder), currentDirectory: folder)
        let committing = Atomic(0), finished = Atomic(0)
        let bothCommitting = Latch(), disk = Latch(), bothFinished = Latch()
        defer { disk.open() }
        session.context.currentStore?.commit = { (file, destination, gate) throws(OMDbError) in
            defer { if finished.add(1, ordering: .relaxed).newValue == 2 { bothFinished.open() } }
            if committing.add(1, ordering: .relaxed).newValue == 2 { bothCommitting.open() }
            disk.wait(timeout: .seconds(30))
            return try file.commit(to: destination, unless: gate)
        }
        let page = Task { await session.handle(.search("stub")) }
        try await bothCommitting.wait(for: "both posters to be put in place")
        page.cancel()
        _ = await page.value
        // Given up: the temporary files' names are gone already, while the flushes go on.
        #expect(files(in: posters).isEmpty)
        // The disk answers only once the prompt is back.
        disk.open()
        try await bothFinished.wait(for: "both writes to end")
        #expect(files(in: posters).isEmpty)
        #expect(session.rows.allSatisfy { $0.poster == nil })
        #expect(capture.out.components(separatedBy: "poster: stopped").count - 1 == 2)
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
        var settings = Settings()
        settings.posters = posters
        settings.prefetch = false
        let capture = Capture()
        let session = try catalogueSession(capture, settings: settings, directory: folder)
        // Every poster of both pages (16 in the catalogue) waits in its commit for a disk the test opens.
        let committing = Atomic(0), finished = Atomic(0)
        let allCommitting = Latch(), disk = Latch(), allFinished = Latch()
        defer { disk.open() }
        session.context.currentStore?.commit = { (file, destination, gate) throws(OMDbError) in
            defer { if finished.add(1, ordering: .relaxed).newValue == 16 { allFinished.open() } }
            if committing.add(1, ordering: .relaxed).newValue == 16 { allCommitting.open() }
            disk.wait(timeout: .seconds(60))
            return try file.commit(to: destination, unless: gate)
        }
        let run = Task { await session.search("star wars", pages: 2) }
        try await allCommitting.wait(for: "the posters of both pages to be put in place")
        run.cancel()
        if diskAnswersWithinTheWait {
            try await Task.sleep(for: .milliseconds(100))
            disk.open()
        }
        _ = await run.value
        disk.open()
        try await allFinished.wait(for: "every write to end")
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
