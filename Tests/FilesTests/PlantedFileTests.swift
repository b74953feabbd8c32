import Foundation
@testable import Files
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files another local user plants never steer a write or a read (``FileTrust``), whatever
/// `fs.protected_symlinks` says: ownership is checked by the tool itself.
@Suite struct PlantedFileTests {
    func problem(_ body: () throws -> Void) -> AtomicFile.Problem? {
        do { try body(); return nil } catch { return error as? AtomicFile.Problem }
    }

    /// Finding 1 of issue 21: `movies.csv -> <root-only folder>/authorized_keys` in a `/tmp`-like folder.
    @Test func anotherUsersDanglingLinkInAStickyFolderIsNeverFollowed() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { folder in
            let secret = folder.appendingPathComponent("secret")
            try FileManager.default.createDirectory(at: secret, withIntermediateDirectories: false)
            #expect(chmod(secret.path, 0o700) == 0)
            let shared = folder.appendingPathComponent("shared")
            try OtherUser.makeStickyFolder(shared)
            let link = shared.appendingPathComponent("movies.csv")
            try OtherUser.plantLink(at: link, to: secret.appendingPathComponent("authorized_keys").path, as: stranger)
            let file = AtomicFile(link)
            let refused = problem { try file.write(Data("ssh-ed25519 AAAA planted\n".utf8), permissions: 0o666) }
            #expect(refused?.path == link.path)
            #expect(refused?.advice != nil)
            #expect(files(in: secret).isEmpty)
            #expect(problem { _ = try file.existingFile() } == refused)
            #expect(files(in: shared) == ["movies.csv"])
        }
    }

    /// `save!` through another user's link: the file it names is not replaced.
    @Test func anotherUsersLinkToAnExistingFileIsNeverFollowed() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { folder in
            let precious = folder.appendingPathComponent("precious.md")
            try Data("root's\n".utf8).write(to: precious)
            let link = folder.appendingPathComponent("movies.md")
            try OtherUser.plantLink(at: link, to: precious.path, as: stranger)
            #expect(problem { try AtomicFile(link).write(Data("new".utf8)) } == .untrusted(
                path: link.path, reason: "it belongs to someone else (user \(stranger))", advice: "remove it, or use a file of your own"))
            #expect(try String(contentsOf: precious, encoding: .utf8) == "root's\n")
        }
    }

    /// Even the user's own link is not followed into a new file: where it points was chosen by whoever made it.
    @Test func aDanglingLinkIsNeverFollowedIntoANewFile() async throws {
        try await withTemporaryFolder { folder in
            let link = folder.appendingPathComponent("movies.json")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "elsewhere/made.json")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("elsewhere"), withIntermediateDirectories: false)
            let refused = problem { try AtomicFile(link).write(Data("x".utf8)) }
            #expect(refused?.reason.contains("which does not exist") == true)
            #expect(files(in: folder.appendingPathComponent("elsewhere")).isEmpty)
        }
    }

    /// A file someone else may have written, or that others can change, is not read.
    @Test func filesOthersOwnOrCanChangeAreNotRead() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { folder in
            let theirs = folder.appendingPathComponent("theirs")
            try Data("x".utf8).write(to: theirs)
            OtherUser.give(theirs, to: stranger)
            #expect(problem { _ = try AtomicFile(theirs).contents(upTo: 10) }?.reason == "it belongs to someone else (user \(stranger))")
            let open = folder.appendingPathComponent("open")
            try Data("x".utf8).write(to: open)
            #expect(chmod(open.path, 0o646) == 0)
            #expect(problem { _ = try AtomicFile(open).contents(upTo: 10) } == .untrusted(path: open.path, reason: "others can change it", advice: "chmod go-w \(open.path)"))
            #expect(chmod(open.path, 0o644) == 0)
            #expect(try AtomicFile(open).contents(upTo: 10) == Data("x".utf8))
            // A folder someone else owns: nothing in it is read.
            let their = folder.appendingPathComponent("their")
            try FileManager.default.createDirectory(at: their, withIntermediateDirectories: false)
            try Data("x".utf8).write(to: their.appendingPathComponent("entry"))
            OtherUser.give(their, to: stranger)
            #expect(problem { _ = try AtomicFile(their.appendingPathComponent("entry")).contents(upTo: 10) }?.path == their.path)
        }
    }
}
