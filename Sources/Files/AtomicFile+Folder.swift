import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The lock, and the folders the files are kept in

extension AtomicFile {
    /// Runs `body` holding an exclusive `flock(2)` on ``lockFile``, so two processes' read-change-writes
    /// lose neither's change. The lock file (0600) is opened in its checked folder, never through a symlink.
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

    /// Makes `folder` (0700) and any missing folders above it, each through the checked one above
    /// (``OpenFolder/openOrCreate(_:mode:user:tighten:willMake:)``). One of the user's own that others
    /// may write in is tightened to 0700; one that cannot be trusted is refused.
    /// - Throws: ``Problem/unsafeFolder(path:owner:)``, ``Problem/untrusted(path:reason:advice:)``, or why it could not be made.
    public static func prepareFolder(_ folder: URL, user: uid_t = geteuid()) throws(Problem) {
        _ = try OpenFolder.openOrCreate(folder, user: user, tighten: true)
    }

    /// Why files in `folder` cannot be trusted (``FileTrust``); `nil` when they can or there is no folder.
    /// With `tighten`, a folder of the user's own that others may write in is made 0700 rather than refused.
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
