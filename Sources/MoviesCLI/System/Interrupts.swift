#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Dispatch
import Foundation
import Synchronization

/// The one place that owns signals and the end of the process.
///
/// - SIGINT (Ctrl-C) cancels the command that is running, if any; otherwise calls the idle
///   handler. It never kills the process, so a poster write is never cut in half.
/// - SIGTERM and SIGHUP, and stdout closed under us (EPIPE: `movies search … | head`), call
///   ``stop(status:message:)``: cancel the command, let the line being written and poster writes
///   in progress finish, exit with 128 + the signal (141 for a closed stdout, as if SIGPIPE had
///   ended us, but cleanly).
/// - Any other failed write to stdout (a full disk, a closed descriptor, EIO) stops the same way
///   with status 1 and one line on stderr: output lost must never look like success.
/// - SIGPIPE is ignored, so a write to a closed pipe fails with EPIPE instead of killing us.
final class Interrupts: Sendable {
    private struct State {
        /// Cancels the command now running, once its task is registered.
        var cancel: (@Sendable () -> Void)?
        /// A command is starting or running (set before its task exists).
        var busy = false
        /// Ctrl-C came while busy but before the task was registered: cancel it on registration.
        var cancelOnRegistration = false
        var whenIdle: (@Sendable () -> Void)?
        /// Called first on every Ctrl-C, busy or idle.
        var always: (@Sendable () -> Void)?
        /// ``stop(status:)`` has begun: the process is exiting.
        var stopping = false
    }

    private let state: Mutex<State>
    private let sources = Mutex<[any DispatchSourceSignal]>([])
    private let terminate: @Sendable (ExitStatus) -> Never
    private let output: StandardOutput?

    /// - Parameters:
    ///   - whenIdle: what Ctrl-C does when no command is running.
    ///   - terminate: how ``stop(status:message:)`` ends the process (``Runtime/exit(_:)``'s steps).
    ///   - output: the stdout whose line in progress a stop lets finish; `nil` for none (tests).
    init(whenIdle: (@Sendable () -> Void)? = nil,
         terminate: @escaping @Sendable (ExitStatus) -> Never = { _exit($0.code) }, output: StandardOutput? = nil) {
        self.state = Mutex(State(whenIdle: whenIdle))
        self.terminate = terminate
        self.output = output
    }

    /// Ignores SIGPIPE and starts catching SIGINT, SIGTERM and SIGHUP. Call once, first thing;
    /// later calls do nothing. The handlers must be `@Sendable`: without it the runtime's
    /// isolation check kills the process on the first signal.
    func start() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            signal(SIGPIPE, SIG_IGN)
            for number in [SIGINT, SIGTERM, SIGHUP] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                if number == SIGINT {
                    source.setEventHandler { @Sendable [self] in self.interrupt() }
                } else {
                    source.setEventHandler { @Sendable [self] in self.stop(status: ExitStatus(signal: number) ?? .terminated) }
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// What Ctrl-C does when no command is running.
    func whenIdle(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.whenIdle = handler }
    }

    /// What every Ctrl-C does first, before the command is cancelled or the idle handler runs:
    /// the prompt drops the lines typed ahead.
    func onEveryInterrupt(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.always = handler }
    }

    /// A command is about to start: call before creating its task, so that a Ctrl-C landing
    /// before ``running(_:)`` cancels the command instead of being taken for an idle one.
    func begin() {
        state.withLock { state in
            state.busy = true
            state.cancelOnRegistration = false
        }
    }

    /// The command's task, registered after ``begin()``. Cancelled at once when Ctrl-C
    /// (or ``stop(status:)``) came in between.
    func running<Value: Sendable>(_ task: Task<Value, Never>) {
        let cancelNow = state.withLock { state in
            state.cancel = { task.cancel() }
            state.busy = true
            defer { state.cancelOnRegistration = false }
            return state.cancelOnRegistration || state.stopping
        }
        if cancelNow { task.cancel() }
    }

    /// The command is over: the prompt is idle again.
    func finished() {
        state.withLock { state in
            state.cancel = nil
            state.busy = false
            state.cancelOnRegistration = false
        }
    }

    /// Ctrl-C.
    func interrupt() {
        enum Action { case cancel(@Sendable () -> Void), later, idle((@Sendable () -> Void)?) }
        state.withLock { $0.always }?()
        let action: Action = state.withLock { state in
            if let cancel = state.cancel { return .cancel(cancel) }
            if state.busy {
                state.cancelOnRegistration = true
                return .later
            }
            return .idle(state.whenIdle)
        }
        switch action {
        case .cancel(let cancel): cancel()
        case .later: break
        case .idle(let handler): handler?()
        }
    }

    /// stdout's reader went away (a write failed with EPIPE): stop quietly with status 141.
    func outputClosed() -> Never {
        stop(status: .outputClosed)
    }

    /// A write to stdout failed otherwise (`code` is its errno): say so in one line, stop with status 1.
    func outputFailed(_ code: Int32) -> Never {
        stop(status: .failure,
             message: "error: the results could not be written to standard output (\(StandardOutput.reason(code))): "
                 + (code == EBADF ? "run with standard output open, to a file or a pipe." : code == ENOSPC
                    ? "free some space, or write them elsewhere." : "write them elsewhere.") + "\n")
    }

    /// True once ``stop(status:)`` has begun.
    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Cancels the running command, lets the line being written to stdout finish (and no other
    /// start), writes `message` to stderr, and ends the process with `status` through `terminate`.
    /// Only the first call does this; a later one, from another thread, waits for the first to
    /// end the process.
    func stop(status: ExitStatus, message: String? = nil) -> Never {
        let (cancel, first) = state.withLock { state in
            defer { state.stopping = true }
            return (state.cancel, !state.stopping)
        }
        guard first else { Self.waitForExit() }
        cancel?()
        output?.finish()
        if let message { fputs(message, stderr) }
        terminate(status)
    }

    /// Blocks the calling thread until another ends the process (a ``stop(status:)`` under way).
    func waitIfStopping() {
        if isStopping { Self.waitForExit() }
    }

    private static func waitForExit() -> Never {
        while true { sleep(60) }
    }
}
