#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Files
import OMDbKit
import LineEditing
import Synchronization

/// What the process has only one of: its stdout, its terminal, its signals, and the way out. `main`
/// builds one and passes it to ``Movies/run(arguments:environment:runtime:)``, so there are no singletons.
public final class Runtime: Sendable {
    /// stdout, the one writer of it: results, live pages and the line editor's escape codes alike.
    let output: StandardOutput
    let terminal: Terminal
    let interrupts: Interrupts
    /// What the run must write before the process ends: the day's count, the cache's answers.
    private let pending: PendingSlot

    /// The process's own stdout and stdin. Sets how memory is allocated, so make it first, before any thread
    /// starts; ends the process at once, with one line, under a stack limit Swift's start-up would overflow.
    public init() {
        if let stack = ProcessLimit.stack.value, stack < RunLimits.stackKilobytes {
            // A literal: interpolation needs more stack than there may be.
            fputs("error: too little stack for movies: raise ulimit -s to 128 or more (ulimit -s 128).\n", stderr)
            _exit(ExitStatus.failure.code)
        }
        // Two malloc arenas (one under a memory limit): glibc gives each allocating thread an arena of its own,
        // where freed memory stays, and each reserves 64 MB that ``RunLimits`` cannot count on. `mallopt` and
        // `M_ARENA_MAX` (-8) are not in Swift's Glibc module: looked up here.
        #if canImport(Glibc)
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            _ = mallopt(-8, ProcessLimit.addressSpace.value == nil && ProcessLimit.data.value == nil ? 2 : 1)
        }
        #endif
        _ = RunLimits.inheritedFiles
        let output = StandardOutput(fileDescriptor: STDOUT_FILENO)
        let terminal = Terminal(write: { _ = output.writeAll($0) })
        let pending = PendingSlot()
        self.output = output
        self.terminal = terminal
        self.pending = pending
        interrupts = Interrupts(terminate: { status in Runtime.end(status, finishing: pending.value.withLock { $0 }, restoring: terminal) }, output: output)
    }

    /// Ends the process with `status`: the only way out (``Interrupts/stop(status:message:)`` comes here too).
    public func exit(_ status: ExitStatus) -> Never {
        Self.end(status, finishing: pending.value.withLock { $0 }, restoring: terminal)
    }

    /// The run's daily count and cache: whatever ends the process writes them first.
    func finishing(_ budget: RequestBudget) {
        pending.value.withLock { $0 = budget }
    }

    /// Writes what is on its way to the disk (the day's count, requests in flight counted as sent,
    /// the cache's answers), gives the terminal back, and ends. `_exit`, not `exit`: exit handlers
    /// must not race libcurl's thread and the signal thread.
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
