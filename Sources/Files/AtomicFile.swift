import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file this tool replaces whole, never writes in place: the history, the daily count, cache
/// entries and files written by `save`.
///
/// A write goes to a temporary file created exclusively (`O_CREAT|O_EXCL|O_NOFOLLOW`, under a name
/// no one can guess) in the target's folder, is synced, then renamed over the target, all through
/// the folder's descriptor (``OpenFolder``): readers see the old file or the new, and a symlink
/// planted where the temporary file goes is never written through. A symlink at the target itself
/// (a history kept with one's dotfiles) is followed only as ``FileTrust`` allows: the user's own,
/// naming a file that is there; its target is replaced and the link stays. Anything at the target
/// that is not a regular file (a device such as `/dev/null`, a FIFO, a folder) is refused, never
/// replaced. Reads check whose the file is, its kind and its size before reading, and never read
/// more than they were told to.
public struct AtomicFile: Sendable {
    /// The path as given (perhaps a symlink).
    public let url: URL
    /// Held with `flock(2)` by ``withLock(_:)``: by default `.NAME.lock` beside ``url``.
    public let lockFile: URL

    public init(_ url: URL, lockFile: URL? = nil) {
        self.url = url
        self.lockFile = lockFile ?? url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).lock")
    }

    /// Why a file or folder was not used, described for a person.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Something other than a regular file is there: `kind` is "a FIFO", "a device", "a folder"….
        case notARegularFile(path: String, kind: String)
        /// The file is larger than the reader takes.
        case tooLarge(path: String, bytes: Int, limit: Int)
        /// A folder anyone else may write in, owned by someone else: files in it could be planted or swapped.
        case unsafeFolder(path: String, owner: UInt32)
        /// A system call failed: `reason` is its `strerror`.
        case failed(path: String, reason: String)
        /// ``FileTrust`` refuses it: `reason` says why, `advice` what to do (`chmod go-w …`).
        case untrusted(path: String, reason: String, advice: String)

        /// `/dev/null: it is a device, not a file`.
        public var description: String { "\(path): \(reason)" }

        /// The file or folder concerned.
        public var path: String {
            switch self {
            case let .notARegularFile(path, _), let .tooLarge(path, _, _), let .unsafeFolder(path, _), let .failed(path, _),
                 let .untrusted(path, _, _): path
            }
        }

        /// What is wrong with it, for a sentence that names it: `it is a FIFO, not a file`.
        public var reason: String {
            switch self {
            case let .notARegularFile(_, kind): "it is \(kind), not a file"
            case let .tooLarge(_, bytes, limit): "it holds \(bytes) bytes, more than the \(limit) read"
            case let .unsafeFolder(_, owner): "it can be written by others and belongs to someone else (user \(owner))"
            case let .failed(_, reason): reason
            case let .untrusted(_, reason, _): reason
            }
        }

        /// What to do about it, when a person can: `chmod go-w /srv/x`; `nil` otherwise.
        public var advice: String? {
            switch self {
            case let .untrusted(_, _, advice): advice
            case let .unsafeFolder(path, _): "move it out of the way, or use a folder of your own (not \(path))"
            default: nil
            }
        }

        static func system(_ path: String, _ code: Int32? = nil) -> Problem {
            .failed(path: path, reason: String(cString: strerror(code ?? systemErrno())))
        }
    }

    // MARK: Writing

    /// Replaces the file (the symlink's target when it is one) with `bytes`.
    /// - Parameters:
    ///   - permissions: the mode of a new file (the umask applies); a file replaced keeps its own.
    ///   - modified: the modification time to give it (the cache orders eviction by its own clock).
    ///   - sync: `fsync` before the rename, so a crash leaves the old content or the new, never an
    ///     empty file. The cache skips it: an entry lost in a crash is only a request again.
    public func write(_ bytes: Data, permissions: mode_t = 0o600, modified: Date? = nil, sync: Bool = true) throws(Problem) {
        try write(bytes, permissions: permissions, modified: modified, sync: sync, names: randomNames())
    }

    /// ``write(_:permissions:modified:sync:)`` with the temporary files' names given (tests plant files there).
    package func write(_ bytes: Data, permissions: mode_t, modified: Date?, sync: Bool, names: some Sequence<String>) throws(Problem) {
        guard let target = try target(replacing: true) else { throw .system(url.deletingLastPathComponent().path, ENOENT) }
        let folder = target.folder
        let (fd, temporary) = try folder.createExclusive(names: names, permissions: permissions)
        let temporaryPath = folder.url.appendingPathComponent(temporary).path
        var closed = false
        defer { if !closed { close(fd) } }
        do throws(Problem) {
            // The old file's mode, never its set-id bits: the new file is this user's.
            if let info = target.info, fchmod(fd, info.st_mode & 0o777) != 0 { throw .system(temporaryPath) }
            try Self.writeAll(bytes, to: fd, path: temporaryPath)
            if let modified {
                let seconds = modified.timeIntervalSince1970.rounded(.down)
                let time = timespec(tv_sec: Int(seconds), tv_nsec: Int((modified.timeIntervalSince1970 - seconds) * 1e9))
                var times = [time, time]
                if futimens(fd, &times) != 0 { throw .system(temporaryPath) }
            }
            if sync, fsync(fd) != 0 { throw .system(temporaryPath) }
            closed = true
            if close(fd) != 0 { throw .system(temporaryPath) }
            if !folder.rename(temporary, to: target.name) { throw .system(target.url.path) }
        } catch {
            folder.remove(temporary)
            throw error
        }
    }

    /// `.NAME.OWNER-RANDOM.tmp`: the writer's tag (``WriterProcess``), so that a later run tells a
    /// dead run's leftover from a live write, and a new random part each time (the first is taken
    /// unless planted there).
    private func randomNames() -> some Sequence<String> {
        let stem = String(url.lastPathComponent.prefix(100))
        let owner = WriterProcess.current.tag
        return (0..<16).lazy.map { _ in ".\(stem).\(owner)-\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp" }
    }

    /// Removes the temporary files that writes left behind in this file's folder: a process that
    /// ended in the middle of one (killed, or ended by a signal while it wrote) could not remove
    /// its own. Those of a writer still running are left alone, and so is anything but a regular file.
    /// - Parameter everyFile: the leftovers of every file written there (a folder that `save`
    ///   writes into), each known by its writer's tag; else this file's only, with those of
    ///   versions that wrote no tag (call those only with the lock held, ``withLock(_:)``).
    package func removeLeftTemporaries(everyFile: Bool = false) {
        guard let target = try? target(replacing: true) else { return }
        let prefix = ".\(String(url.lastPathComponent.prefix(100)))."
        for name in target.folder.names() where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let ours = name.count > prefix.count + 4 && name.hasPrefix(prefix)
            guard ours || everyFile else { continue }
            // `.NAME.pid-start-random.tmp`: the tag follows the last dot but one.
            let owner = name.dropLast(4).split(separator: ".").last.flatMap { $0.split(separator: "-").count == 3 ? WriterProcess(tag: $0) : nil }
            if let owner, owner.isAlive { continue }
            guard owner != nil || ours, let info = target.folder.status(name), info.st_mode & S_IFMT == S_IFREG else { continue }
            _ = target.folder.remove(name)
        }
    }

    /// True for the names ``write(_:permissions:modified:sync:)`` gives its temporary files.
    public static func isTemporaryName(_ name: String) -> Bool { name.hasPrefix(".") && name.hasSuffix(".tmp") }

    private static func writeAll(_ bytes: Data, to fd: Int32, path: String) throws(Problem) {
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw .system(path, failure) }
    }

    // MARK: Reading

    /// The whole file, or `nil` when there is none. Never blocks on a FIFO, never reads past `limit`.
    /// - Throws: ``Problem/notARegularFile(path:kind:)``, ``Problem/tooLarge(path:bytes:limit:)``.
    public func contents(upTo limit: Int) throws(Problem) -> Data? {
        guard let (fd, size) = try openForReading() else { return nil }
        defer { close(fd) }
        guard size <= limit else { throw .tooLarge(path: url.path, bytes: size, limit: limit) }
        // The size measured, and a byte more to see it grow: not `limit` bytes for every read
        // (256 MB reserved for a catalogue of 150 kB, all a tight `ulimit -v` allows).
        var data = try Self.read(fd, from: 0, count: size + 1, path: url.path)
        if data.count > size { data = try Self.read(fd, from: 0, count: limit + 1, path: url.path) }
        // Grown since it was measured: the writer is not this tool.
        guard data.count <= limit else { throw .tooLarge(path: url.path, bytes: data.count, limit: limit) }
        return data
    }

    /// The file's last `count` bytes (all of it when smaller), and whether it holds more before
    /// them; `nil` when there is no file.
    public func tail(_ count: Int) throws(Problem) -> (data: Data, isCut: Bool)? {
        guard let (fd, size) = try openForReading() else { return nil }
        defer { close(fd) }
        let start = max(0, size - count)
        return (try Self.read(fd, from: start, count: count, path: url.path), start > 0)
    }

    /// Opened without blocking (a FIFO would wait for a writer) and never through a symlink the
    /// rule refuses, then checked as what it is, not as what its name says, and whose it is: the
    /// descriptor (the caller closes it) and the size, or `nil` when there is no file.
    package func openForReading() throws(Problem) -> (Int32, Int)? {
        guard let target = try target(replacing: false), target.info != nil else { return nil }
        let fd = target.folder.open(target.name, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .system(url.path)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { let code = errno; close(fd); throw .system(url.path, code) }
        if let kind = Self.kindIfNotRegular(info.st_mode) { close(fd); throw .notARegularFile(path: url.path, kind: kind) }
        // Swapped since it was looked at: checked again, as opened.
        if let problem = FileTrust.fileProblem(target.url.path, info, in: target.folder.info, user: geteuid()) { close(fd); throw problem }
        return (fd, Int(info.st_size))
    }

    private static func read(_ fd: Int32, from start: Int, count: Int, path: String) throws(Problem) -> Data {
        var data = Data(count: count)
        var total = 0
        let failure: Int32? = data.withUnsafeMutableBytes { buffer in
            while total < count {
                let got = pread(fd, buffer.baseAddress! + total, count - total, off_t(start + total))
                if got < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if got == 0 { break }
                total += got
            }
            return nil
        }
        if let failure { throw .system(path, failure) }
        data.count = total
        return data
    }

    // MARK: What is there

    /// Why ``url`` would not be read (`replacing`: replaced) as ``FileTrust`` and its kind decide:
    /// a link someone else owns or that names nothing, a file not the user's, or no regular file.
    /// `nil` for a file that can be used, or nothing at all.
    public func problem(replacing: Bool) -> Problem? {
        do throws(Problem) { _ = try target(replacing: replacing); return nil } catch { return error }
    }

    /// The file a read or write of ``url`` really reaches, symlinks followed as ``target(replacing:user:)`` does;
    /// `nil` when there is none yet. Asked before a file is replaced, so the question names it.
    public func existingFile() throws(Problem) -> URL? {
        guard let target = try target(replacing: true), target.info != nil else { return nil }
        return target.url
    }

    package static func kindIfNotRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symlink"
        default: "not a regular file"
        }
    }
}

// The type's own `write` and `errno` hide the C library's inside it.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
private func systemErrno() -> Int32 { errno }
