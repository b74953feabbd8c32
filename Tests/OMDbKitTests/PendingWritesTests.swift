import FakeOMDb
import OMDbTestSupport
import Foundation
@testable import OMDbKit
import Testing
import TestSupport

/// What must be finished before exiting belongs to the program that started it (issue 23): two
/// sets of pending writes in one process know nothing of each other. Ordered by events: a disk
/// that holds a write on a latch, a count queued behind it.
@Suite struct PendingWritesTests {
    @Test func finishingOneSetOfWritesNeitherWaitsForNorRefusesAnothers() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let client = OMDbClient.live(.init(apiKey: FakeOMDbServer.validKey, baseURL: server.baseURL))
            let item = try #require(try await client.search("toxic").items.first { $0.posterURL != nil })
            let mine = PendingWrites(), theirs = PendingWrites()
            // Theirs have a count of their own to write, and finish first: that refuses new writes of theirs only.
            let theirLedger = QuotaLedger(folder: folder.appendingPathComponent("their-state"), apiKey: "their-key", writes: theirs)
            theirLedger.recordRequestSent()
            theirs.finish(timeout: .seconds(60))
            #expect(theirLedger.usage().sent == 1)

            // Mine: a poster write held by the disk, and a count queued behind a write the disk holds too.
            let disk = Latch(), writing = Latch()
            var store = PosterStore(folder: folder.appendingPathComponent("posters"), writes: mine)
            store.append = { (file, data, destination) throws(OMDbError) in
                writing.open()
                disk.wait(timeout: .seconds(60))
                try file.append(data, destination: destination)
            }
            let myLedger = QuotaLedger(folder: folder.appendingPathComponent("my-state"), apiKey: "my-key", writes: mine)
            mine.counts.async { disk.wait(timeout: .seconds(60)) }
            myLedger.recordRequestSent()
            let poster = Task { [store] in try await client.poster(for: item, in: store) }
            try await writing.wait(for: "the poster's first write")

            // Theirs finish again, and return without waiting for mine (one process-wide set
            // waited here until the timeout, then removed my poster's file).
            theirs.finish(timeout: .seconds(60))
            #expect(!disk.timedOut)
            #expect(mine.postersInProgress == 1)
            #expect(theirs.postersInProgress == 0)

            disk.open()
            let saved = try await poster.value
            #expect(FileManager.default.fileExists(atPath: saved.file.path))
            mine.finish()
            #expect(mine.postersInProgress == 0)
            #expect(myLedger.usage().sent == 1)
            // Finished, mine refuse new poster writes; nothing is left in the folder.
            await #expect(throws: OMDbError.self) {
                try await store.save(streaming: HTTPBody(jpegBytes), source: "u", title: "T", year: nil, imdbID: "tt1")
            }
            #expect(files(in: store.folder) == [saved.file.lastPathComponent])
        }
    }
}
