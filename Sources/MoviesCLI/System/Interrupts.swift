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
/// - SIGINT (Ctrl-C) cancels the running command, else calls the idle handler; it never kills the
///   process (a poster write is never cut in half) unless that cannot be done within ``deadline``.
/// - SIGTERM, SIGHUP and a closed stdout (EPIPE) call ``stop(status:message:)``: cancel, let the line
///   being written finish, exit with 128 + the signal (141 for a closed stdout).
/// - Any other failed write to stdout stops the same way with status 1 and one line on stderr.
/// - SIGPIPE is ignored, so a write to a closed pipe fails with EPIPE instead.
final class Interrupts: Sendable {
    private struct State {
        /// Cancels the command now running.
        var cancel: (@Sendable () -> Void)?
        var whenIdle: (@Sendable () -> Void)?
        /// Called first on every Ctrl-C, busy or idle.
        var always: (@Sendable () -> Void)?
        /// ``stop(status:)`` has begun: the process is exiting.
        var stopping = false
    }

    private let state = Mutex(State())
    private let started = Mutex(false)
    private let terminate: @Sendable (ExitStatus) -> Never
    private let output: StandardOutput?

    /// - Parameters:
    ///   - terminate: how ``stop(status:message:)`` ends the process (``Runtime/exit(_:)``'s steps).
    ///   - output: the stdout whose line in progress a stop lets finish; `nil` for none (tests).
    init(terminate: @escaping @Sendable (ExitStatus) -> Never = { _exit($0.code) }, output: StandardOutput? = nil) {
        self.terminate = terminate
        self.output = output
    }

    /// Ignores SIGPIPE and takes SIGINT, SIGTERM and SIGHUP on a thread of its own: the handler only
    /// writes the signal's number into a pipe that thread reads. Not Dispatch's signal sources: they need
    /// a Dispatch thread, which Dispatch retries for ever to start when none can (`ulimit -v`, `-u`).
    ///
    /// Each signal sets a ``deadline`` (its work may need a thread that cannot start), which ``carryOn()``
    /// lifts; a signal while another is unanswered, or while stopping, ends the process at once.
    /// Call once, first thing. Returns the `errno` of why the pipe or the thread could not be made.
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

    /// Seconds a signal's work may take before the process ends anyway (past a stop's own waits).
    static let deadline: UInt32 = 10

    /// The signal thread: Ctrl-C interrupts, SIGTERM and SIGHUP stop.
    private func takeSignals(from pipe: Int32) {
        while true {
            var byte: UInt8 = 0
            let count = read(pipe, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return }
            let number = Int32(byte)
            // The pipe carries only the signals start() takes: SIGINT, SIGTERM and SIGHUP.
            guard number == SIGINT else { stop(status: number == SIGHUP ? .hangUp : .terminated) }
            interrupt()
            handlerState.unanswered.subtract(1, ordering: .relaxed)
        }
    }

    /// The prompt is back after a Ctrl-C: its deadline is lifted, unless a stop has begun.
    func carryOn() {
        guard started.withLock({ $0 }), !handlerState.stopping.load(ordering: .relaxed) else { return }
        alarm(0)
    }

    /// What Ctrl-C does when no command is running.
    func whenIdle(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.whenIdle = handler }
    }

    /// What every Ctrl-C does first (the prompt drops the lines typed ahead).
    func onEveryInterrupt(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.always = handler }
    }

    /// Runs `work` as the command a Ctrl-C cancels (at once, when a stop has begun); idle again after it.
    /// Its task is made under the lock, so no Ctrl-C falls between its start and its registration.
    /// - Returns: what `work` returned, and whether it was cancelled.
    @MainActor
    func run<Value: Sendable>(_ work: @escaping @MainActor () async -> Value) async -> (value: Value, cancelled: Bool) {
        let task = state.withLock { state in
            let task = Task { @MainActor in await work() }
            state.cancel = { task.cancel() }
            if state.stopping { task.cancel() }
            return task
        }
        let value = await task.value
        state.withLock { $0.cancel = nil }
        return (value, task.isCancelled)
    }

    /// Ctrl-C: cancels the command, or, idle, says so.
    func interrupt() {
        state.withLock { $0.always }?()
        state.withLock { $0.cancel ?? $0.whenIdle }?()
    }

    /// A write to stdout failed otherwise (`code` is its errno): say so in one line, stop with status 1.
    func outputFailed(_ code: Int32) -> Never {
        stop(status: .failure,
             message: "error: the results could not be written to standard output (\(StandardOutput.reason(code))): "
                 + (code == EBADF ? "run with standard output open, to a file or a pipe." : code == ENOSPC
                    ? "free some space, or write them elsewhere." : "write them elsewhere.") + "\n")
    }

    /// Cancels the running command, lets the line being written finish (and no other start), writes
    /// `message` to stderr, and ends the process with `status`. A later call waits for the first.
    func stop(status: ExitStatus, message: String? = nil) -> Never {
        let (cancel, first) = state.withLock { state in
            defer { state.stopping = true }
            return (state.cancel, !state.stopping)
        }
        guard first else { Self.waitForExit() }
        // What follows may wait, or need a thread that cannot start: a signal meanwhile, or the deadline, ends it.
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
        if state.withLock({ $0.stopping }) { Self.waitForExit() }
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
