import Foundation

/// How a run of `movies` ended, decided where it happens and turned into the process's status by ``code``.
public enum ExitStatus: Sendable, Equatable {
    case success
    /// Something failed at run time: key rejected, quota spent, server unreachable.
    case failure
    /// The tool was called wrongly.
    case usage
    /// Stopped by Ctrl-C.
    case interrupted
    /// stdout was closed by its reader (`movies search … | head`).
    case outputClosed
    /// Stopped by SIGHUP.
    case hangUp
    /// Stopped by SIGTERM.
    case terminated

    /// The process's exit status: 128 + the signal for what a signal ended (SIGPIPE's for a closed stdout).
    public var code: Int32 {
        switch self {
        case .success: 0
        case .failure: 1
        case .usage: 2
        case .hangUp: 129
        case .interrupted: 130
        case .outputClosed: 141
        case .terminated: 143
        }
    }

    /// Both outcomes of a run that did two things: a failure stands, whatever succeeded after it.
    func combined(with other: ExitStatus) -> ExitStatus {
        self == .success ? other : self
    }
}
