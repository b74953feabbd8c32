import Foundation
import Files

/// The prompt's history file: one line per entry, oldest first, mode 0600 (where it is, the tool decides).
///
/// Every addition rereads the file, appends, keeps the last ``limit`` entries and replaces the
/// file (an ``AtomicFile``: a temporary file renamed over it), all under an exclusive `flock` on a
/// lock file beside it: two sessions at once interleave their lines and never corrupt the file.
/// A symlink there (history kept with one's dotfiles) is written through; anything else that is
/// not a regular file (`/dev/null`, a FIFO) is no history at all.
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

    /// Why the file cannot be history: not a regular file (a device, a FIFO, a folder), or not
    /// one ``FileTrust`` trusts (someone else's, in a folder others could plant files in, a link
    /// to nothing); `nil` when usable. A folder of the user's own open to others is tightened.
    public var problem: AtomicFile.Problem? {
        AtomicFile.folderProblem(file.deletingLastPathComponent(), tighten: true) ?? AtomicFile(file).problem(replacing: false)
    }

    /// The longest line kept: a longer one is a paste gone wrong (the tool refuses such a search),
    /// not a line to recall, and a 1 MB entry made every later start slow.
    public static let longestLine = 500

    /// True when `line` belongs in history after `previous`: not empty, not a repeat, not
    /// starting with a space (a way to keep a line out, as in shells), not holding the key,
    /// no longer than ``longestLine``.
    public static func keeps(_ line: String, after previous: String?, secret: String?) -> Bool {
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty, line != previous,
              !line.hasPrefix(" "), !line.contains("\n"), line.count <= longestLine else { return false }
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
    /// A FIFO is never opened for reading in a way that waits for a writer (it hung the start).
    public func load() -> [String] {
        guard let (data, isCut) = (try? AtomicFile(file).tail(Int(Self.tailBytes))) ?? nil else { return [] }
        // Split as bytes: far quicker than as Characters, where "\r\n" is also one Character.
        var lines = data.split(separator: UInt8(ascii: "\n"))
        // Started mid-file: the first line is likely cut.
        if isCut, !lines.isEmpty { lines.removeFirst() }
        return lines.suffix(Self.limit)
            .map { String(decoding: $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0, as: UTF8.self) }
            .filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
    }

    /// Adds `line` if ``keeps(_:after:secret:)`` allows it. Failures are silent: history is a
    /// convenience, and a read-only home must not stop the prompt.
    public func add(_ line: String) {
        let target = AtomicFile(file)
        do throws(AtomicFile.Problem) {
            try AtomicFile.prepareFolder(file.deletingLastPathComponent())
            try target.withLock { () throws(AtomicFile.Problem) in
                var entries = load()
                guard Self.keeps(line, after: entries.last, secret: secret) else { return }
                entries.append(line)
                // Created 0600 from the start: never readable by others, not even for a moment.
                try target.write(Data((entries.suffix(Self.limit).joined(separator: "\n") + "\n").utf8), permissions: 0o600)
            }
        } catch {
            return
        }
    }
}
