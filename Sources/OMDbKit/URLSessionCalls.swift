import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a URLSession's tasks are created, resumed and cancelled, one call after another, in the
/// order asked: never on the session's own queue (on Linux the delegate calls run there), since
/// those calls wait for that queue, and never on the cooperative pool, whose few threads would
/// wait with them.
///
/// It also knows how long the call running now has waited. On Linux every call into URLSession
/// waits for the one queue that reads every socket, and a body that floods in faster than libcurl
/// reads it (a server on this machine sending without end) holds that queue for as long as it
/// flows. A call that has waited for seconds means exactly that: see ``isStuck(after:)``.
final class SessionCalls: Sendable {
    let queue = DispatchQueue(label: "movies.urlsession-calls")
    private let busySince = Mutex<ContinuousClock.Instant?>(nil)

    func async(_ work: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            busySince.withLock { $0 = .now }
            work()
            busySince.withLock { $0 = nil }
        }
    }

    /// True when the call running now started more than `limit` ago.
    func isStuck(after limit: Duration) -> Bool {
        busySince.withLock { since in since.map { ContinuousClock.now - $0 > limit } ?? false }
    }
}

/// The one answer a caller of ``URLSessionTransport/send(_:timeout:)`` gets: the headers, the
/// transport's error, or, the moment the caller gives up, `CancellationError`; whichever comes first.
final class HeadAnswer: Sendable {
    private enum State {
        case unset
        case waiting(CheckedContinuation<StreamedResponse, any Error>)
        case answered
    }

    private let state = Mutex(State.unset)

    /// Parks the caller; false (and the caller is answered) when it gave up before this.
    func wait(with continuation: CheckedContinuation<StreamedResponse, any Error>) -> Bool {
        let parked = state.withLock { state -> Bool in
            guard case .unset = state else { return false }
            state = .waiting(continuation)
            return true
        }
        if !parked { continuation.resume(throwing: CancellationError()) }
        return parked
    }

    /// Answers the caller unless it was answered already; true when this was the answer.
    @discardableResult
    func resume(returning response: StreamedResponse) -> Bool {
        guard let continuation = take() else { return false }
        continuation.resume(returning: response)
        return true
    }

    @discardableResult
    func resume(throwing error: any Error) -> Bool {
        guard let continuation = take() else { return false }
        continuation.resume(throwing: error)
        return true
    }

    /// Outside the lock, the resume: it may run the caller's task inline.
    private func take() -> CheckedContinuation<StreamedResponse, any Error>? {
        state.withLock { state in
            defer { state = .answered }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
    }
}

/// One request's start and its caller's cancellation, in either order: a task is resumed only
/// if the caller has not given up, and cancelled once it has (whichever comes second acts).
///
/// Never under a lock: resuming and cancelling wait for the session's queue, where (on Linux) the
/// delegate calls resume callers' continuations, which waits for the task lock that a task being
/// cancelled holds while its handler runs: a handler waiting for a resume made under the lock closed
/// that circle. Cancelling goes through the start queue instead, so it comes after the resume.
final class TaskStart: Sendable {
    private struct State {
        var task: URLSessionDataTask?
        var cancelled = false
    }

    private let state = Mutex(State())
    /// Where ``resume(_:)`` is called, one call after another.
    private let calls: SessionCalls

    init(on calls: SessionCalls) {
        self.calls = calls
    }

    /// Resumes `task` unless the caller was cancelled first; false when it was. Called on `calls`.
    func resume(_ task: URLSessionDataTask) -> Bool {
        let go = state.withLock { state in
            guard !state.cancelled else { return false }
            state.task = task
            return true
        }
        if go { task.resume() }
        return go
    }

    /// True once the caller gave up.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        if let task { calls.async { task.cancel() } }
    }
}
