import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one rule for which files may steer the tool (`.env`, cache, daily count, history, catalogue)
/// and which folders it writes into, after OpenSSH's `StrictModes` and git's `safe.directory`.
///
/// Trusted: owned by the user or root, not writable by group or others, in a trusted folder, or the
/// user's own file in a sticky folder (`/tmp`). Checked here, not left to the kernel
/// (`fs.protected_symlinks` is often off).
package enum FileTrust {
    static func ownerIsTrusted(_ owner: uid_t, user: uid_t) -> Bool { owner == user || owner == 0 }

    static func openToOthers(_ info: stat) -> Bool { info.st_mode & (S_IWGRP | S_IWOTH) != 0 }

    /// Others may write in it, but only remove what is theirs: a file of the user's own there is safe.
    static func isStickyOpen(_ info: stat) -> Bool { openToOthers(info) && info.st_mode & S_ISVTX != 0 }

    /// Why the folder `info` describes cannot be trusted with files, `nil` when it can. The user's own
    /// folder open to others is refused here; ``AtomicFile/prepareFolder(_:user:)`` tightens it first.
    static func folderProblem(_ path: String, _ info: stat, user: uid_t) -> AtomicFile.Problem? {
        if info.st_mode & S_IFMT != S_IFDIR {
            return .failed(path: path, reason: "it is \(AtomicFile.kindIfNotRegular(info.st_mode) ?? "a file"), not a folder")
        }
        let owner = info.st_uid
        if openToOthers(info) {
            // `/tmp`, or a sticky folder of the user's own: its files are checked one by one.
            if isStickyOpen(info), ownerIsTrusted(owner, user: user) { return nil }
            if owner != user { return .unsafeFolder(path: path, owner: UInt32(owner)) }
            return .untrusted(path: path, reason: "others can write in it", advice: "chmod go-w \(path)")
        }
        guard ownerIsTrusted(owner, user: user) else {
            return .untrusted(path: path, reason: "it belongs to someone else (user \(owner))", advice: "move it out of the way, or use a folder of your own")
        }
        return nil
    }

    /// Why a folder above `folder` (described by `info`) lets someone swap it, as `StrictModes` walks up:
    /// it is someone else's (not root's), or anyone may write in it and it is not sticky. Group-writable
    /// passes (Debian's `/usr/local/share` is `root:staff 2775`, many homes are 0775).
    /// - Parameter name: the ancestor's path, worked out only when it is refused.
    static func ancestorProblem(_ name: () -> String, _ info: stat, below folder: String, user: uid_t) -> AtomicFile.Problem? {
        if !ownerIsTrusted(info.st_uid, user: user) {
            let ancestor = name()
            return .untrusted(path: folder, reason: "the folder above it, \(ancestor), belongs to someone else (user \(info.st_uid)), who could swap it",
                              advice: "use a folder outside \(ancestor)")
        }
        if info.st_mode & S_IWOTH != 0, info.st_mode & S_ISVTX == 0 {
            let ancestor = name()
            return .untrusted(path: folder, reason: "anyone can write in the folder above it, \(ancestor), and so swap it",
                              advice: "chmod o-w \(ancestor), or use a folder elsewhere")
        }
        return nil
    }

    /// Why the symlink `link` (in `folder`) may not be followed on a path, `nil` when it may: as
    /// `fs.protected_symlinks` rules, whether it is on or not, only the user's, root's or the folder owner's.
    static func linkProblem(_ path: String, _ link: stat, in folder: stat, user: uid_t) -> AtomicFile.Problem? {
        let owner = link.st_uid
        if ownerIsTrusted(owner, user: user) || owner == folder.st_uid { return nil }
        return fileProblem(path, link, in: folder, user: user)
            ?? .untrusted(path: path, reason: "it belongs to someone else (user \(owner))", advice: "remove it, or use a file of your own")
    }

    /// Why the file or symlink `info` describes (in the trusted `folder`) cannot be trusted, `nil` when it
    /// can. `replacing`: never read, so only its owner matters, and only where others may plant it.
    static func fileProblem(_ path: String, _ info: stat, in folder: stat, user: uid_t, replacing: Bool = false) -> AtomicFile.Problem? {
        let owner = info.st_uid
        let isLink = info.st_mode & S_IFMT == S_IFLNK
        if isStickyOpen(folder), owner != user {
            return .untrusted(path: path, reason: "it lies in a folder anyone can write in, and it is not yours (user \(owner))",
                              advice: "remove it, or use a folder of your own")
        }
        if isLink || !replacing, !ownerIsTrusted(owner, user: user) {
            return .untrusted(path: path, reason: "it belongs to someone else (user \(owner))", advice: "remove it, or use a file of your own")
        }
        if !isLink, !replacing, openToOthers(info) {
            return .untrusted(path: path, reason: "others can change it", advice: "chmod go-w \(path)")
        }
        return nil
    }
}
