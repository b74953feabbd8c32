import Foundation
import Synchronization

/// A response body that a transport feeds from its own thread, read once by one reader: pulled
/// chunk by chunk (``HTTPBody``'s iterator) or pushed into a sink (``HTTPBody/drain(into:)``).
///
/// Flow control without blocking anyone: the transport hands each chunk to ``receive(_:)``. A
/// pushing reader's sink takes it right there, on the transport's thread (a poster goes to its
/// file before the next chunk is read). Otherwise chunks wait for the reader, up to
/// `highWater` bytes; past that ``receive(_:)`` answers ``Intake/full`` and the transport pauses
/// the transfer, keeping the chunk, until the reader has caught up and `resumeTransfer` is called.
/// A reader that gives up (stops early, its sink throws, its task is cancelled, it drops the body
/// unread) calls `cancelTransfer`.
public final class BodyFeed: Sendable {
    /// Takes one chunk on the transport's thread; throwing stops the body and cancels the transfer.
    public typealias Sink = @Sendable (Data) throws -> Void

    /// What became of a chunk handed to ``receive(_:)``.
    public enum Intake: Sendable {
        /// Taken: read on.
        case taken
        /// Not taken: the reader is behind. Pause, and offer the same chunk again once resumed.
        case full
        /// Not taken, and never will be: the reader is gone. Stop the transfer.
        case stopped
    }

    private enum Reader {
        /// Nobody reads yet: chunks wait in `pending`.
        case none
        /// Pulled; `waiting` is the reader parked for the next chunk (only while `pending` is empty).
        case pulling(waiting: CheckedContinuation<Data?, any Error>?)
        case pushing(Sink, CheckedContinuation<Void, any Error>)
        /// Read to the end, failed, or given up by its reader.
        case done
    }

    private struct State {
        var reader = Reader.none
        var pending: [Data] = []
        var pendingBytes = 0
        var peakPendingBytes = 0
        /// Set once the transport is done: `nil` inside for a complete body.
        var end: (any Error)??
        /// The transport was told ``Intake/full`` and waits for `resumeTransfer`.
        var paused = false
    }

    private let state = Mutex(State())
    private let highWater: Int
    private let resumeTransfer: @Sendable () -> Void
    private let cancelTransfer: @Sendable () -> Void

    /// - Parameters:
    ///   - highWater: the bytes that may wait for the reader before the transfer is paused; it
    ///     resumes when half of that is left.
    ///   - resumeTransfer: the reader caught up after ``Intake/full``: offer the chunk again.
    ///   - cancelTransfer: the reader gave up: stop the download. May be called from the reader's
    ///     thread or, from inside ``receive(_:)``, from the transport's.
    public init(highWater: Int = 256 * 1024, resumeTransfer: @escaping @Sendable () -> Void = {},
                cancelTransfer: @escaping @Sendable () -> Void) {
        self.highWater = max(1, highWater)
        self.resumeTransfer = resumeTransfer
        self.cancelTransfer = cancelTransfer
    }

    /// The most bytes that ever waited for the reader (for tests and measurements).
    public var peakPendingBytes: Int { state.withLock { $0.peakPendingBytes } }

    // MARK: The transport's side

    /// Hands `data` on: to the sink right here, to the reader parked for it, or into the queue.
    /// Call it from one thread at a time, in order; after ``Intake/full``, offer the same chunk
    /// again only once `resumeTransfer` was called.
    public func receive(_ data: Data) -> Intake {
        var handOff: CheckedContinuation<Data?, any Error>?
        var failed: (CheckedContinuation<Void, any Error>, any Error)?
        let intake = state.withLock { state -> Intake in
            switch state.reader {
            case .done:
                return .stopped
            case let .pushing(sink, continuation):
                // Under the lock: once a reader has given up, no sink call is running or can start,
                // so it may close what the sink writes to.
                do {
                    try sink(data)
                    return .taken
                } catch {
                    state.reader = .done
                    failed = (continuation, error)
                    return .stopped
                }
            case .pulling(let waiting?):
                state.reader = .pulling(waiting: nil)
                handOff = waiting
                return .taken
            case .none, .pulling(nil):
                guard state.pendingBytes < highWater else {
                    state.paused = true
                    return .full
                }
                state.pending.append(data)
                state.pendingBytes += data.count
                state.peakPendingBytes = max(state.peakPendingBytes, state.pendingBytes)
                return .taken
            }
        }
        // Outside the lock: a resume may run the reader's task right here.
        handOff?.resume(returning: data)
        if let (continuation, error) = failed {
            cancelTransfer()
            continuation.resume(throwing: error)
        }
        return intake
    }

    /// The body is complete (`error` is `nil`) or cut short by `error`.
    public func finish(throwing error: (any Error)? = nil) {
        let reader = state.withLock { state -> Reader in
            guard state.end == nil else { return .done }
            state.end = .some(error)
            switch state.reader {
            case .pushing, .pulling(waiting: _?):
                defer { state.reader = .done }
                return state.reader
            case .none, .pulling(nil), .done:
                return .done
            }
        }
        switch reader {
        case .pulling(let waiting?): waiting.resume(with: error.map { .failure($0) } ?? .success(nil))
        case .pushing(_, let continuation): continuation.resume(with: error.map { .failure($0) } ?? .success(()))
        default: break
        }
    }

    // MARK: The reader's side

    /// The next chunk, those already here first; nil at the end of the body.
    /// - Throws: the transport's error, or `CancellationError` (the transfer is cancelled).
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                var resume = false
                let outcome = state.withLock { state -> Result<Data?, any Error>? in
                    switch state.reader {
                    case .done, .pushing, .pulling(waiting: _?):
                        // Read to the end already, given up, or a second reader: nothing for it.
                        return state.end.flatMap { $0.map { .failure($0) } } ?? .success(nil)
                    case .none, .pulling(nil):
                        break
                    }
                    if !state.pending.isEmpty {
                        let chunk = state.pending.removeFirst()
                        state.pendingBytes -= chunk.count
                        state.reader = .pulling(waiting: nil)
                        if state.paused, state.pendingBytes <= highWater / 2 {
                            state.paused = false
                            resume = true
                        }
                        return .success(chunk)
                    }
                    if let end = state.end {
                        state.reader = .done
                        return end.map { .failure($0) } ?? .success(nil)
                    }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.reader = .pulling(waiting: continuation)
                    return nil
                }
                if resume { resumeTransfer() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            giveUp(with: CancellationError())
        }
    }

    /// Calls `sink` with every chunk, those already here first, then each as it arrives (on the
    /// transport's thread), and returns when the body is complete.
    /// - Throws: what `sink` threw (the transfer is cancelled), the transport's error, or
    ///   `CancellationError`. Once it returns or throws, `sink` is never called again.
    func push(into sink: @escaping Sink) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                attach(sink, continuation)
            }
        } onCancel: {
            giveUp(with: CancellationError())
        }
    }

    private func attach(_ sink: @escaping Sink, _ continuation: CheckedContinuation<Void, any Error>) {
        var resume = false
        let outcome = state.withLock { state -> Result<Void, any Error>? in
            guard case .none = state.reader else {
                // Cancelled before attaching, or a second reader.
                return .failure(Task.isCancelled ? CancellationError() : TransportError.connectionLost)
            }
            do {
                for chunk in state.pending { try sink(chunk) }
                state.pending = []
                state.pendingBytes = 0
            } catch {
                state.reader = .done
                state.pending = []
                return .failure(error)
            }
            if let end = state.end {
                state.reader = .done
                return end.map { .failure($0) } ?? .success(())
            }
            if Task.isCancelled {
                state.reader = .done
                return .failure(CancellationError())
            }
            state.reader = .pushing(sink, continuation)
            resume = state.paused
            state.paused = false
            return nil
        }
        if resume { resumeTransfer() }
        guard let outcome else { return }
        if case .failure = outcome, state.withLock({ $0.end == nil }) { cancelTransfer() }
        continuation.resume(with: outcome)
    }

    /// The body was dropped: unless it was read to the end, drop what waits and stop the transfer.
    func abandon() {
        giveUp(with: CancellationError())
    }

    /// The reader stopped before the end (or never started): drop what waits and stop the transfer.
    func giveUp(with error: any Error = CancellationError()) {
        let (stop, parked, pushing) = state.withLock { state -> (Bool, CheckedContinuation<Data?, any Error>?, CheckedContinuation<Void, any Error>?) in
            var parked: CheckedContinuation<Data?, any Error>?
            var pushing: CheckedContinuation<Void, any Error>?
            switch state.reader {
            case .done: return (false, nil, nil)
            case .pushing(_, let continuation): pushing = continuation
            case .pulling(let waiting): parked = waiting
            case .none: break
            }
            state.reader = .done
            state.pending = []
            state.pendingBytes = 0
            return (state.end == nil, parked, pushing)
        }
        if stop { cancelTransfer() }
        parked?.resume(throwing: error)
        pushing?.resume(throwing: error)
    }
}
