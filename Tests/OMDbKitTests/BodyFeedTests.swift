import Foundation
import Synchronization
import Testing
@testable import OMDbKit

/// A body fed from the transport's own thread: bounded before a reader comes, written in place
/// once one does, and stopped whenever the reader gives up.
@Suite struct BodyFeedTests {
    /// Chunk `index` of a test body: its bytes say which it is.
    private static func chunk(_ index: Int, size: Int = 16 * 1024) -> Data { Data(repeating: UInt8(index), count: size) }

    /// Counts the transfers a feed stopped.
    private final class Stops: Sendable {
        private let count = Mutex(0)
        func stop() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// Waits (up to a minute, for a stalled pool) until `done` holds.
    private static func waitUntil(_ done: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !done(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
    }

    @Test func theTransportWaitsForAReaderPastTheLimitThenEveryChunkArrivesInOrder() async throws {
        let feed = BodyFeed(waitAbove: 64 * 1024, patience: .seconds(60)) {}
        let taken = Atomic(0)
        Thread.detachNewThread {
            for index in 0..<20 {
                feed.receive(Self.chunk(index))
                taken.add(1, ordering: .relaxed)
            }
            feed.finish()
        }
        // No reader yet: the transport's thread must stop once 64 KB wait, not read the whole body.
        try await Self.waitUntil { feed.isWaitingForReader || taken.load(ordering: .relaxed) == 20 }
        #expect(feed.isWaitingForReader)
        #expect(taken.load(ordering: .relaxed) == 4)
        #expect(feed.peakPendingBytes <= 64 * 1024 + 16 * 1024)
        let written = Mutex(Data())
        try await HTTPBody(feed: feed).drain { chunk in written.withLock { $0 += chunk } }
        #expect(written.withLock { $0 } == (0..<20).reduce(into: Data()) { $0 += Self.chunk($1) })
        #expect(feed.peakPendingBytes <= 64 * 1024 + 16 * 1024)
    }

    @Test func aSinkThatThrowsStopsTheTransferAndIsNotCalledAgain() async throws {
        let stops = Stops()
        let feed = BodyFeed { stops.stop() }
        let calls = Atomic(0)
        feed.receive(Self.chunk(0))
        let reading = Task {
            try await HTTPBody(feed: feed).drain { _ in
                if calls.add(1, ordering: .relaxed).newValue == 2 { throw OMDbError.posterTooLarge(bytes: 2, limit: 1) }
            }
        }
        try await Self.waitUntil { calls.load(ordering: .relaxed) == 1 }
        feed.receive(Self.chunk(1))
        feed.receive(Self.chunk(2))
        feed.finish()
        await #expect(throws: OMDbError.posterTooLarge(bytes: 2, limit: 1)) { try await reading.value }
        #expect(calls.load(ordering: .relaxed) == 2)
        #expect(stops.value == 1)
    }

    @Test func aCancelledReaderStopsTheTransferAndItsSinkIsNeverCalledAgain() async throws {
        let stops = Stops()
        let feed = BodyFeed { stops.stop() }
        let calls = Atomic(0)
        let reading = Task { try await HTTPBody(feed: feed).drain { _ in calls.add(1, ordering: .relaxed) } }
        feed.receive(Self.chunk(0))
        try await Self.waitUntil { calls.load(ordering: .relaxed) == 1 }
        reading.cancel()
        await #expect(throws: CancellationError.self) { try await reading.value }
        feed.receive(Self.chunk(1))
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(stops.value == 1)
    }

    @Test func aBodyDroppedUnreadStopsTheTransferAndOneReadToTheEndDoesNot() async throws {
        let stops = Stops()
        do {
            let feed = BodyFeed { stops.stop() }
            feed.receive(Self.chunk(0))
            _ = HTTPBody(feed: feed)
        }
        #expect(stops.value == 1)
        let feed = BodyFeed { stops.stop() }
        feed.receive(Self.chunk(0))
        feed.finish()
        // Pulled, as API answers are: what came before the reader is read first.
        #expect(try await HTTPBody(feed: feed).collect(upTo: .max) == Self.chunk(0))
        #expect(stops.value == 1)
    }

    @Test func aBodyCutShortOfItsLengthIsTruncatedWhenDrained() async {
        let feed = BodyFeed {}
        feed.receive(Self.chunk(0))
        feed.finish()
        await #expect(throws: TransportError.truncated(received: 16 * 1024, expected: 20_000)) {
            try await HTTPBody(feed: feed, length: 20_000).drain { _ in }
        }
    }
}
