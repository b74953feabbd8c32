import Foundation
@testable import Files
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way files are replaced: exclusive temporary files, symlinks, FIFOs, folders others own.
@Suite struct AtomicFileTests {
    /// The problem `body` throws; `nil` when it throws none.
    func problem(_ body: () throws -> Void) -> AtomicFile.Problem? {
        do { try body(); return nil } catch { return error as? AtomicFile.Problem }
    }

    @Test func aSymlinkPlantedAtATemporaryNameIsNeverWrittenThrough() async throws {
        try await withTemporaryFolder { folder in
            let victim = folder.appendingPathComponent("victim")
            try Data("precious".utf8).write(to: victim)
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(".state.planted.tmp"), withDestinationURL: victim)
            let file = AtomicFile(folder.appendingPathComponent("state"))
            try file.write(Data("new".utf8), permissions: 0o600, modified: nil, sync: true, names: [".state.planted.tmp", ".state.fresh.tmp"])
            #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
            #expect(try String(contentsOf: file.url, encoding: .utf8) == "new")
            #expect(files(in: folder) == [".state.planted.tmp", "state", "victim"])
        }
    }

    @Test func aSymlinkedFileIsWrittenThroughAndStaysALink() async throws {
        try await withTemporaryFolder { folder in
            let dotfiles = folder.appendingPathComponent("dotfiles")
            try FileManager.default.createDirectory(at: dotfiles, withIntermediateDirectories: true)
            let target = dotfiles.appendingPathComponent("history")
            try Data("old\n".utf8).write(to: target)
            let link = folder.appendingPathComponent("history")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "dotfiles/history")
            try AtomicFile(link).write(Data("new\n".utf8))
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "dotfiles/history")
            #expect(try String(contentsOf: target, encoding: .utf8) == "new\n")
            #expect(files(in: dotfiles) == ["history"])
        }
    }

    @Test func aFIFOIsNeitherReadNorReplaced() async throws {
        await withTemporaryFolder { folder in
            let fifo = folder.appendingPathComponent("fifo")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            let file = AtomicFile(fifo)
            #expect(file.problem(replacing: false) == .notARegularFile(path: fifo.path, kind: "a FIFO"))
            // Opened without waiting for a writer: this returns at once.
            #expect(problem { _ = try file.contents(upTo: 100) } == .notARegularFile(path: fifo.path, kind: "a FIFO"))
            #expect(problem { try file.write(Data("x".utf8)) } == .notARegularFile(path: fifo.path, kind: "a FIFO"))
            var info = stat()
            #expect(lstat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
            #expect(files(in: folder) == ["fifo"])
        }
    }

    /// A 4 GB sparse file is refused from its size, before a byte is read.
    @Test func aFileLargerThanTheLimitIsNotRead() async throws {
        try await withTemporaryFolder { folder in
            let big = folder.appendingPathComponent("big")
            #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
            let fourGB: Int = 4 << 30   // typed outside #expect: the shift inside was slow to type-check
            #expect(truncate(big.path, off_t(fourGB)) == 0)
            let before = peakResidentBytes()
            #expect(problem { _ = try AtomicFile(big).contents(upTo: 1_000) } == .tooLarge(path: big.path, bytes: fourGB, limit: 1_000))
            // Unread: reading it would have raised the process's peak by gigabytes.
            #expect(peakResidentBytes() - before < 256 << 20)
            let none = try AtomicFile(folder.appendingPathComponent("none")).contents(upTo: 10)
            #expect(none == nil)
        }
    }

    @Test func foldersAreMadePrivateAndOnesOthersCanWriteInAreRefusedUnlessOurs() async throws {
        try await withTemporaryFolder { folder in
            let made = folder.appendingPathComponent("state/movies")
            try AtomicFile.prepareFolder(made)
            #expect(try FileManager.default.attributesOfItem(atPath: made.path)[.posixPermissions] as? Int == 0o700)
            let shared = folder.appendingPathComponent("shared")
            try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
            #expect(chmod(shared.path, 0o777) == 0)
            // Ours: tightened to 0700 when the tool makes it ready, refused (named) otherwise.
            #expect(AtomicFile.folderProblem(shared) == .untrusted(path: shared.path, reason: "others can write in it", advice: "chmod go-w \(shared.path)"))
            #expect(chmod(shared.path, 0o777) == 0)
            try AtomicFile.prepareFolder(shared)
            #expect(try FileManager.default.attributesOfItem(atPath: shared.path)[.posixPermissions] as? Int == 0o700)
            #expect(AtomicFile.folderProblem(shared) == nil)
            #expect(chmod(shared.path, 0o777) == 0)
            // Someone else's (seen as another user): refused.
            let stranger = geteuid() &+ 4_242
            #expect(AtomicFile.folderProblem(shared, user: stranger) == .unsafeFolder(path: shared.path, owner: UInt32(geteuid())))
            #expect(problem { try AtomicFile.prepareFolder(shared, user: stranger) } == .unsafeFolder(path: shared.path, owner: UInt32(geteuid())))
            #expect(chmod(shared.path, 0o755) == 0)
            #expect(AtomicFile.folderProblem(shared, user: stranger) == nil)
        }
    }
}
