import Foundation
import Files

/// The prompt's history file: one entry a line, oldest first, mode 0600.
///
/// Each addition rereads, appends, keeps the last ``limit`` and replaces the file (``AtomicFile``)
/// under a `flock`, so two sessions interleave their lines and never corrupt it. A symlink is written
/// through; anything else not a regular file (`/dev/null`, a FIFO) is no history.
public struct History: Sendable {
    public static let limit = 1_000
    /// The most read from the file's end: ``limit`` lines of 256 bytes each.
    public static let tailBytes: UInt64 = 256 << 10

    public let file: URL
    /// Never written: a line holding it is kept out of the file.
    public let secret: String?

    public init(file: URL, secret: String?) {
        self.file = file
        self.secret = secret
    }

    /// Why the file cannot be history (not a regular file, or not trusted); `nil` when usable.
    /// A folder of the user's own open to others is tightened.
    public var problem: AtomicFile.Problem? {
        AtomicFile.folderProblem(file.deletingLastPathComponent(), tighten: true) ?? AtomicFile(file).problem(replacing: false)
    }

    /// The longest line kept: a longer one is a paste gone wrong, not a line to recall.
    public static let longestLine = 500

    /// True when `line` belongs in history after `previous`: not empty, not a repeat, not starting with
    /// a space (as in shells), not holding the key, no longer than ``longestLine``.
    public static func keeps(_ line: String, after previous: String?, secret: String?) -> Bool {
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty, line != previous,
              !line.hasPrefix(" "), !line.contains("\n"), line.count <= longestLine else { return false }
        if let secret, !secret.isEmpty, line.contains(secret) { return false }
        return true
    }

    /// The entries, oldest first, from the file's last ``tailBytes``; none when it is missing or unreadable.
    /// CR LF ends a line; a line with another control character (an escape sequence would replay on
    /// screen) is skipped.
    public func load() -> [String] {
        guard let (data, isCut) = (try? AtomicFile(file).tail(Int(Self.tailBytes))) ?? nil else { return [] }
        // As bytes: quicker than Characters, where "\r\n" is one.
        var lines = data.split(separator: UInt8(ascii: "\n"))
        // Started mid-file: the first line is likely cut.
        if isCut, !lines.isEmpty { lines.removeFirst() }
        return lines.suffix(Self.limit)
            .map { String(decoding: $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0, as: UTF8.self) }
            .filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
    }

    /// Adds `line` if ``keeps(_:after:secret:)`` allows. Failures are silent: a read-only home must not stop the prompt.
    public func add(_ line: String) {
        let target = AtomicFile(file)
        guard (try? AtomicFile.prepareFolder(file.deletingLastPathComponent())) != nil else { return }
        try? target.withLock { () throws(AtomicFile.Problem) in
            var entries = load()
            guard Self.keeps(line, after: entries.last, secret: secret) else { return }
            entries.append(line)
            try target.write(Data((entries.suffix(Self.limit).joined(separator: "\n") + "\n").utf8), permissions: 0o600)
        }
    }
}
