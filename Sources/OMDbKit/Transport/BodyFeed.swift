import Files
import Foundation
import Synchronization

/// A response body that a transport feeds from its own thread, read once by one reader: pulled
/// chunk by chunk (``HTTPBody``'s iterator) or pushed into a sink (``HTTPBody/receive(into:)``).
///
/// ``receive(_:)`` only queues a chunk; past `highWater` bytes waiting it answers ``Intake/full``
/// and the transport pauses until `resumeTransfer`. A sink runs on a file-work thread, never the
/// transport's, so a slow disk pauses its own transfer only. A reader that gives up calls
/// `cancelTransfer`. The rules are `BodyFeedStateMachine`'s, held under a lock; what they say is
/// done outside it.
package final class BodyFeed: Sendable {
    /// Takes each chunk on a file-work thread (it may block), then `nil` at the end; throwing stops the body.
    package typealias Sink = @Sendable (Data?) throws -> Void

    /// What became of a chunk handed to ``receive(_:)``.
    package enum Intake: Sendable {
        /// Taken: read on.
        case taken
        /// Not taken: the reader is behind. Pause, and offer the same chunk again once resumed.
        case full
        /// Not taken, and never will be: the reader is gone. Stop the transfer.
        case stopped
    }

    typealias Machine = BodyFeedStateMachine<CheckedContinuation<Data?, any Error>, CheckedContinuation<Void, any Error>, Sink>

    private let state: Mutex<Machine>
    /// Where the sink runs, the same thread for every chunk.
    private let lane = FileWork.lane("movies.body")
    private let resumeTransfer: @Sendable () -> Void
    private let cancelTransfer: @Sendable () -> Void

    /// - Parameters:
    ///   - highWater: the bytes that may wait before the transfer is paused; it resumes at half.
    ///   - resumeTransfer: the reader caught up after ``Intake/full``: offer the chunk again.
    ///   - cancelTransfer: the reader gave up; called from any thread, the transport's included.
    package init(highWater: Int = 256 * 1024, resumeTransfer: @escaping @Sendable () -> Void = {},
                cancelTransfer: @escaping @Sendable () -> Void) {
        state = Mutex(Machine(highWater: highWater))
        self.resumeTransfer = resumeTransfer
        self.cancelTransfer = cancelTransfer
    }

    /// The most bytes that ever waited for the reader (for tests).
    package var peakPendingBytes: Int { state.withLock { $0.peakPendingBytes } }

    var receivedBytes: Int { state.withLock { $0.receivedBytes } }

    // MARK: The transport's side

    /// Queues `data`, or hands it to the reader parked for it; never runs the sink. One thread at a
    /// time, in order; after ``Intake/full``, the same chunk again once `resumeTransfer` was called.
    package func receive(_ data: Data) -> Intake {
        let (intake, handOff, startsWriting) = state.withLock { $0.receive(data) }
        if startsWriting { startWriting() }
        handOff?.resume(returning: data)
        return intake
    }

    /// The body is complete (`error` is `nil`) or cut short by `error`.
    package func finish(throwing error: (any Error)? = nil) {
        let result: Result<Void, any Error> = error.map { .failure($0) } ?? .success(())
        let outcome = state.withLock { $0.finish(result) }
        if outcome.startWriting { startWriting() }
        run(outcome.resumes)
    }

    // MARK: The reader's side

    /// The next chunk, those already here first; nil at the end of the body.
    /// - Throws: the transport's error, or `CancellationError` (the transfer is cancelled).
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let (outcome, resume) = state.withLock { $0.pull(continuation, cancelled: Task.isCancelled) }
                if resume { resumeTransfer() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            giveUp(with: CancellationError())
        }
    }

    /// Hands every chunk to `sink` on a file-work thread, and returns once the transfer has ended.
    /// - Throws: what `sink` threw so far, the transport's error, or `CancellationError`.
    func push(into sink: @escaping Sink) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let attach = state.withLock { $0.push(continuation, into: sink, cancelled: Task.isCancelled) }
                switch attach {
                case .park(let startWriting):
                    if startWriting { self.startWriting() }
                case .received(let startWriting):
                    if startWriting { self.startWriting() }
                    continuation.resume()
                case let .fail(error, cancel):
                    if cancel { cancelTransfer() }
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            giveUp(with: CancellationError())
        }
    }

    /// After ``push(into:)``: returns once `sink` has taken every chunk, and is never called again.
    /// - Throws: what `sink` threw, or `CancellationError`.
    func flushed() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if let outcome = state.withLock({ $0.flush(continuation) }) { continuation.resume(with: outcome) }
            }
        } onCancel: {
            giveUp(with: CancellationError())
        }
    }

    /// The reader stopped before the end: drop what waits and stop the transfer.
    func giveUp(with error: any Error = CancellationError()) {
        let stop = state.withLock { $0.giveUp(error) }
        if stop.cancelTransfer { cancelTransfer() }
        run(stop.resumes)
    }

    // MARK: The write loop

    /// Writes what waits on a file-work thread, until nothing does (restarted by the next chunk) or the body ends.
    private func startWriting() {
        lane.async { [self] in
            while true {
                switch state.withLock({ $0.nextWrite() }) {
                case let .write(chunk, sink, resume):
                    if resume { resumeTransfer() }
                    do {
                        try sink(chunk)
                    } catch {
                        let stop = state.withLock { $0.writeFailed(error) }
                        if stop.cancelTransfer { cancelTransfer() }
                        run(stop.resumes)
                        return
                    }
                case .end(let sink):
                    let result = Result { try sink(nil) }
                    if let resume = state.withLock({ $0.ended(result) }) { run([resume]) }
                    return
                case .stop:
                    return
                }
            }
        }
    }

    private func run(_ resumes: [Machine.Resume]) {
        for resume in resumes {
            switch resume {
            case let .puller(continuation, result): continuation.resume(with: result)
            case let .pusher(continuation, result): continuation.resume(with: result)
            }
        }
    }
}
