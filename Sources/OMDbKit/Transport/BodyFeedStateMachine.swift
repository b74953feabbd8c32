import Foundation

/// The rules of a ``BodyFeed`` as a value: each event changes the state and returns what is to be
/// done. Generic over what parks a reader and over the sink, so that tests drive it with plain values.
struct BodyFeedStateMachine<Puller, Pusher, Sink> {
    enum Reader {
        /// Nobody reads yet: chunks wait in `pending`.
        case none
        /// Pulled; `waiting` is the reader parked for the next chunk (only while `pending` is empty).
        case pulling(waiting: Puller?)
        /// Pushed into `sink` by a write loop (`writing` while one runs); `receiving` waits for the
        /// transfer's end, `flushing` for the sink's.
        case pushing(Sink, writing: Bool, receiving: Pusher?, flushing: Pusher?)
        /// Read to the end, failed, or given up by its reader.
        case done
    }

    /// A parked reader to resume, and with what.
    enum Resume {
        case puller(Puller, Result<Data?, any Error>)
        case pusher(Pusher, Result<Void, any Error>)
    }

    /// What a write loop does next.
    enum Write {
        /// Hand `chunk` to `sink`; resume the transfer first when `resumeTransfer`.
        case write(Data, Sink, resumeTransfer: Bool)
        /// The body is complete and every chunk taken: tell `sink` (`nil`), then ``ended(_:)``.
        case end(Sink)
        /// Stop: nothing waits (the loop starts again with the next chunk), or the body stopped.
        case stop
    }

    /// What a reader's stop comes to: whether to cancel the transfer, and whom to resume.
    typealias Stop = (cancelTransfer: Bool, resumes: [Resume])

    /// What attaching a sink comes to.
    enum Attach {
        /// Parked until the transfer ends; start the write loop when `startWriting`.
        case park(startWriting: Bool)
        /// The transfer had ended already: the pusher goes on at once (start the loop if asked).
        case received(startWriting: Bool)
        /// Refused; cancel the transfer when `cancelTransfer`.
        case fail(any Error, cancelTransfer: Bool)
    }

    private(set) var reader = Reader.none
    private var pending: [Data] = []
    private(set) var pendingBytes = 0
    private(set) var peakPendingBytes = 0
    private(set) var receivedBytes = 0
    /// Set once the transport is done.
    private(set) var end: Result<Void, any Error>?
    /// Why a pushed body stopped before its sink took everything (its sink threw, or it was given up).
    private var failure: (any Error)?
    /// The transport was told ``Intake/full`` and waits to be resumed.
    private(set) var paused = false
    let highWater: Int

    init(highWater: Int) {
        self.highWater = max(1, highWater)
    }

    // MARK: The transport's events

    /// What becomes of a chunk the transport hands over; taken, it may go to a parked puller, or
    /// start the write loop.
    mutating func receive(_ data: Data) -> (BodyFeed.Intake, handOff: Puller?, startWriting: Bool) {
        switch reader {
        case .done:
            return (.stopped, nil, false)
        case .pulling(let waiting?):
            reader = .pulling(waiting: nil)
            receivedBytes += data.count
            return (.taken, waiting, false)
        case .none, .pulling(nil), .pushing:
            guard pendingBytes < highWater else {
                paused = true
                return (.full, nil, false)
            }
            pending.append(data)
            pendingBytes += data.count
            receivedBytes += data.count
            peakPendingBytes = max(peakPendingBytes, pendingBytes)
            guard case let .pushing(sink, false, receiving, flushing) = reader else { return (.taken, nil, false) }
            reader = .pushing(sink, writing: true, receiving: receiving, flushing: flushing)
            return (.taken, nil, true)
        }
    }

    /// The transfer ended, complete or cut short; a pushed body's sink is told by the write loop.
    mutating func finish(_ result: Result<Void, any Error>) -> (resumes: [Resume], startWriting: Bool) {
        guard end == nil else { return ([], false) }
        end = result
        switch reader {
        case .none, .pulling(nil), .done:
            return ([], false)
        case .pulling(let waiting?):
            reader = .done
            return ([.puller(waiting, result.map { nil })], false)
        case let .pushing(sink, writing, receiving, flushing):
            if case .failure(let error) = result {
                stop(with: error)
                return ([receiving, flushing].compactMap { $0 }.map { .pusher($0, .failure(error)) }, false)
            }
            reader = .pushing(sink, writing: true, receiving: nil, flushing: flushing)
            return ([receiving].compactMap { $0 }.map { .pusher($0, .success(())) }, !writing)
        }
    }

    // MARK: The reader's events

    /// A puller asks for the next chunk: returns what it gets now, or nil when it is parked.
    mutating func pull(_ puller: Puller, cancelled: Bool) -> (Result<Data?, any Error>?, resumeTransfer: Bool) {
        switch reader {
        case .done, .pushing, .pulling(waiting: _?):
            // Read to the end already, given up, or a second reader: nothing for it.
            return (endResult.map { nil }, false)
        case .none, .pulling(nil):
            break
        }
        if !pending.isEmpty {
            let chunk = pending.removeFirst()
            pendingBytes -= chunk.count
            reader = .pulling(waiting: nil)
            return (.success(chunk), takeResume())
        }
        if let end {
            reader = .done
            return (end.map { nil }, false)
        }
        if cancelled { return (.failure(CancellationError()), false) }
        reader = .pulling(waiting: puller)
        return (nil, false)
    }

    /// A sink is attached: what waits is written first, then each chunk as it comes.
    mutating func push(_ pusher: Pusher, into sink: Sink, cancelled: Bool) -> Attach {
        guard case .none = reader else {
            // Cancelled (given up) before attaching, or a second reader.
            return .fail(cancelled ? CancellationError() : TransportError.connectionLost, cancelTransfer: end == nil)
        }
        if cancelled {
            stop(with: CancellationError())
            return .fail(CancellationError(), cancelTransfer: end == nil)
        }
        if case .failure(let error) = end {
            stop(with: error)
            return .fail(error, cancelTransfer: false)
        }
        let writing = !pending.isEmpty
        guard end == nil else {
            // Complete already: the write loop writes what waits, then tells the sink the end.
            reader = .pushing(sink, writing: true, receiving: nil, flushing: nil)
            return .received(startWriting: true)
        }
        reader = .pushing(sink, writing: writing, receiving: pusher, flushing: nil)
        return .park(startWriting: writing)
    }

    /// The pusher, its transfer ended, waits for the sink to take every chunk: nil when parked.
    mutating func flush(_ pusher: Pusher) -> Result<Void, any Error>? {
        switch reader {
        case let .pushing(sink, writing, receiving, _):
            reader = .pushing(sink, writing: writing, receiving: receiving, flushing: pusher)
            return nil
        case .done:
            if let failure { return .failure(failure) }
            return endResult
        case .none, .pulling:
            return .failure(TransportError.connectionLost)
        }
    }

    mutating func nextWrite() -> Write {
        guard case let .pushing(sink, true, receiving, flushing) = reader else { return .stop }
        if !pending.isEmpty {
            let chunk = pending.removeFirst()
            pendingBytes -= chunk.count
            return .write(chunk, sink, resumeTransfer: takeResume())
        }
        if case .success = end { return .end(sink) }
        reader = .pushing(sink, writing: false, receiving: receiving, flushing: flushing)
        return .stop
    }

    /// The sink took the end, or threw: the pusher to resume, unless the body was given up meanwhile.
    mutating func ended(_ result: Result<Void, any Error>) -> Resume? {
        guard case let .pushing(_, _, _, flushing) = reader else { return nil }
        reader = .done
        if case .failure(let error) = result { failure = error }
        return flushing.map { .pusher($0, result) }
    }

    /// The sink threw: the body stops.
    mutating func writeFailed(_ error: any Error) -> Stop {
        guard case let .pushing(_, _, receiving, flushing) = reader else { return (false, []) }
        stop(with: error)
        return (end == nil, [receiving, flushing].compactMap { $0 }.map { .pusher($0, .failure(error)) })
    }

    /// The reader stopped before the end: what waits is dropped.
    mutating func giveUp(_ error: any Error) -> Stop {
        var resumes: [Resume] = []
        switch reader {
        case .done: return (false, [])
        case let .pushing(_, _, receiving, flushing):
            resumes = [receiving, flushing].compactMap { $0 }.map { .pusher($0, .failure(error)) }
        case .pulling(let waiting?): resumes = [.puller(waiting, .failure(error))]
        case .none, .pulling(nil): break
        }
        stop(with: error)
        return (end == nil, resumes)
    }

    // MARK: Helpers

    private var endResult: Result<Void, any Error> {
        end ?? .success(())
    }

    private mutating func stop(with error: any Error) {
        reader = .done
        failure = failure ?? error
        pending = []
        pendingBytes = 0
    }

    /// Resumes a paused transfer once half of what may wait is left.
    private mutating func takeResume() -> Bool {
        guard paused, pendingBytes <= highWater / 2 else { return false }
        paused = false
        return true
    }
}
