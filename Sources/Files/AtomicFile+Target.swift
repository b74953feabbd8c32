import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Where a read or a write really goes

extension AtomicFile {
    /// A file as reached: its folder (opened and checked), its name there, and what is there now.
    package struct Target {
        package let folder: OpenFolder
        package let name: String
        /// `nil` when nothing is there yet.
        package let info: stat?

        package var url: URL { folder.url.appendingPathComponent(name) }
    }

    /// The file ``url`` names, followed through symlinks only as ``FileTrust`` allows, as `cp`
    /// would: a link the user (or root) owns, outside a folder others may plant links in, that
    /// names a file that is there. A link someone else owns, or one that names nothing (it would
    /// make a new file wherever its owner chose), is refused, never followed. Every folder on the
    /// way is opened and checked; `nil` when ``url``'s folder does not exist.
    /// - Parameter replacing: only written over, never read: its mode and owner matter only
    ///   where others may plant files.
    package func target(replacing: Bool, user: uid_t = geteuid()) throws(Problem) -> Target? {
        var current = url
        var link: URL?
        for _ in 0..<32 {
            let folderURL = current.deletingLastPathComponent()
            var folderInfo = stat()
            if stat(folderURL.path, &folderInfo) != 0, errno == ENOENT, link == nil { return nil }
            let folder = try OpenFolder(folderURL, user: user)
            let name = current.lastPathComponent
            guard let info = folder.status(name) else {
                if let link {
                    throw .untrusted(path: link.path, reason: "it is a symlink to \(current.path), which does not exist",
                                     advice: "remove the link, or make the file it names first")
                }
                return Target(folder: folder, name: name, info: nil)
            }
            let isLink = info.st_mode & S_IFMT == S_IFLNK
            // A device or a FIFO is told as what it is first: whose it is matters only for a file.
            if !isLink, let kind = Self.kindIfNotRegular(info.st_mode) { throw .notARegularFile(path: current.path, kind: kind) }
            if let problem = FileTrust.fileProblem(current.path, info, in: folder.info, user: user, replacing: replacing) {
                throw problem
            }
            guard isLink else { return Target(folder: folder, name: name, info: info) }
            link = current
            current = try folder.linkTarget(name)
        }
        throw .system(url.path, ELOOP)
    }
}
