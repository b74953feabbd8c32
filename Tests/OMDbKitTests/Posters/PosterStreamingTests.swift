import FakeOMDb
import Files
import Foundation
import Synchronization
import Testing
@testable import OMDbKit
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Posters go to disk as they arrive, and runs sharing a folder never delete each other's files.
@Suite struct PosterStreamingTests {
    /// The bytes of temporary poster files in `folder` now.
    private static func bytesOnDisk(in folder: URL) -> Int {
        files(in: folder).filter { $0.hasPrefix(PosterFile.temporaryPrefix) }.reduce(0) { sum, name in
            let size = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.size]) as? Int
            return sum + (size ?? 0)
        }
    }

    /// How a transport hands out a poster's bytes.
    enum Delivery: String, CaseIterable, Sendable {
        /// Each chunk made when the reader asks for it (a stream).
        case pulled
        /// Pushed from a thread of the transport's own, paused while the reader is behind: what
        /// the libcurl transport does.
        case fed
    }

    /// A transport that hands out one JPEG of `total` bytes in chunks, calling `step` with the
    /// count handed out so far before each chunk is made (pulled) or after each is taken (fed).
    struct Chunked: OMDbTransport {
        let delivery: Delivery
        let chunk: Int, total: Int
        let step: @Sendable (Int) -> Void

        func bytes(from done: Int) -> Data {
            let size = min(chunk, total - done)
            return done == 0 ? jpegBytes + Data(count: size - jpegBytes.count) : Data(repeating: UInt8(done / chunk % 251), count: size)
        }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let body: HTTPBody
            switch delivery {
            case .pulled:
                let sent = Mutex(0)
                let stream = AsyncThrowingStream<Data, any Error> {
                    let done = sent.withLock { $0 }
                    step(done)
                    guard done < total else { return nil }
                    sent.withLock { $0 = min(total, done + chunk) }
                    return bytes(from: done)
                }
                body = HTTPBody(chunks: stream, length: total)
            case .fed:
                // As libcurl does: pushed from a thread of its own, paused when the reader is behind.
                let resumed = DispatchSemaphore(value: 0)
                let feed = BodyFeed(resumeTransfer: { resumed.signal() }) {}
                Thread.detachNewThread { [self] in
                    var done = 0
                    while done < total {
                        switch feed.receive(bytes(from: done)) {
                        case .taken:
                            done = min(total, done + chunk)
                            step(done)
                        case .full:
                            // Never resumed in 60 s: end the body short, so the read fails instead of waiting for good.
                            guard resumed.wait(timeout: .now() + 60) == .success else { feed.finish(); return }
                        case .stopped:
                            return
                        }
                    }
                    feed.finish()
                }
                body = HTTPBody(feed: feed, length: total)
            }
            return TransportResponse(statusCode: 200, headers: ["Content-Type": "image/jpeg"], body: body)
        }
    }

    @Test(arguments: Delivery.allCases)
    func aPosterIsWrittenAsItArrivesNeverHeldWhole(delivery: Delivery) async throws {
        try await withTemporaryFolder { folder in
            let chunk = 64 * 1024
            let total = 5_000_000
            let peakHeld = Mutex(0)
            // Each time, what was handed out but is not on disk yet: that is what the client holds.
            let transport = Chunked(delivery: delivery, chunk: chunk, total: total) { handedOut in
                let held = handedOut - Self.bytesOnDisk(in: folder)
                peakHeld.withLock { $0 = max($0, held) }
            }
            let client = OMDbClient(configuration: .init(apiKey: "k"), transport: transport)
            let item = SearchItem(imdbID: "tt0000001", title: "Big", year: nil, type: .movie, posterURL: URL(string: "http://127.0.0.1/big.jpg"))
            let saved = try await client.poster(for: item, in: PosterStore(folder: folder))
            let written = try Data(contentsOf: saved.file)
            #expect(written.count == total)
            #expect(written == (0..<(total + chunk - 1) / chunk).reduce(into: Data()) { $0 += transport.bytes(from: $1 * chunk) })
            // Held in memory at any time: a chunk or two when pulled; when fed, what the feed may
            // keep before it pauses the transfer (its high-water mark, 256 KB, reached when the disk
            // falls behind on a loaded machine) and the chunk being written. Never the poster (5 MB).
            let bound = delivery == .pulled ? 2 * chunk : 256 * 1024 + chunk
            #expect(peakHeld.withLock { $0 } <= bound)
        }
    }

    @Test func aPosterPastTheCapIsCutWhileItStreamsAndLeavesNothing() async {
        await withTemporaryFolder { folder in
            // No length announced: only counting the bytes as they come can stop it.
            struct Unannounced: OMDbTransport {
                func send(_ request: TransportRequest) async throws -> TransportResponse {
                    let whole = HTTPBody(jpegBytes + Data(count: 3_000_000))
                    let (stream, feed) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
                    Task {
                        for try await chunk in whole { feed.yield(chunk) }
                        feed.finish()
                    }
                    return TransportResponse(statusCode: 200, body: HTTPBody(chunks: stream))
                }
            }
            let client = OMDbClient(configuration: .init(apiKey: "k"), transport: Unannounced())
            let item = SearchItem(imdbID: "tt0000001", title: "Big", year: nil, type: .movie, posterURL: URL(string: "http://127.0.0.1/big.jpg"))
            await #expect {
                try await client.poster(for: item, in: PosterStore(folder: folder, maxBytes: 1_000_000))
            } throws: { error in
                if case OMDbError.posterTooLarge(let bytes, 1_000_000) = error { bytes < 1_100_000 } else { false }
            }
            #expect(files(in: folder).isEmpty)
        }
    }

    /// Another live process: the parent of this one (the test runner's launcher) is alive for the whole test.
    private static var liveOtherOwner: WriterProcess {
        let parent = getppid()
        return WriterProcess(pid: parent, start: WriterProcess.startToken(of: parent) ?? "0")
    }

    /// A process that has exited: its pid is free (or reused, with another start time).
    private static func goneOwner() throws -> WriterProcess {
        WriterProcess(pid: try exitedProcessID(), start: "1")
    }

    @Test func twoStoresSharingAFolderNeverRemoveEachOthersLiveFiles() async throws {
        try await withTemporaryFolder { folder in
            let other = PosterStore(folder: folder, owner: Self.liveOtherOwner)
            let mine = PosterStore(folder: folder)
            // The other run is half-way through a poster when this one starts and sweeps.
            let (stream, feed) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
            feed.yield(pngBytes)
            let writing = Task { try await other.save(streaming: HTTPBody(chunks: stream), source: "u", title: "Theirs", year: nil, imdbID: "tt0000002") }
            try await waitUntil("their first bytes on disk") { Self.bytesOnDisk(in: folder) > 0 }
            await mine.index.sweptLeftovers()
            #expect(files(in: folder).contains { $0.hasPrefix(PosterFile.temporaryPrefix) })
            let saved = try await mine.save(streaming: HTTPBody(pngBytes), source: "u", title: "Mine", year: nil, imdbID: "tt0000001")
            feed.yield(Data(count: 1_000))
            feed.finish()
            let theirs = try await writing.value
            #expect(files(in: folder) == [theirs.lastPathComponent, saved.lastPathComponent].sorted())
        }
    }

    @Test func leftoversOfGoneOwnersAndOldFilesAreSweptLiveOnesKept() async throws {
        try await withTemporaryFolder { folder in
            func temporary(_ owner: WriterProcess, _ name: String) throws -> URL {
                let url = folder.appendingPathComponent("\(PosterFile.temporaryPrefix)\(owner.tag)-\(name)")
                try Data("half".utf8).write(to: url)
                return url
            }
            _ = try temporary(try Self.goneOwner(), "gone")
            _ = try temporary(.current, "live")
            let old = try temporary(Self.liveOtherOwner, "old")
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7_200)], ofItemAtPath: old.path)
            try Data("x".utf8).write(to: folder.appendingPathComponent("\(PosterFile.temporaryPrefix)no-owner"))
            await PosterStore(folder: folder).index.sweptLeftovers()
            #expect(files(in: folder) == ["\(PosterFile.temporaryPrefix)\(WriterProcess.current.tag)-live"])
        }
    }

    @Test func anEarlierCopyIsFoundWithoutListingTheFolderAgain() async throws {
        try await withTemporaryFolder { folder in
            let store = PosterStore(folder: folder)
            #expect(await store.existingFile(for: "tt0000001") == nil)
            // Written behind the index's back, after it was built: not seen...
            try pngBytes.write(to: folder.appendingPathComponent("Other [tt0000009].png"))
            #expect(await store.existingFile(for: "tt0000009") == nil)
            // ...but what the store saves itself is, and a new store lists the folder once.
            let saved = try await store.save(streaming: HTTPBody(pngBytes), source: "u", title: "T", year: "1999", imdbID: "tt0000001")
            #expect(await store.existingFile(for: "tt0000001") == saved)
            #expect(await PosterStore(folder: folder).existingFile(for: "tt0000009")?.lastPathComponent == "Other [tt0000009].png")
            // A file deleted since is not reported.
            try FileManager.default.removeItem(at: saved)
            #expect(await store.existingFile(for: "tt0000001") == nil)
        }
    }
}
