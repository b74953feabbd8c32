import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The lock, and the folders the files are kept in

extension AtomicFile {
    /// Runs `body` holding an exclusive `flock(2)` on ``lockFile``: a read-change-write of the file
    /// by two processes at once loses neither's change. The lock file is made 0600 in its folder
    /// as opened and checked (``OpenFolder``), never followed through a symlink, and one someone
    /// else planted where others may plant files is refused (``FileTrust``).
    public func withLock<T>(_ body: () throws(Problem) -> T) throws(Problem) -> T {
        let folder = try OpenFolder(lockFile.deletingLastPathComponent())
        let name = lockFile.lastPathComponent
        let lock = folder.open(name, O_RDWR | O_CREAT | O_NONBLOCK, 0o600)
        guard lock >= 0 else { throw .system(lockFile.path) }
        defer { close(lock) }
        var info = stat()
        guard fstat(lock, &info) == 0, Self.kindIfNotRegular(info.st_mode) == nil else {
            throw .notARegularFile(path: lockFile.path, kind: Self.kindIfNotRegular(info.st_mode) ?? "not a regular file")
        }
        // Only held, never read: whose it is matters where others may plant it.
        if let problem = FileTrust.fileProblem(lockFile.path, info, in: folder.info, user: geteuid(), replacing: true) { throw problem }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .system(lockFile.path) }
        }
        defer { flock(lock, LOCK_UN) }
        return try body()
    }

    /// Makes `folder` (mode 0700, with any folders above it) when missing, each through the one
    /// above it as opened and checked (``OpenFolder/openOrCreate(_:mode:user:tighten:willMake:)``);
    /// refuses one it may not trust, and tightens one of the user's own that others may write in
    /// to 0700 (told by ``OpenFolder/takeTightened(among:)``).
    /// - Throws: ``Problem/unsafeFolder(path:owner:)`` or ``Problem/untrusted(path:reason:advice:)``
    ///   (see ``FileTrust``), or why it could not be made.
    public static func prepareFolder(_ folder: URL, user: uid_t = geteuid()) throws(Problem) {
        _ = try OpenFolder.openOrCreate(folder, user: user, tighten: true)
    }

    /// Why files in `folder` cannot be trusted (``FileTrust``): it is not a folder, it is someone
    /// else's, or others may write in it and it is not sticky (`/tmp`) and the user's or root's.
    /// `nil` for a folder that can be trusted, or none at all. With `tighten`, a folder of the
    /// user's own that others may write in is made 0700 first rather than refused.
    public static func folderProblem(_ folder: URL, user: uid_t = geteuid(), tighten: Bool = false) -> Problem? {
        var info = stat()
        guard stat(folder.path, &info) == 0 else { return nil }
        do throws(Problem) {
            _ = try OpenFolder(folder, user: user, tighten: tighten)
            return nil
        } catch {
            return error
        }
    }
}
