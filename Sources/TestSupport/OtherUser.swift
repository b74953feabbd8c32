import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A second local user for tests of files others plant, when this process may act for one (it
/// runs as root, as CI does); `nil` otherwise, with the reason printed.
///
/// `movies-tester` is made with `useradd` when missing; where none can be made, a user number no
/// one has stands in (ownership is all the tool looks at). Files are planted as that user by
/// creating them here and handing them over with `lchown`, which never follows a symlink.
public enum OtherUser {
    public static let name = "movies-tester"

    /// The user's number, or `nil` (printed why) when this process cannot plant files as another user.
    public static func uid() -> uid_t? {
        guard geteuid() == 0 else {
            print("skipped: planting files as another user needs root (this runs as user \(geteuid())).")
            return nil
        }
        if let found = getpwnam(name) { return found.pointee.pw_uid }
        let useradd = Process()
        useradd.executableURL = URL(fileURLWithPath: "/usr/sbin/useradd")
        useradd.arguments = ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name]
        useradd.standardError = FileHandle.nullDevice
        if (try? useradd.run()) != nil { useradd.waitUntilExit() }
        if let made = getpwnam(name) { return made.pointee.pw_uid }
        return 4_242
    }

    /// Hands `url` (a symlink itself when it is one) over to `user`.
    public static func give(_ url: URL, to user: uid_t) {
        _ = lchown(url.path, user, gid_t(user))
    }

    /// A symlink at `url` to `destination`, owned by `user`.
    public static func plantLink(at url: URL, to destination: String, as user: uid_t) throws {
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: destination)
        give(url, to: user)
    }

    /// A folder anyone may write in but only remove their own files from, as `/tmp` is.
    public static func makeStickyFolder(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        _ = chmod(url.path, 0o1777)
    }
}
