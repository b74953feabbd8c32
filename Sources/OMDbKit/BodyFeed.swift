import Foundation
import Synchronization

/// A body that a transport feeds from its own thread, chunk by chunk, as the bytes arrive.
///
/// The reader either pulls (iterates the ``HTTPBody``: each chunk is handed to a task) or pushes:
/// ``HTTPBody/drain(into:)`` attaches a synchronous sink that the transport calls right inside
/// ``receive(_:)``. Pushing is what keeps memory flat when the transport has no flow control of its
/// own (URLSession on Linux): the chunk is written before the transport reads the next one, so
/// nothing piles up between them. Chunks that came before a reader attached wait here and go to it
/// first, in order; past a few of them the transport waits for the reader, which is on its way (it
/// has the headers), so a reader that is slow to start holds no more than that.
public final class BodyFeed: Sendable {
    /// Takes one chunk on the transport's thread; throwing stops the body and cancels the transfer.
    public typealias Sink = @Sendable (Data) throws -> Void

    private enum Reader {
        /// Nobody reads yet: chunks wait in `pending`.
        case none
        case pulling(AsyncThrowingStream<Data, any Error>.Continuation)
        case pushing(Sink, CheckedContinuation<Void, any Error>)
        /// Read to the end, failed, or given up by its reader: chunks are dropped.
        case done
    }

    private struct State {
        var reader = Reader.none
        var pending: [Data] = []
        /// Set once the transport is done: `nil` inside for a complete body.
        var end: (any Error)??
        /// The bytes that wait in `pending` now, and the most that ever did.
        var pendingBytes = 0
        var peakPendingBytes = 0
        /// Signalled when a reader comes (or the body is given up) while the transport waits for one.
        var waiter: DispatchSemaphore?
        /// Cleared when a wait ran out: the transport does not wait again for this body.
        var patient = true

        mutating func wakeTransport() {
            waiter?.signal()
            waiter = nil
        }
    }

    private let state = Mutex(State())
    private let cancelTransfer: @Sendable () -> Void
    private let waitAbove: Int
    private let patience: DispatchTimeInterval

    /// - Parameters:
    ///   - waitAbove: past this many bytes waiting for a reader, ``receive(_:)`` blocks until one
    ///     attaches, for at most `patience`; after that it queues the rest of the body unbounded.
    ///     A reader on its way takes a millisecond or two. The patience is short because the thread
    ///     that waits may serve every transfer (URLSession on Linux has one queue for every session
    ///     of the process): a reader held up by a busy machine must not hold up every other request.
    ///   - cancelTransfer: stops the download when the reader gives up (it stopped reading, its sink
    ///     threw, it was cancelled, it dropped the body unread). It may be called on the transport's
    ///     own thread, from inside ``receive(_:)``.
    public init(waitAbove: Int = 64 * 1024, patience: DispatchTimeInterval = .milliseconds(20), cancelTransfer: @escaping @Sendable () -> Void) {
        self.waitAbove = waitAbove
        self.patience = patience
        self.cancelTransfer = cancelTransfer
    }

    /// The most bytes that ever waited for a reader to attach (for tests and measurements).
    public var peakPendingBytes: Int { state.withLock { $0.peakPendingBytes } }

    /// True while the transport waits in ``receive(_:)`` for a reader (for tests).
    var isWaitingForReader: Bool { state.withLock { $0.waiter != nil } }

    // MARK: The transport's side

    /// Hands `data` on: to the sink right here (on the caller's thread), to the pulling reader,
    /// or into the queue until a reader attaches; when that queue is full, waits for the reader.
    /// Call it from one thread at a time, in order.
    public func receive(_ data: Data) {
        var failed: (CheckedContinuation<Void, any Error>, any Error)?
        var wait: DispatchSemaphore?
        var pulling: AsyncThrowingStream<Data, any Error>.Continuation?
        state.withLock { state in
            switch state.reader {
            case .none:
                state.pending.append(data)
                state.pendingBytes += data.count
                state.peakPendingBytes = max(state.peakPendingBytes, state.pendingBytes)
                if state.pendingBytes > waitAbove, state.patient {
                    state.waiter = DispatchSemaphore(value: 0)
                    wait = state.waiter
                }
            case .pulling(let continuation):
                pulling = continuation
            case let .pushing(sink, continuation):
                // Under the lock: once a reader has given up, no sink call is running or can start,
                // so it may close what the sink writes to.
                do {
                    try sink(data)
                } catch {
                    state.reader = .done
                    failed = (continuation, error)
                }
            case .done:
                break
            }
        }
        // Outside the lock: a yield resumes the reader's task, which waits for that task's lock, and a
        // task being cancelled holds it while its stream's termination handler takes ours.
        pulling?.yield(data)
        if let (continuation, error) = failed {
            cancelTransfer()
            continuation.resume(throwing: error)
        }
        // Blocking the transport's thread is the point: nothing else slows a transport without
        // flow control. The reader never waits for this thread, so it can always come.
        if let wait, wait.wait(timeout: .now() + patience) == .timedOut {
            state.withLock { state in
                state.waiter = nil
                state.patient = false
            }
        }
    }

    /// The body is complete (`error` is `nil`) or cut short by `error`.
    public func finish(throwing error: (any Error)? = nil) {
        let reader = state.withLock { state -> Reader in
            guard state.end == nil else { return .done }
            state.end = .some(error)
            defer { if case .none = state.reader {} else { state.reader = .done } }
            return state.reader
        }
        // Outside the lock: ending the stream runs its termination handler, which takes the lock.
        switch reader {
        case .pulling(let continuation): continuation.finish(throwing: error)
        case .pushing(_, let continuation): continuation.resume(with: error.map { .failure($0) } ?? .success(()))
        case .none, .done: break
        }
    }

    // MARK: The reader's side

    /// The chunks as a stream, those already here first. Ending the stream early cancels the transfer.
    func stream() -> AsyncThrowingStream<Data, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
        let pulling = state.withLock { state -> Bool in
            guard case .none = state.reader else {
                // A second reader: the first one has the bytes.
                continuation.finish(throwing: TransportError.connectionLost)
                return false
            }
            for chunk in state.pending { continuation.yield(chunk) }
            state.pending = []
            state.pendingBytes = 0
            state.wakeTransport()
            if let end = state.end {
                state.reader = .done
                continuation.finish(throwing: end)
                return false
            }
            state.reader = .pulling(continuation)
            return true
        }
        // Only a reader that may stop early stops the transfer (a finished stream terminates too).
        if pulling { continuation.onTermination = { [self] _ in giveUp() } }
        return stream
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
        let outcome = state.withLock { state -> Result<Void, any Error>? in
            guard case .none = state.reader else {
                // Cancelled before attaching, or a second reader.
                return .failure(Task.isCancelled ? CancellationError() : TransportError.connectionLost)
            }
            defer { state.wakeTransport() }
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
            state.reader = .pushing(sink, continuation)
            return nil
        }
        guard let outcome else { return }
        if case .failure = outcome { cancelTransfer() }
        continuation.resume(with: outcome)
    }

    /// The body was dropped: when nobody ever read it, drop what waits and stop the transfer.
    func dropIfUnread() {
        guard state.withLock({ if case .none = $0.reader { true } else { false } }) else { return }
        giveUp()
    }

    /// The reader stopped before the end (or never started): drop what waits and stop the transfer.
    func giveUp(with error: any Error = CancellationError()) {
        let (stop, pushing) = state.withLock { state -> (Bool, CheckedContinuation<Void, any Error>?) in
            var pushing: CheckedContinuation<Void, any Error>?
            switch state.reader {
            case .done: return (false, nil)
            case .pushing(_, let continuation): pushing = continuation
            case .none, .pulling: break
            }
            state.reader = .done
            state.pending = []
            state.wakeTransport()
            return (state.end == nil, pushing)
        }
        if stop { cancelTransfer() }
        pushing?.resume(throwing: error)
    }
}
