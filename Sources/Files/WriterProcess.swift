import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process a temporary file belongs to: its pid and start time (so a reused pid is not taken for
/// it), written into the file's name so a run sharing the folder removes only dead runs' leftovers.
public struct WriterProcess: Sendable, Hashable {
    /// The process ID.
    public let pid: Int32
    /// When the process started (Linux: clock ticks after boot, from `/proc`); "0" where unknown.
    public let start: String

    /// The process `pid` that started at `start` (see ``current`` for this one).
    public init(pid: Int32, start: String) {
        self.pid = pid
        self.start = start.filter { $0.isLetter || $0.isNumber }
    }

    /// This process.
    public static let current = WriterProcess(pid: getpid(), start: startToken(of: getpid()) ?? "0")

    /// `pid-start`, as written into temporary names.
    package var tag: String { "\(pid)-\(start)" }

    /// Reads a ``tag`` at the start of `text` (`pid-start-…`); `nil` for names without one.
    package init?(tag text: Substring) {
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, let pid = Int32(parts[0]), pid > 0, !parts[1].isEmpty else { return nil }
        self.init(pid: pid, start: String(parts[1]))
    }

    /// True while the process that wrote the file runs: the pid exists and started when it says.
    package var isAlive: Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let now = Self.startToken(of: pid) else { return true }   // unknown here: trust the pid
        return now == start || start == "0"
    }

    /// The process's start time, read from `/proc/PID/stat` (field 22); `nil` where there is no `/proc`.
    package static func startToken(of pid: Int32) -> String? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces) start at field 3.
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : nil
        #else
        return nil
        #endif
    }
}
