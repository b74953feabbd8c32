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
    /// The day's count of the run, written before the process ends.
    private let ledger: LedgerSlot

    /// The process's own stdout and stdin. Sets how memory is allocated, so make it first, before any thread
    /// starts; ends the process at once, with one line, under a stack limit Swift's start-up would overflow.
    public init() {
        if let stack = ProcessLimit.stack.value, stack < RunLimits.stackKilobytes {
            // A literal: interpolation needs more stack than there may be.
            fputs("error: too little stack for movies: raise ulimit -s to 128 or more (ulimit -s 128).\n", stderr)
            _exit(ExitStatus.failure.code)
        }
        Self.limitMallocArenas()
        let output = StandardOutput(fileDescriptor: STDOUT_FILENO)
        let terminal = Terminal(write: { _ = output.writeAll($0) })
        let ledger = LedgerSlot()
        self.output = output
        self.terminal = terminal
        self.ledger = ledger
        interrupts = Interrupts(terminate: { status in Runtime.end(status, finishing: ledger.value.withLock { $0 }, restoring: terminal) }, output: output)
    }

    /// Two malloc arenas (one under a memory limit): glibc gives each allocating thread an arena of its
    /// own, where freed memory stays, and each reserves 64 MB that ``RunLimits`` cannot count on.
    /// `mallopt` and `M_ARENA_MAX` (-8) are not in Swift's Glibc module: looked up here.
    private static func limitMallocArenas() {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(-8, ProcessLimit.addressSpace.value == nil && ProcessLimit.data.value == nil ? 2 : 1)
        #endif
    }

    /// Ends the process with `status`: the only way out (``Interrupts/stop(status:message:)`` comes here too).
    public func exit(_ status: ExitStatus) -> Never {
        Self.end(status, finishing: ledger.value.withLock { $0 }, restoring: terminal)
    }

    /// The run's daily count: whatever ends the process writes it first.
    func finishing(_ ledger: QuotaLedger?) {
        self.ledger.value.withLock { $0 = ledger }
    }

    /// Writes the day's count, gives the terminal back, and ends. `_exit`, not `exit`: exit handlers must
    /// not race libcurl's thread and the signal thread.
    private static func end(_ status: ExitStatus, finishing ledger: QuotaLedger?, restoring terminal: Terminal) -> Never {
        ledger?.finish()
        terminal.restore()
        fflush(stderr)
        _exit(status.code)
    }
}

/// Where the run's daily count is, once there is one, for whatever ends the process.
private final class LedgerSlot: Sendable {
    let value = Mutex<QuotaLedger?>(nil)
}
