import FakeOMDb
import Foundation
import Synchronization
import OMDbTestSupport
import Testing
@testable import OMDbKit
import TestSupport

/// A body fed from the transport's own thread: paused past its high-water mark until the reader
/// catches up, written in place once a sink reads it, and stopped whenever the reader gives up.
@Suite struct BodyFeedTests {
    /// Chunk `index` of a test body: its bytes say which it is.
    private static func chunk(_ index: Int, size: Int = 16 * 1024) -> Data { Data(repeating: UInt8(index), count: size) }

    /// Counts from any thread.
    private final class Count: Sendable {
        private let count = Atomic(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// Plays libcurl: offers each chunk from a thread of its own; on `.full` it pauses (keeping the
    /// chunk) until the feed asks to resume, or cancels the transfer (libcurl then ends it: the chunk
    /// is offered again and meets `.stopped`); on `.stopped` it stops. Counts what it saw.
    private final class Pump: Sendable {
        let feed: BodyFeed
        private let resumed = DispatchSemaphore(value: 0)
        let paused = Latch()
        let finished = Latch()
        /// Opened when a pause was never ended (60 s): the test fails on it instead of passing late.
        let stuck = Latch()
        let pauses = Count()
        let taken = Count()
        let stops = Count()

        init(highWater: Int = 64 * 1024) {
            let resumed = resumed, stops = stops
            feed = BodyFeed(highWater: highWater, resumeTransfer: { resumed.signal() }, cancelTransfer: { stops.add(); resumed.signal() })
        }

        func run(_ chunks: [Data]) {
            Thread.detachNewThread { [self] in
                defer { finished.open() }
                for chunk in chunks {
                    while true {
                        switch feed.receive(chunk) {
                        case .taken:
                            taken.add()
                        case .full:
                            pauses.add()
                            paused.open()
                            // Bounded: a feed that never asks to resume fails the test, not hangs it.
                            guard resumed.wait(timeout: .now() + 60) == .success else { stuck.open(); return }
                            continue
                        case .stopped:
                            return
                        }
                        break
                    }
                }
                feed.finish()
            }
        }
    }

    @Test func pastTheHighWaterMarkTheTransferPausesThenResumesAsTheReaderCatchesUp() async throws {
        // Typed and reckoned outside #expect: arithmetic and `+` as a function are slow to type-check inside.
        let highWater: Int = 64 * 1024
        let pump = Pump(highWater: highWater)
        let chunks: [Data] = (0..<20).map { Self.chunk($0) }
        let wholeBody = Data(chunks.joined())
        pump.run(chunks)
        // No reader yet: the transfer must pause once 64 KB wait, not read the whole body.
        try await pump.paused.wait(for: "the transfer to pause")
        #expect(pump.taken.value == 4)
        #expect(pump.feed.peakPendingBytes == highWater)
        let read = try await HTTPBody(feed: pump.feed).collect(upTo: .max)
        #expect(read == wholeBody)
        #expect(pump.feed.peakPendingBytes <= highWater)
        #expect(pump.stops.value == 0)
        #expect(!pump.stuck.isOpen)
    }

    @Test func aSinkAttachedToAPausedTransferResumesItAndTakesEveryChunkInOrder() async throws {
        let pump = Pump(highWater: 32 * 1024)
        let chunks: [Data] = (0..<10).map { Self.chunk($0) }
        let wholeBody = Data(chunks.joined())   // outside #expect: `reduce(Data(), +)` inside took half a second to type-check
        pump.run(chunks)
        try await pump.paused.wait(for: "the transfer to pause")
        let written = Mutex(Data())
        let ends = Atomic(0)
        try await HTTPBody(feed: pump.feed).drain { chunk in
            if let chunk { written.withLock { $0 += chunk } } else { ends.add(1, ordering: .relaxed) }
        }
        // Told the end once, after the last chunk.
        #expect(ends.load(ordering: .relaxed) == 1)
        let wrote: Data = written.withLock { $0 }
        #expect(wrote == wholeBody)
        // The sink runs on a file-work thread: the transfer pauses whenever it falls behind, and
        // every pause ends.
        #expect(pump.pauses.value >= 1)
        #expect(!pump.stuck.isOpen)
    }

    @Test func aSinkThatThrowsStopsTheTransferAndIsNotCalledAgain() async throws {
        let pump = Pump()
        let calls = Atomic(0)
        pump.run((0..<10).map { Self.chunk($0) })
        await #expect(throws: OMDbError.posterTooLarge(bytes: 2, limit: 1)) {
            try await HTTPBody(feed: pump.feed).drain { _ in
                if calls.add(1, ordering: .relaxed).newValue == 2 { throw OMDbError.posterTooLarge(bytes: 2, limit: 1) }
            }
        }
        try await pump.finished.wait(for: "the transfer to stop")
        #expect(calls.load(ordering: .relaxed) == 2)
        #expect(pump.stops.value == 1)
        #expect(!pump.stuck.isOpen, "the stopped transfer stayed paused")
        #expect(pump.feed.receive(Self.chunk(0)) == .stopped)
    }

    @Test func aCancelledReaderStopsTheTransferAndItsSinkIsNeverCalledAgain() async throws {
        let stops = Atomic(0)
        let feed = BodyFeed { stops.add(1, ordering: .relaxed) }
        let calls = Atomic(0)
        let first = Latch()
        let reading = Task { try await HTTPBody(feed: feed).drain { _ in calls.add(1, ordering: .relaxed); first.open() } }
        #expect(feed.receive(Self.chunk(0)) == .taken)
        try await first.wait(for: "the sink to take the first chunk")
        reading.cancel()
        await #expect(throws: CancellationError.self) { try await reading.value }
        #expect(feed.receive(Self.chunk(1)) == .stopped)
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(stops.load(ordering: .relaxed) == 1)
    }

    @Test func aPulledReaderThatStopsEarlyStopsTheTransfer() async throws {
        let pump = Pump()
        pump.run((0..<40).map { Self.chunk($0) })
        await #expect(throws: TransportError.tooLarge(bytes: 96 * 1024)) {
            try await HTTPBody(feed: pump.feed).collect(upTo: 80 * 1024)
        }
        try await pump.finished.wait(for: "the transfer to stop")
        #expect(pump.stops.value == 1)
        #expect(!pump.stuck.isOpen, "the stopped transfer stayed paused")
    }

    @Test func aBodyDroppedUnreadStopsTheTransferAndOneReadToTheEndDoesNot() async throws {
        let stops = Atomic(0)
        do {
            let feed = BodyFeed { stops.add(1, ordering: .relaxed) }
            _ = feed.receive(Self.chunk(0))
            _ = HTTPBody(feed: feed)
        }
        #expect(stops.load(ordering: .relaxed) == 1)
        let feed = BodyFeed { stops.add(1, ordering: .relaxed) }
        _ = feed.receive(Self.chunk(0))
        feed.finish()
        // Pulled, as API answers are: what came before the reader is read first.
        #expect(try await HTTPBody(feed: feed).collect(upTo: .max) == Self.chunk(0))
        #expect(stops.load(ordering: .relaxed) == 1)
    }

    @Test func aBodyCutShortOfItsLengthIsTruncatedWhenDrained() async {
        let feed = BodyFeed {}
        _ = feed.receive(Self.chunk(0))
        feed.finish()
        await #expect(throws: TransportError.truncated(received: 16 * 1024, expected: 20_000)) {
            try await HTTPBody(feed: feed, length: 20_000).drain { _ in }
        }
    }
}

private extension HTTPBody {
    /// Every chunk handed to `sink`, back once it has taken them all.
    func drain(into sink: @escaping BodyFeed.Sink) async throws {
        try await receive(into: sink).finished()
    }
}
