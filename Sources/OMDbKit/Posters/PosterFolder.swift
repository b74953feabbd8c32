import Files
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PosterStore {
    /// Checks, creating nothing, that `folder` is or can be made a folder, and the nearest one there is writable.
    /// - Throws: ``OMDbError/posterNotWritten(path:reason:)`` with the reason in words.
    package static func checkFolder(_ folder: URL) throws(OMDbError) {
        let path = folder.standardizedFileURL.path
        var candidate = URL(fileURLWithPath: path)
        while true {
            var status = stat()
            if stat(candidate.path, &status) == 0 {
                guard status.st_mode & S_IFMT == S_IFDIR else {
                    let reason = candidate.path == path ? "it is a file, not a folder" : "\(candidate.path) is a file, not a folder"
                    throw .posterNotWritten(path: path, reason: reason)
                }
                guard access(candidate.path, W_OK | X_OK) == 0 else {
                    throw .posterNotWritten(path: path, reason: "\(candidate.path == path ? "the folder" : candidate.path) is not writable (\(describe(errno: errno)))")
                }
                return
            }
            if errno != ENOENT, errno != ENOTDIR {
                throw .posterNotWritten(path: path, reason: describe(errno: errno))
            }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path { return }
            candidate = parent
        }
    }

    /// Opens and checks `folder` (``FileTrust``), making it (0755) and any folder missing above it
    /// through the nearest one there, as ``OpenFolder/openOrCreate(_:mode:user:tighten:willMake:)`` does.
    /// - Throws: ``OMDbError/posterNotWritten(path:reason:)`` with the reason in words.
    @discardableResult
    package static func openFolder(_ folder: URL) throws(OMDbError) -> OpenFolder {
        do throws(AtomicFile.Problem) {
            return try OpenFolder.openOrCreate(folder, mode: 0o755)
        } catch {
            // The part of the path refused is named when it is not the folder itself.
            let named = [folder.path, folder.standardizedFileURL.path].contains(error.path) ? "" : error.path + ": "
            throw .posterNotWritten(path: folder.path, reason: named + error.reason + (error.advice.map { " (\($0))" } ?? ""))
        }
    }

    /// `errno` in words, the common ones worded for what a person can do about them.
    static func describe(errno code: Int32) -> String {
        switch code {
        case ENOSPC: "the disk is full"
        case EACCES, EPERM: "permission denied"
        case EROFS: "the disk is read-only"
        case ENOTDIR: "a part of the path is a file, not a folder"
        case ENOENT: "a folder on the path does not exist"
        case EDQUOT: "the disk quota is used up"
        default: String(cString: strerror(code))
        }
    }
}
