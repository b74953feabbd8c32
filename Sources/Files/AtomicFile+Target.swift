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

    /// The file ``url`` names, following only symlinks ``FileTrust`` allows: the user's or root's, outside
    /// a folder others may plant links in, naming a file that is there (a dangling link would create a
    /// file wherever its owner chose). Every folder on the way is checked; `nil` when ``url``'s folder is missing.
    /// - Parameter replacing: only written over, never read: its mode and owner matter only where others may plant files.
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
            // A device or FIFO is named as such first: ownership matters only for a file.
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
