#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Foundation

/// The prompt's history file: `$XDG_STATE_HOME/movies/history` (by default
/// `~/.local/state/movies/history`), one line per entry, oldest first, mode 0600.
///
/// Every addition rereads the file, appends, keeps the last ``limit`` entries and replaces the
/// file (a temporary file renamed over it), all under an exclusive `flock` on a lock file
/// beside it: two sessions at once interleave their lines and never corrupt the file.
/// `MOVIES_HISTORY=off` turns it off; any other value is the file to use.
struct History: Sendable {
    static let limit = 1_000
    /// The most read from the file's end: ``limit`` lines of 256 bytes each.
    static let tailBytes: UInt64 = 256 << 10

    let file: URL
    /// Never written: a line holding it is kept out of the file.
    let secret: String?

    /// Where history goes for `environment`, or nil when turned off (or no home is known).
    static func file(environment: [String: String]) -> URL? {
        switch environment["MOVIES_HISTORY"] {
        case "off", "0", "no", "false": return nil
        case let path? where !path.isEmpty: return URL(fileURLWithPath: path)
        default: break
        }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("movies/history")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/movies/history")
    }

    /// True when `line` belongs in history after `previous`: not empty, not a repeat, not
    /// starting with a space (a way to keep a line out, as in shells), not holding the key.
    static func keeps(_ line: String, after previous: String?, secret: String?) -> Bool {
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty, line != previous,
              !line.hasPrefix(" "), !line.contains("\n") else { return false }
        if let secret, !secret.isEmpty, line.contains(secret) { return false }
        return true
    }

    /// The entries, oldest first; none when the file is missing or unreadable.
    ///
    /// The file may have been edited by hand or damaged: Windows line ends still end a line, and a
    /// line holding any other control character (an escape sequence would be replayed on the
    /// screen when recalled) is skipped, the way the line editor never takes them from the keyboard.
    ///
    /// Only the file's last ``tailBytes`` are read: a history grown huge elsewhere (another
    /// tool, a script appending to it) took 20 s to read before the prompt came, and again at
    /// every line entered.
    func load() -> [String] {
        guard let handle = FileHandle(forReadingAtPath: file.path) else { return [] }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return [] }
        let start = size > Self.tailBytes ? size - Self.tailBytes : 0
        guard (try? handle.seek(toOffset: start)) != nil, let data = try? handle.readToEnd() else { return [] }
        // Split as bytes: far quicker than as Characters, where "\r\n" is also one Character.
        var lines = data.split(separator: UInt8(ascii: "\n"))
        // Started mid-file: the first line is likely cut.
        if start > 0, !lines.isEmpty { lines.removeFirst() }
        return lines.suffix(Self.limit)
            .map { String(decoding: $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0, as: UTF8.self) }
            .filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
    }

    /// Adds `line` if ``keeps(_:after:secret:)`` allows it. Failures are silent: history is a
    /// convenience, and a read-only home must not stop the prompt.
    func add(_ line: String) {
        let folder = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let lock = open(folder.appendingPathComponent(".\(file.lastPathComponent).lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { return }
        defer { flock(lock, LOCK_UN) }
        var entries = load()
        guard Self.keeps(line, after: entries.last, secret: secret) else { return }
        entries.append(line)
        let text = entries.suffix(Self.limit).joined(separator: "\n") + "\n"
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        // Created 0600 from the start: never readable by others, not even for a moment.
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { unlink(temporary.path); return }
        if rename(temporary.path, file.path) != 0 { unlink(temporary.path) }
    }
}
