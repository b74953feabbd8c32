#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Files
import Foundation
import Synchronization

/// The one place that owns signals and the end of the process.
///
/// - SIGINT (Ctrl-C) cancels the command that is running, if any; otherwise calls the idle
///   handler. It never kills the process, so a poster write is never cut in half, unless what
///   it asked cannot be done within ``deadline`` seconds (no thread could start to do it).
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
    /// ``start()`` has run.
    private let started = Mutex(false)
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

    /// Ignores SIGPIPE, and takes SIGINT, SIGTERM and SIGHUP on a thread of its own, started here,
    /// which needs no other: their handler only writes the signal's number into a pipe, which that
    /// thread reads. (Dispatch's signal sources needed a thread of Dispatch's, which Dispatch
    /// retries for ever to start when none can (`ulimit -v`, `-u`): SIGTERM then did nothing. And
    /// no signal can be left at its default action to be waited for: Dispatch's main thread waits
    /// in `sigsuspend` with every signal unblocked, and would take it.)
    ///
    /// Each signal also sets a deadline (``deadline``): what it does (cancel, finish a line, wait
    /// for poster writes) may itself need a thread when none can start, so the process ends then
    /// anyway, with the signal's status; a prompt that carries on lifts it (``carryOn()``). A
    /// signal while another is unanswered, or while the process stops, ends it at once.
    /// Call once, first thing; later calls do nothing. Returns the `errno` of why the pipe or the
    /// thread could not be made.
    func start() -> Int32? {
        started.withLock { started in
            guard !started else { return nil }
            started = true
            signal(SIGPIPE, SIG_IGN)
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { return errno }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
            // Made here, before a handler can read them (a global is made when first used).
            handlerState.pipe.store(ends[1], ordering: .relaxed)
            let output = ends[0]
            if let failure = startThread(name: "movies.signals", stackSize: 512 * 1_024, { [self] in takeSignals(from: output) }) {
                return failure
            }
            for number in [SIGINT, SIGTERM, SIGHUP] { signal(number, handleSignal) }
            signal(SIGALRM, handleDeadline)
            return nil
        }
    }

    /// Seconds a signal's work may take before the process ends anyway: past the 2 s a stop
    /// waits for a line and the 5 s it waits for poster writes.
    static let deadline: UInt32 = 10

    /// The signal thread: Ctrl-C interrupts, SIGTERM and SIGHUP stop.
    private func takeSignals(from pipe: Int32) {
        while true {
            var byte: UInt8 = 0
            let count = read(pipe, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return }
            let number = Int32(byte)
            guard number == SIGINT else { stop(status: ExitStatus(signal: number) ?? .terminated) }
            interrupt()
            handlerState.unanswered.subtract(1, ordering: .relaxed)
        }
    }

    /// The process carries on after a Ctrl-C (the prompt is back): the deadline it set is lifted,
    /// unless a stop has begun.
    func carryOn() {
        guard started.withLock({ $0 }), !handlerState.stopping.load(ordering: .relaxed) else { return }
        alarm(0)
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
        // What follows may wait (a line being written, poster writes, the day's count), or need a
        // thread that cannot start: a signal that comes meanwhile ends the process at once, and
        // the deadline ends it anyway.
        if started.withLock({ $0 }) {
            handlerState.stopping.store(true, ordering: .relaxed)
            handlerState.status.store(status.code, ordering: .relaxed)
            alarm(Self.deadline)
        }
        cancel?()
        output?.finish()
        if let message { fputs(message, stderr) }
        terminate(status)
    }

    /// Blocks the calling thread until another ends the process (a ``stop(status:)`` under way).
    func waitIfStopping() {
        if isStopping { Self.waitForExit() }
    }

    /// Sleeps until a signal, again and again: the thread ending the process takes it down.
    private static func waitForExit() -> Never {
        while true { pause() }
    }
}

// MARK: - The signal handlers

/// What the handlers read and write: atomics only, made by ``Interrupts/start()`` before they are installed.
private struct HandlerState: ~Copyable, Sendable {
    /// Where the number of each signal taken is written, for the signal thread.
    let pipe = Atomic<Int32>(-1)
    /// Signals written and not yet answered by the signal thread.
    let unanswered = Atomic<Int>(0)
    /// A stop has begun.
    let stopping = Atomic<Bool>(false)
    /// The status the process ends with when the deadline passes.
    let status = Atomic<Int32>(ExitStatus.terminated.code)
}

private let handlerState = HandlerState()

/// SIGINT, SIGTERM and SIGHUP, on whichever thread the kernel picks: only what a handler may do
/// (atomics, `alarm`, `write`, `_exit`).
private func handleSignal(_ number: Int32) {
    if handlerState.stopping.load(ordering: .relaxed) || handlerState.unanswered.add(1, ordering: .relaxed).oldValue > 0 {
        _exit(128 + number)
    }
    handlerState.status.store(128 + number, ordering: .relaxed)
    alarm(Interrupts.deadline)
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(handlerState.pipe.load(ordering: .relaxed), &byte, 1)
    errno = saved
}

/// The deadline a signal set has passed: the process could not do what the signal asked in time.
private func handleDeadline(_ number: Int32) {
    let message: StaticString = "\nerror: what was under way could not be stopped within 10 s, so movies ended anyway.\n"
    _ = write(STDERR_FILENO, message.utf8Start, message.utf8CodeUnitCount)
    _exit(handlerState.status.load(ordering: .relaxed))
}
