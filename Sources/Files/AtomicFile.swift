import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file replaced whole, never written in place: the history, the daily count, cache entries, `save`'s files.
///
/// A write goes to an exclusively created temporary file (`O_CREAT|O_EXCL|O_NOFOLLOW`, an unguessable
/// name) in the target's folder, is synced and renamed over the target, all through the folder's
/// descriptor (``OpenFolder``): readers see the old file or the new, and a planted symlink is never
/// written through. A symlink at the target (a history kept with one's dotfiles) is followed only as
/// ``FileTrust`` allows; the link stays. A target that is not a regular file (`/dev/null`, a FIFO, a
/// folder) is refused. Reads check owner, kind and size first and never read past their limit.
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
        /// Not a regular file: `kind` is "a FIFO", "a device", "a folder"….
        case notARegularFile(path: String, kind: String)
        /// Larger than the reader takes.
        case tooLarge(path: String, bytes: Int, limit: Int)
        /// A folder others may write in, owned by someone else: its files could be planted or swapped.
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

        /// What is wrong, for a sentence that names it: `it is a FIFO, not a file`.
        public var reason: String {
            switch self {
            case let .notARegularFile(_, kind): "it is \(kind), not a file"
            case let .tooLarge(_, bytes, limit): "it holds \(bytes) bytes, more than the \(limit) read"
            case let .unsafeFolder(_, owner): "it can be written by others and belongs to someone else (user \(owner))"
            case let .failed(_, reason): reason
            case let .untrusted(_, reason, _): reason
            }
        }

        /// What a person can do about it (`chmod go-w /srv/x`); `nil` when nothing.
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

    /// Replaces the file (a symlink's target) with `bytes`.
    /// - Parameters:
    ///   - permissions: the mode of a new file (umask applies); a replaced file keeps its own.
    ///   - modified: the modification time to give it (the cache orders eviction by its own clock).
    ///   - sync: `fsync` before the rename, so a crash leaves old or new content, never an empty file.
    ///     The cache skips it: a lost entry is only a request again.
    public func write(_ bytes: Data, permissions: mode_t = 0o600, modified: Date? = nil, sync: Bool = true) throws(Problem) {
        try write(bytes, permissions: permissions, modified: modified, sync: sync, names: randomNames())
    }

    /// ``write(_:permissions:modified:sync:)`` with the temporary names given (tests plant files there).
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
            if let failure = Self.writeAll(bytes, to: fd) { throw .system(temporaryPath, failure) }
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

    /// `.NAME.OWNER-RANDOM.tmp`: the writer's tag (``WriterProcess``) tells a dead run's leftover from a
    /// live write; the random part is new for each try.
    private func randomNames() -> some Sequence<String> {
        let stem = String(url.lastPathComponent.prefix(100))
        let owner = WriterProcess.current.tag
        return (0..<16).lazy.map { _ in ".\(stem).\(owner)-\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp" }
    }

    /// Removes temporary files that killed writers left in this file's folder; a live writer's, and
    /// anything but a regular file, stay.
    /// - Parameter everyFile: every file's leftovers (a folder `save` writes into), known by their tag;
    ///   else this file's only, untagged ones included (then call with ``withLock(_:)`` held).
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

    /// Writes all of `bytes` to `fd`, again after EINTR: `nil`, else the `errno` of the write that failed.
    package static func writeAll(_ bytes: Data, to fd: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer in
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
    }

    // MARK: Reading

    /// The whole file, or `nil` when there is none. Never blocks on a FIFO, never reads past `limit`.
    /// - Throws: ``Problem/notARegularFile(path:kind:)``, ``Problem/tooLarge(path:bytes:limit:)``, a trust problem.
    public func contents(upTo limit: Int) throws(Problem) -> Data? {
        guard let (fd, size) = try openForReading() else { return nil }
        defer { close(fd) }
        guard size <= limit else { throw .tooLarge(path: url.path, bytes: size, limit: limit) }
        // The measured size plus a byte to see it grow, not `limit` bytes for every read (a tight `ulimit -v`).
        var data = try Self.read(fd, from: 0, count: size + 1, path: url.path)
        if data.count > size { data = try Self.read(fd, from: 0, count: limit + 1, path: url.path) }
        guard data.count <= limit else { throw .tooLarge(path: url.path, bytes: data.count, limit: limit) }
        return data
    }

    /// The file's last `count` bytes, and whether it holds more before them; `nil` when there is no file.
    public func tail(_ count: Int) throws(Problem) -> (data: Data, isCut: Bool)? {
        guard let (fd, size) = try openForReading() else { return nil }
        defer { close(fd) }
        let start = max(0, size - count)
        return (try Self.read(fd, from: start, count: count, path: url.path), start > 0)
    }

    /// The file opened without blocking (a FIFO would wait for a writer), then checked as opened: the
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

    /// Why ``url`` would not be read (or, `replacing`, replaced); `nil` for a usable file or none.
    public func problem(replacing: Bool) -> Problem? {
        do throws(Problem) { _ = try target(replacing: replacing); return nil } catch { return error }
    }

    /// The file a write of ``url`` really reaches (symlinks followed as allowed); `nil` when there is none yet.
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
