#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
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
    /// The day's count of the run, written before the process ends.
    private let ledger: LedgerSlot

    /// The process's own stdout and stdin. Takes over nothing yet: signals are caught from
    /// ``Movies/run(arguments:environment:runtime:)`` on.
    public init() {
        let output = StandardOutput(fileDescriptor: STDOUT_FILENO)
        let terminal = Terminal(write: { _ = output.writeAll($0) })
        let ledger = LedgerSlot()
        self.output = output
        self.terminal = terminal
        self.ledger = ledger
        interrupts = Interrupts(terminate: { status in Runtime.end(status, finishing: ledger.value.withLock { $0 }, restoring: terminal) }, output: output)
    }

    /// Ends the process with `status`: the only way out, whether the run returned or a signal
    /// or a closed stdout stopped it (``Interrupts/stop(status:message:)`` comes here too).
    public func exit(_ status: ExitStatus) -> Never {
        Self.end(status, finishing: ledger.value.withLock { $0 }, restoring: terminal)
    }

    /// The run's daily count: whatever ends the process writes it first.
    func finishing(_ ledger: QuotaLedger?) {
        self.ledger.value.withLock { $0 = ledger }
    }

    /// Writes the day's count (requests still in flight count as sent), gives the terminal back as
    /// it was found, and ends. `_exit`, not `exit`: libcurl's thread and the signal
    /// queues are still running, and exit handlers must not race them.
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
