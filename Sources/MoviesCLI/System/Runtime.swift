#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Files
import OMDbKit
import LineEditing
import Synchronization

/// What the process has only one of: its stdout, its terminal, its signals, and the way out.
/// `main` builds one and passes it to ``Movies/run(arguments:environment:runtime:)``; everything
/// that writes to stdout, changes the terminal's modes or registers a command for Ctrl-C gets it
/// from there, so the front end holds no process-wide singletons.
public final class Runtime: Sendable {
    /// stdout, the one writer of it: results, live pages and the line editor's escape codes alike.
    let output: StandardOutput
    let terminal: Terminal
    let interrupts: Interrupts
    /// What the run must write before the process ends: the day's count, the cache's answers.
    private let pending: PendingSlot

    /// The process's own stdout and stdin. Takes over nothing yet (signals are caught from
    /// ``Movies/run(arguments:environment:runtime:)`` on), but sets how memory is allocated: make
    /// it first, before any thread starts. Ends the process at once, with one line, under a stack
    /// limit (`ulimit -s`) Swift's own start-up would overflow.
    public init() {
        if let stack = ProcessLimit.stack.value, stack < RunLimits.stackKilobytes {
            // A literal, as little stack as can be: a message made with interpolation overflowed 16 KB.
            fputs("error: too little stack for movies: raise ulimit -s to 128 or more (ulimit -s 128).\n", stderr)
            _exit(ExitStatus.failure.code)
        }
        Self.limitMallocArenas()
        let output = StandardOutput(fileDescriptor: STDOUT_FILENO)
        let terminal = Terminal(write: { _ = output.writeAll($0) })
        let pending = PendingSlot()
        self.output = output
        self.terminal = terminal
        self.pending = pending
        interrupts = Interrupts(terminate: { status in Runtime.end(status, finishing: pending.value.withLock { $0 }, restoring: terminal) }, output: output)
    }

    /// glibc gives each thread that allocates an arena of its own (up to 8 per core), and memory
    /// freed stays in its arena: with libcurl's thread, the session's, the pool's and the poster
    /// commits', a run over posters kept ~7 MB of freed pages spread over a dozen arenas. This tool
    /// waits on the network; it does not allocate much at once, and two arenas cost it no measurable
    /// time. Under a memory limit (`ulimit -v`, `-d`), one: a second reserves 64 MB of it, when the
    /// first thread allocates or later, which ``RunLimits`` could not count on.
    /// `mallopt` and `M_ARENA_MAX` (-8 in <malloc.h>) are not in Swift's Glibc module: looked up here.
    private static func limitMallocArenas() {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(-8, ProcessLimit.addressSpace.value == nil && ProcessLimit.data.value == nil ? 2 : 1)
        #endif
    }

    /// Ends the process with `status`: the only way out, whether the run returned or a signal
    /// or a closed stdout stopped it (``Interrupts/stop(status:message:)`` comes here too).
    public func exit(_ status: ExitStatus) -> Never {
        Self.end(status, finishing: pending.value.withLock { $0 }, restoring: terminal)
    }

    /// The run's daily count and cache: whatever ends the process writes them first.
    func finishing(_ budget: RequestBudget) {
        pending.value.withLock { $0 = budget }
    }

    /// Writes the day's count (requests still in flight count as sent), gives the terminal back as
    /// it was found, and ends. `_exit`, not `exit`: libcurl's thread and the signal
    /// queues are still running, and exit handlers must not race them.
    private static func end(_ status: ExitStatus, finishing budget: RequestBudget?, restoring terminal: Terminal) -> Never {
        budget?.finish()
        terminal.restore()
        fflush(stderr)
        _exit(status.code)
    }
}

/// What the run must write before it ends, once known, for whatever ends the process.
private final class PendingSlot: Sendable {
    let value = Mutex<RequestBudget?>(nil)
}
