import FakeOMDb
import Foundation
import Synchronization
import OMDbTestSupport
import Testing
@testable import OMDbKit
import TestSupport

/// A slow or failing disk holds its own poster and nothing else: the transport's thread never
/// writes, the deadline is the network's, and the disk is named as the disk. Ordered by events:
/// writes that block on a latch, a server that says what it was asked.
@Suite struct SlowDiskTests {
    private static func client(_ server: FakeOMDbServer, timeout: Int = 10) -> OMDbClient {
        OMDbClient.live(.init(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: server.baseURL, timeout: timeout))
    }

    /// A store whose writes, once `after` bytes are written, first wait for `disk` (a disk that
    /// stops answering), `slowness` at most.
    private static func store(_ folder: URL, disk: Latch, writing: Latch = Latch(), after: Int = 0, slowness: Duration = .seconds(60)) -> PosterStore {
        var store = PosterStore(folder: folder)
        let written = Atomic(0)
        store.disk.append = { (file, data) throws(OMDbError) in
            if written.add(data.count, ordering: .relaxed).oldValue >= after {
                writing.open()
                disk.wait(timeout: slowness)
            }
            try file.append(data)
        }
        return store
    }

    @Test func aPosterWhoseDiskIsStuckHoldsNoOtherRequest() async throws {
        try await withTemporaryFolder { folder in
            // Large enough to come in many chunks, most of them after the reader is there.
            let server = try FakeOMDbServer(catalogue: catalogue, posterBytes: 2_000_000)
            defer { server.shutdown() }
            let client = Self.client(server)
            let page = try await client.search("toxic").next()
            let item = try #require(page.items.first { $0.posterURL != nil })
            let disk = Latch(), writing = Latch()
            // Past what waits for a reader before the transfer pauses (256 KB): a write of what
            // came after the reader was there.
            let store = Self.store(folder, disk: disk, writing: writing, after: 512 * 1024)
            let poster = Task { try await client.poster(for: item, in: store) }
            try await writing.wait(for: "a write past the first 512 KB")
            // The disk holds that write: every record of the page still arrives. (When the
            // transport's thread wrote posters, it waited with the disk and so did they.)
            for item in page.items { _ = try await client.movie(imdbID: item.imdbID) }
            #expect(!disk.isOpen)
            disk.open()
            let saved = try await poster.value
            #expect(FileManager.default.fileExists(atPath: saved.file.path))
            #expect(server.posterRequests.count == 1)
        }
    }

    @Test func aDiskSlowerThanTheDeadlineIsNotATimeoutAndThePosterIsAskedForOnce() async throws {
        try await withTemporaryFolder { folder in
            // The disk takes its time: until the poster is asked for a second time (which must not
            // happen), or 3 s, three times the deadline of each try.
            let disk = Latch(), posterRequests = Mutex(0)
            let server = try FakeOMDbServer(catalogue: catalogue, posterBytes: 2_000_000) { request in
                if request.path.hasPrefix("/posters/"), posterRequests.withLock({ $0 += 1; return $0 }) == 2 { disk.open() }
                return nil
            }
            defer { server.shutdown() }
            let client = Self.client(server, timeout: 1)
            let item = try #require(try await client.search("toxic").next().items.first { $0.posterURL != nil })
            let saved = try await client.poster(for: item, in: Self.store(folder, disk: disk, slowness: .seconds(3)))
            #expect(FileManager.default.fileExists(atPath: saved.file.path))
            #expect(server.posterRequests.count == 1)
        }
    }

    @Test func aFailingDiskIsNamedAsTheDiskAndNotRetried() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let client = Self.client(server)
            let item = try #require(try await client.search("toxic").next().items.first { $0.posterURL != nil })
            var store = PosterStore(folder: folder)
            store.disk.append = { (file, _) throws(OMDbError) in
                throw .posterNotWritten(path: file.destination.path, reason: String(cString: strerror(ENOSPC)))
            }
            let error = await #expect(throws: OMDbError.self) { try await client.poster(for: item, in: store) }
            #expect(error?.description.contains("could not write \(folder.path)") == true, "\(String(describing: error))")
            #expect(error?.description.contains("No space left on device") == true)
            #expect(server.posterRequests.count == 1)
            #expect(files(in: folder).isEmpty)
        }
    }

    /// Giving up a poster whose write the disk holds returns at once: the temporary file's name
    /// is gone before the write ends, the file is closed when the write returns, and nothing is
    /// put in place after.
    @Test func givingUpNeverWaitsForTheWriteUnderWay() async throws {
        try await withTemporaryFolder { folder in
            let writing = Latch(), disk = Latch(), discarded = Latch(), done = Latch()
            defer { disk.open() }
            let held = PosterStore.Disk(append: { (file, data) throws(OMDbError) in
                writing.open()
                disk.wait(timeout: .seconds(300))
                try file.append(data)
            })
            let write = PosterWrite(maxBytes: 1_000_000, refusal: .posterUnavailable, disk: held) { (format) throws(OMDbError) in
                try PosterFile(in: folder, owner: .current, destination: folder.appendingPathComponent("poster.\(format.fileExtension)"))
            }
            let taker = Thread {
                try? write.take(pngBytes)
                try? write.take(nil)
                done.open()
            }
            taker.start()
            try await writing.wait(for: "the first write to reach the disk")
            #expect(files(in: folder).count == 1)
            // From a thread of its own, as Ctrl-C's: a discard that waited for the write would
            // still be waiting, the disk held until the end of the test.
            let canceller = Thread {
                write.giveUp()
                discarded.open()
            }
            canceller.start()
            try await discarded.wait(for: "the discard to return while the disk holds the write")
            #expect(!disk.isOpen)
            #expect(files(in: folder).isEmpty)
            disk.open()
            try await done.wait(for: "the write to end")
            #expect(files(in: folder).isEmpty)
            #expect(throws: CancellationError.self) { try write.placed() }
        }
    }
}
