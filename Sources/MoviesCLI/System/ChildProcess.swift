#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Foundation
import Synchronization

/// A program the tool starts, with posix_spawn: the one way every child is started.
///
/// A child would inherit Dispatch's blocked signal mask and the tool's ignored SIGPIPE and SIGTSTP (a
/// browser `kill` cannot end), so each starts with an empty mask and every signal at its default. Each
/// is reaped by a thread of its own (`waitpid` blocks), so none is left a zombie.
final class ChildProcess: Sendable {
    /// How a child ended.
    enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    let pid: pid_t
    private let ending = Ending()

    /// Starts `executable arguments` with this process's environment, stdin, stdout and stderr on `/dev/null`.
    /// - Parameter detached: in a session of its own, out of reach of the terminal's Ctrl-C, Ctrl-Z and hang-up.
    /// - Throws: the `errno` of the failed spawn.
    init(_ executable: URL, arguments: [String], detached: Bool) throws(POSIXError) {
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t?
        var actions: posix_spawn_file_actions_t?
        #else
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if detached {
            #if os(Linux)
            // glibc's POSIX_SPAWN_SETSID (2.26+), declared only under _GNU_SOURCE, so not imported.
            flags |= 0x80
            #else
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
            #endif
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .ENOENT) }
        self.pid = pid
        let ending = self.ending, child = pid
        let reaper = Thread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
            ending.finish(status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F))
        }
        reaper.name = "movies.reaper"
        reaper.start()
    }

    /// How the child ended; `nil` if it still runs after `grace` or the task is cancelled first (it goes on).
    func termination(within grace: Duration) async -> Termination? {
        await withTaskGroup(of: Termination?.self) { group in
            group.addTask { await self.ending.wait() }
            group.addTask {
                try? await Task.sleep(for: grace)  // timer: the deadline
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

/// A child's end, told to any number of waiters; a waiter whose task is cancelled hears `nil`.
private final class Ending: Sendable {
    private struct State {
        var termination: ChildProcess.Termination?
        var waiters: [Int: CheckedContinuation<ChildProcess.Termination?, Never>] = [:]
        var next = 0
    }

    private let state = Mutex(State())

    func finish(_ termination: ChildProcess.Termination) {
        let waiters = state.withLock { state in
            state.termination = termination
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: termination) }
    }

    func wait() async -> ChildProcess.Termination? {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now: ChildProcess.Termination?? = state.withLock { state in
                    if let termination = state.termination { return .some(termination) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }
}
