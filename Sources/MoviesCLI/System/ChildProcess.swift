#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Foundation

/// A program the tool starts, with posix_spawn: the one way every child is started.
///
/// A child would inherit Dispatch's blocked signal mask and the tool's ignored SIGPIPE and SIGTSTP (a
/// browser `kill` cannot end), so each starts with an empty mask and every signal at its default. Each
/// is reaped by a thread of its own (`waitpid` blocks), so none is left a zombie.
final class ChildProcess: Sendable {
    enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    let pid: pid_t
    /// How it ended, once its reaper knows: for one waiter.
    private let ending: AsyncStream<Termination>

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
        let (ending, ended) = AsyncStream.makeStream(of: Termination.self)
        self.ending = ending
        let child = pid
        let reaper = Thread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0, errno == EINTR {}
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
            ended.yield(status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F))
            ended.finish()
        }
        reaper.name = "movies.reaper"
        reaper.start()
    }

    /// How the child ended; `nil` if it still runs after `grace` or the task is cancelled first (it goes on).
    /// Asked once.
    func termination(within grace: Duration) async -> Termination? {
        await withTaskGroup(of: Termination?.self) { group in
            group.addTask {
                var ending = self.ending.makeAsyncIterator()
                return await ending.next()
            }
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
