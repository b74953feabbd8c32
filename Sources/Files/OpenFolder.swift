import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder opened once and checked by ``FileTrust``: every file in it is then created, opened,
/// renamed and removed through its descriptor (`openat`, `renameat`, `unlinkat`), so a folder
/// renamed or swapped for a symlink meanwhile leaves nothing behind and nothing lands elsewhere.
package final class OpenFolder: Sendable {
    /// The path it was opened by, for messages.
    package let url: URL
    package let descriptor: Int32
    /// What `fstat` said when it was opened.
    package let info: stat

    /// Opens `url` and checks it; a folder of the user's own open to others is tightened to 0700
    /// first when `tighten` is set (the tool's own folders), refused otherwise.
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
            if fchmod(fd, 0o700) == 0 { info.st_mode = (info.st_mode & ~0o7777) | 0o700 }
        }
        if let problem = FileTrust.folderProblem(url.path, info, user: user) { close(fd); throw problem }
        self.url = url
        self.descriptor = fd
        self.info = info
    }

    deinit { close(descriptor) }

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
