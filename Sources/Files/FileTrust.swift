import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one rule for what on disk may steer the tool (`.env`, cache entries, the daily count, the
/// history, the posters-host file, the offline catalogue) and which folders it writes into, as
/// OpenSSH's `StrictModes` and git's `safe.directory` decide.
///
/// Trusted means: owned by the user or by root, not writable by group or others, in a folder
/// that is trusted too, unless that folder is sticky (`/tmp`) and the file is the user's own.
/// Ownership is checked here, never left to the kernel (`fs.protected_symlinks` is often off).
package enum FileTrust {
    static func ownerIsTrusted(_ owner: uid_t, user: uid_t) -> Bool { owner == user || owner == 0 }

    static func openToOthers(_ info: stat) -> Bool { info.st_mode & (S_IWGRP | S_IWOTH) != 0 }

    /// Others may write in it, but only remove what is theirs: a file of the user's own there is safe.
    static func isStickyOpen(_ info: stat) -> Bool { openToOthers(info) && info.st_mode & S_ISVTX != 0 }

    /// Why the folder `info` describes cannot be trusted with files, `nil` when it can.
    /// A folder of the user's own open to others is refused here: ``AtomicFile/prepareFolder(_:user:)``
    /// tightens the tool's own folders before asking.
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

    /// Why a folder above a trusted one (described by `info`) lets someone swap `folder`
    /// for one of theirs, as OpenSSH's `StrictModes` walks up to `/`: it is someone else's (not
    /// root's), or anyone may write in it and it is not sticky (`/tmp` is). A folder above that only
    /// its group may write in passes: Debian's `/usr/local/share` is `root:staff 2775`, and homes
    /// with a group of their own are often 0775; the folder itself is held to the whole rule.
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

    /// Why the symlink `link` (in a folder `folder` describes) may not be followed as a folder on
    /// a path, `nil` when it may: as the kernel's `fs.protected_symlinks` rules, whether or not it
    /// is on, a link is followed when it is the user's or root's, or its folder's owner's; any
    /// other is refused (in a folder anyone may write in, as ``fileProblem(_:_:in:user:replacing:)`` says).
    static func linkProblem(_ path: String, _ link: stat, in folder: stat, user: uid_t) -> AtomicFile.Problem? {
        let owner = link.st_uid
        if ownerIsTrusted(owner, user: user) || owner == folder.st_uid { return nil }
        return fileProblem(path, link, in: folder, user: user)
            ?? .untrusted(path: path, reason: "it belongs to someone else (user \(owner))", advice: "remove it, or use a file of your own")
    }

    /// Why the file or symlink `info` describes (in a folder `folder` describes, already trusted)
    /// cannot be trusted, `nil` when it can. `replacing`: it is only to be replaced, never read,
    /// so its mode does not matter, only whose it is where others may plant it.
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
