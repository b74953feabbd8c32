import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder opened once and checked by ``FileTrust`` with every folder above it; its files are then
/// reached through its descriptor (`openat`, `renameat`, `unlinkat`), so a folder renamed or swapped
/// for a symlink meanwhile sends nothing elsewhere.
package final class OpenFolder: Sendable {
    /// The path it was opened by, for messages.
    package let url: URL
    package let descriptor: Int32
    /// What `fstat` said when it was opened.
    package let info: stat

    /// Opens `url` and checks it and the folders above. With `tighten` (the tool's own folders), one of
    /// the user's own open to others is made 0700 (``takeTightened(among:)``) rather than refused.
    package convenience init(_ url: URL, user: uid_t = geteuid(), tighten: Bool = false) throws(AtomicFile.Problem) {
        let fd = try Self.walk(url, user: user)
        try self.init(adopting: fd, url: url, user: user, tighten: tighten)
    }

    /// Opens `url` one component at a time with `openat(O_NOFOLLOW|O_DIRECTORY)`, following a symlink
    /// only as ``FileTrust/linkProblem(_:_:in:user:)`` allows. The caller closes the descriptor.
    private static func walk(_ url: URL, user: uid_t) throws(AtomicFile.Problem) -> Int32 {
        var path = url.path
        var fd: Int32 = -1
        var walked = URL(fileURLWithPath: "/")
        var links = 0
        defer { if fd >= 0 { close(fd) } }
        // From `/` for an absolute path, else from the current folder.
        func restart(_ at: String) throws(AtomicFile.Problem) {
            if fd >= 0 { close(fd) }
            let start = at.hasPrefix("/") ? "/" : "."
            fd = systemOpen(start, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { throw .system(start) }
            walked = URL(fileURLWithPath: start == "/" ? start : FileManager.default.currentDirectoryPath)
        }
        try restart(path)
        var pending = path.split(separator: "/", omittingEmptySubsequences: true)
        while !pending.isEmpty {
            let name = String(pending.removeFirst())
            if name == "." { continue }
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next >= 0 {
                close(fd)
                fd = next
                walked = name == ".." ? walked.deletingLastPathComponent() : walked.appendingPathComponent(name)
                continue
            }
            let code = errno
            let shown = walked.appendingPathComponent(name)
            var link = stat()
            guard fstatat(fd, name, &link, AT_SYMLINK_NOFOLLOW) == 0, link.st_mode & S_IFMT == S_IFLNK else {
                if code == ENOTDIR { throw .failed(path: url.path, reason: "it is not a folder") }
                throw .system(url.path, code)
            }
            var folder = stat()
            guard fstat(fd, &folder) == 0 else { throw .system(walked.path) }
            if let problem = FileTrust.linkProblem(shown.path, link, in: folder, user: user) { throw problem }
            links += 1
            guard links <= 40 else { throw .system(url.path, ELOOP) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlinkat(fd, name, &buffer, buffer.count - 1)
            guard length > 0 else { throw .system(shown.path) }
            path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            pending = path.split(separator: "/", omittingEmptySubsequences: true) + pending
            if path.hasPrefix("/") { try restart(path) }
        }
        let opened = fd
        fd = -1
        return opened
    }

    /// Takes `fd` (closed here when refused) and checks it as the folder itself or, given `below`, as a
    /// folder above that one. `ancestorsChecked`: opened through a folder already checked.
    private init(adopting fd: Int32, url: URL, user: uid_t, tighten: Bool, below: URL? = nil,
                 ancestorsChecked: Bool = false) throws(AtomicFile.Problem) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { let code = errno; close(fd); throw .system(url.path, code) }
        if tighten, info.st_uid == user, FileTrust.openToOthers(info), info.st_mode & S_ISVTX == 0 {
            if fchmod(fd, 0o700) == 0 {
                info.st_mode = (info.st_mode & ~0o7777) | 0o700
                Self.tightened.withLock { $0.append(url.standardizedFileURL.path) }
            }
        }
        let own = below.map { FileTrust.ancestorProblem({ url.path }, info, below: $0.path, user: user) }
            ?? FileTrust.folderProblem(url.path, info, user: user)
        if let problem = own ?? (ancestorsChecked ? nil : Self.ancestorProblem(fd, info, url: url, user: user)) {
            close(fd)
            throw problem
        }
        self.url = url
        self.descriptor = fd
        self.info = info
    }

    /// Opens `url` as ``init(_:user:tighten:)`` does, first making it and any missing folders above
    /// (`mode`, umask applying), each with `mkdirat` in the checked one above, then opened with
    /// `O_NOFOLLOW`: a symlink planted meanwhile is never followed.
    /// - Parameter willMake: called with each folder just before it is made (for tests).
    package static func openOrCreate(_ url: URL, mode: mode_t = 0o700, user: uid_t = geteuid(), tighten: Bool = false,
                                     willMake: (URL) -> Void = { _ in }) throws(AtomicFile.Problem) -> OpenFolder {
        let wanted = url.standardizedFileURL
        // The nearest part of the path that is there (perhaps a file, or a link), and the names below it.
        var existing = wanted
        var missing: [String] = []
        var found = stat()
        while lstat(existing.path, &found) != 0 {
            let code = errno
            let parent = existing.deletingLastPathComponent()
            guard code == ENOENT || code == ENOTDIR, parent.path != existing.path else { throw .system(existing.path, code) }
            missing.insert(existing.lastPathComponent, at: 0)
            existing = parent
        }
        // The existing part is checked as a folder above the one wanted, unless it is that one.
        var folder = try missing.isEmpty ? OpenFolder(existing, user: user, tighten: tighten)
            : OpenFolder(adopting: walk(existing, user: user), url: existing, user: user, tighten: false, below: wanted)
        for (index, name) in missing.enumerated() {
            let last = index == missing.count - 1
            let path = folder.url.appendingPathComponent(name, isDirectory: true)
            willMake(path)
            // Made meanwhile by someone (another run of the tool, or not): checked as it is.
            if mkdirat(folder.descriptor, name, mode) != 0, errno != EEXIST { throw .system(path.path) }
            let fd = folder.open(name, O_RDONLY | O_DIRECTORY)
            guard fd >= 0 else { throw folder.notAFolder(name, errno, user: user) }
            folder = try OpenFolder(adopting: fd, url: path, user: user, tighten: tighten && last,
                                    below: last ? nil : wanted, ancestorsChecked: true)
        }
        return folder
    }

    /// Why `name` could not be opened as a folder (`code`): what is there instead.
    private func notAFolder(_ name: String, _ code: Int32, user: uid_t = geteuid()) -> AtomicFile.Problem {
        let path = url.appendingPathComponent(name).path
        guard let info = status(name) else { return .system(path, code) }
        if info.st_mode & S_IFMT == S_IFLNK {
            if let problem = FileTrust.fileProblem(path, info, in: self.info, user: user) { return problem }
            return .untrusted(path: path, reason: "it became a symlink while it was being made", advice: "remove it, or use another folder")
        }
        if info.st_mode & S_IFMT != S_IFDIR { return .failed(path: path, reason: "it is not a folder") }
        return .system(path, code)
    }

    deinit { close(descriptor) }

    /// The folders tightened to 0700 and not yet asked about.
    private static let tightened = Mutex<[String]>([])

    /// Which of `folders` were tightened to 0700 since last asked, each told once (only these are
    /// taken: tests share the process).
    package static func takeTightened(among folders: [URL]) -> [URL] {
        let wanted = Set(folders.map(\.standardizedFileURL.path))
        return tightened.withLock { all in
            let taken = all.filter { wanted.contains($0) }
            all.removeAll { wanted.contains($0) }
            return taken.map { URL(fileURLWithPath: $0, isDirectory: true) }
        }
    }

    /// Why a folder above `fd` (by `..`, up to `/`) lets someone else swap it; `nil` when none does.
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

    /// Calls `visit` with each name in the folder as opened but `.` and `..`; the pointer is valid during the call only.
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

    /// Whether `name` may be read as a trusted file (a regular file or a link ``FileTrust`` follows);
    /// `false` when nothing is there.
    package func holdsTrustedFile(_ name: String, user: uid_t = geteuid()) -> Bool {
        guard let info = status(name) else { return false }
        if info.st_mode & S_IFMT != S_IFLNK, AtomicFile.kindIfNotRegular(info.st_mode) != nil { return false }
        return FileTrust.fileProblem(url.appendingPathComponent(name).path, info, in: self.info, user: user) == nil
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
