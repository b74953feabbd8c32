import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder opened once and checked by ``FileTrust``, it and every folder above it up to `/`:
/// every file in it is then created, opened,
/// renamed and removed through its descriptor (`openat`, `renameat`, `unlinkat`), so a folder
/// renamed or swapped for a symlink meanwhile leaves nothing behind and nothing lands elsewhere.
package final class OpenFolder: Sendable {
    /// The path it was opened by, for messages.
    package let url: URL
    package let descriptor: Int32
    /// What `fstat` said when it was opened.
    package let info: stat

    /// Opens `url` and checks it and the folders above it; a folder of the user's own open to
    /// others is tightened to 0700 first when `tighten` is set (the tool's own folders; see
    /// ``takeTightened(among:)``), refused otherwise.
    package init(_ url: URL, user: uid_t = geteuid(), tighten: Bool = false) throws(AtomicFile.Problem) {
        let fd = systemOpen(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOTDIR {
                throw .failed(path: url.path, reason: "it is not a folder")
            }
            throw .system(url.path)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { let code = errno; close(fd); throw .system(url.path, code) }
        if tighten, info.st_uid == user, FileTrust.openToOthers(info), info.st_mode & S_ISVTX == 0 {
            if fchmod(fd, 0o700) == 0 {
                info.st_mode = (info.st_mode & ~0o7777) | 0o700
                Self.tightened.withLock { $0.append(url.standardizedFileURL.path) }
            }
        }
        if let problem = FileTrust.folderProblem(url.path, info, user: user) ?? Self.ancestorProblem(fd, info, url: url, user: user) {
            close(fd)
            throw problem
        }
        self.url = url
        self.descriptor = fd
        self.info = info
    }

    deinit { close(descriptor) }

    /// The folders tightened to 0700 and not yet asked about.
    private static let tightened = Mutex<[String]>([])

    /// Which of `folders` were open to others and were tightened to 0700 since last asked: each
    /// is told once, for the tool to say so. Only these are taken (tests share the process).
    package static func takeTightened(among folders: [URL]) -> [URL] {
        let wanted = Set(folders.map(\.standardizedFileURL.path))
        return tightened.withLock { all in
            let taken = all.filter { wanted.contains($0) }
            all.removeAll { wanted.contains($0) }
            return taken.map { URL(fileURLWithPath: $0, isDirectory: true) }
        }
    }

    /// Why a folder above `fd` (up to `/`, by `..`: the folders it really is in, whatever
    /// symlinks `url` went through) lets someone else swap it; `nil` when none does.
    private static func ancestorProblem(_ fd: Int32, _ info: stat, url: URL, user: uid_t) -> AtomicFile.Problem? {
        var below = info
        var relative = ".."
        for level in 1...(Int(PATH_MAX) / 3) {
            var above = stat()
            // Searched on the way down already: a failure here is no answer, not a refusal.
            guard fstatat(fd, relative, &above, 0) == 0 else { return nil }
            if above.st_dev == below.st_dev, above.st_ino == below.st_ino { return nil }   // `/`
            // Named only when refused: the real path, `level` folders up.
            let name = { () -> String in
                var path = realPath(url.path) ?? url.standardizedFileURL.path
                for _ in 0..<level { path = (path as NSString).deletingLastPathComponent }
                return path
            }
            if let problem = FileTrust.ancestorProblem(name, above, below: url.path, user: user) { return problem }
            below = above
            relative += "/.."
        }
        return nil
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Calls `visit` with each name in the folder but `.` and `..`, as the disk gives them: the
    /// folder as opened, not whatever its path names now. The pointer is valid during the call only.
    package func names(_ visit: (UnsafePointer<CChar>) -> Void) {
        let fd = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        guard let directory = fdopendir(fd) else { close(fd); return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) { name in
                    if strcmp(name, ".") != 0, strcmp(name, "..") != 0 { visit(name) }
                }
            }
        }
    }

    /// The names in the folder but `.` and `..`.
    package func names() -> [String] {
        var all: [String] = []
        names { all.append(String(cString: $0)) }
        return all
    }

    /// What is at `name`, the symlink itself when it is one; `nil` when nothing is.
    package func status(_ name: String) -> stat? {
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    /// Opens `name`, never through a symlink.
    package func open(_ name: String, _ flags: Int32, _ mode: mode_t = 0o600) -> Int32 {
        openat(descriptor, name, flags | O_NOFOLLOW | O_CLOEXEC, mode)
    }

    /// Creates a new file under the first of `names` no one has taken (`O_EXCL`).
    package func createExclusive(names: some Sequence<String>, permissions: mode_t) throws(AtomicFile.Problem) -> (fd: Int32, name: String) {
        var last = ""
        for name in names.prefix(16) {
            last = name
            let fd = open(name, O_WRONLY | O_CREAT | O_EXCL, permissions)
            if fd >= 0 { return (fd, name) }
            if errno != EEXIST { break }
        }
        throw .system(url.appendingPathComponent(last).path)
    }

    /// `rename(2)` within this folder.
    package func rename(_ from: String, to: String) -> Bool { renameat(descriptor, from, descriptor, to) == 0 }

    /// `unlink(2)` within this folder.
    @discardableResult
    package func remove(_ name: String) -> Bool { unlinkat(descriptor, name, 0) == 0 }

    /// What a symlink in this folder points at, as a path from here.
    package func linkTarget(_ name: String) throws(AtomicFile.Problem) -> URL {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlinkat(descriptor, name, &buffer, buffer.count - 1)
        guard length >= 0 else { throw .system(url.appendingPathComponent(name).path) }
        let link = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return link.hasPrefix("/") ? URL(fileURLWithPath: link) : url.appendingPathComponent(link)
    }
}

// The class's own `open` hides the C library's inside it.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
