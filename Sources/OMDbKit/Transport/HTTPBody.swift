import Files
import Foundation

/// A response body as it arrives: chunks that can be read once, the consumer setting the limit
/// (after swift-openapi-runtime's `HTTPBody`), so an oversized answer is never held whole.
package struct HTTPBody: AsyncSequence, Sendable {
    package typealias Element = Data

    /// The length the server announced (`Content-Length`), when it did.
    package let length: Int?
    private let source: Source

    private enum Source: Sendable {
        case stream(AsyncThrowingStream<Data, any Error>)
        case feed(FeedHandle)
    }

    /// Gives up a fed body once neither it nor its iterator is held, as dropping a stream does.
    final class FeedHandle: Sendable {
        let feed: BodyFeed
        init(_ feed: BodyFeed) { self.feed = feed }
        deinit { feed.giveUp() }
    }

    /// A body streamed from `chunks`; `length` is what the server announced, if anything.
    package init(chunks: AsyncThrowingStream<Data, any Error>, length: Int? = nil) {
        source = .stream(chunks)
        self.length = length
    }

    /// A body a transport feeds from its own thread (see ``BodyFeed``).
    package init(feed: BodyFeed, length: Int? = nil) {
        source = .feed(FeedHandle(feed))
        self.length = length
    }

    /// A body already in memory, handed out in chunks of 64 kB.
    package init(_ data: Data) {
        let stream = AsyncThrowingStream<Data, any Error> { continuation in
            var offset = data.startIndex
            while offset < data.endIndex {
                let end = Swift.min(offset + 64 * 1024, data.endIndex)
                continuation.yield(data[offset..<end])
                offset = end
            }
            continuation.finish()
        }
        self.init(chunks: stream, length: data.count)
    }

    /// A file already opened (and checked), read 64 kB at a time; the handle is closed at the end.
    init(reading handle: FileHandle) throws {
        let length = try handle.seekToEnd()
        try handle.seek(toOffset: 0)
        let stream = AsyncThrowingStream<Data, any Error> {
            guard let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty else {
                try? handle.close()
                return nil
            }
            return chunk
        }
        self.init(chunks: stream, length: Int(length))
    }

    /// Reads the chunks, and checks the end: neither a cancelled read nor a connection closed before
    /// the announced length passes for a complete body.
    package struct AsyncIterator: AsyncIteratorProtocol {
        enum Base {
            case stream(AsyncThrowingStream<Data, any Error>.AsyncIterator)
            case feed(FeedHandle)
        }

        var base: Base
        let length: Int?
        var received = 0

        /// The next chunk; `nil` at the end. Throws ``TransportError/truncated(received:expected:)`` when fewer bytes came than announced.
        package mutating func next() async throws -> Data? {
            let chunk: Data?
            switch base {
            case .stream(var iterator):
                chunk = try await iterator.next()
                base = .stream(iterator)
            case .feed(let handle):
                chunk = try await handle.feed.next()
            }
            if let chunk {
                received += chunk.count
                return chunk
            }
            try Task.checkCancellation()
            if let length, received < length { throw TransportError.truncated(received: received, expected: length) }
            return nil
        }
    }

    /// An iterator over the chunks; a body is read once.
    package func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .stream(let chunks): AsyncIterator(base: .stream(chunks.makeAsyncIterator()), length: length)
        case .feed(let handle): AsyncIterator(base: .feed(handle), length: length)
        }
    }

    /// Hands every chunk to `sink` on a file-work thread, then `nil`, and returns once the whole body
    /// has arrived (what `sink` has not taken yet waits, bounded): a reader writing to a slow disk is
    /// done with the network and its deadline as soon as the bytes are in. ``Draining/finished()``
    /// waits for the rest.
    /// - Throws: what `sink` threw so far, ``TransportError`` when the body ends early, `CancellationError`.
    package func receive(into sink: @escaping BodyFeed.Sink) async throws -> Draining {
        guard case .feed(let handle) = source else {
            // A body in memory or read from a file: the caller, cancelled, never waits for the disk.
            let lane = FileWork.lane("movies.body-sink")
            for try await chunk in self {
                try await FileWork.runUnlessCancelled(on: lane) { try sink(chunk) }
            }
            try await FileWork.runUnlessCancelled(on: lane) { try sink(nil) }
            return Draining(handle: nil)
        }
        do {
            try await handle.feed.push(into: sink)
            try Task.checkCancellation()
            let count = handle.feed.receivedBytes
            if let length, count < length { throw TransportError.truncated(received: count, expected: length) }
        } catch {
            handle.feed.giveUp(with: error)
            throw error
        }
        return Draining(handle: handle)
    }

    /// A body that has arrived whole, still being handed to its sink (see ``receive(into:)``).
    package struct Draining: Sendable {
        /// Keeps the body alive: dropped, it would be given up.
        fileprivate let handle: FeedHandle?

        /// Returns once the sink has taken every chunk, and is never called again.
        /// - Throws: what the sink threw, or `CancellationError`.
        package func finished() async throws {
            try await handle?.feed.flushed()
        }
    }

    /// Reads the whole body, refusing it once it passes `limit` bytes.
    /// - Throws: ``TransportError/tooLarge(bytes:)``, or what the transport threw while the body streamed.
    package func collect(upTo limit: Int) async throws -> Data {
        if let length, length > limit { throw TransportError.tooLarge(bytes: length) }
        var data = Data()
        for try await chunk in self {
            guard data.count + chunk.count <= limit else { throw TransportError.tooLarge(bytes: data.count + chunk.count) }
            data.append(chunk)
        }
        return data
    }
}
