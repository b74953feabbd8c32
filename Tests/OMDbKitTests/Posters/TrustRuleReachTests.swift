import Files
import Foundation
@testable import OMDbCatalogue
@testable import OMDbKit
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 21: the one trust rule reaches every file the tool reads that steers it and every folder
/// it writes into, and the folders above them, as OpenSSH's StrictModes walks up to `/`.
@Suite struct TrustRuleReachTests {
    func problem(_ body: () throws -> Void) -> AtomicFile.Problem? {
        do { try body(); return nil } catch { return error as? AtomicFile.Problem }
    }

    /// A folder of one's own inside one anyone may write in (not sticky): whoever can write there
    /// can swap it, so nothing in it is read and nothing written.
    @Test func aFolderInsideOneAnyoneCanWriteInIsRefused() async throws {
        try await withTemporaryFolder { root in
            let open = root.appendingPathComponent("open")
            let mine = open.appendingPathComponent("mine")
            try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
            try Data("A=1\n".utf8).write(to: mine.appendingPathComponent(".env"))
            #expect(chmod(mine.path, 0o700) == 0 && chmod(open.path, 0o777) == 0)
            let refused = problem { _ = try AtomicFile(mine.appendingPathComponent(".env")).contents(upTo: 100) }
            #expect(refused?.path == mine.path)
            #expect(refused?.reason == "anyone can write in the folder above it, \(open.path), and so swap it")
            #expect(refused?.advice == "chmod o-w \(open.path), or use a folder elsewhere")
            #expect(AtomicFile.folderProblem(mine) != nil)
            #expect(problem { try AtomicFile(mine.appendingPathComponent("out.csv")).write(Data("x".utf8)) } != nil)
            // Sticky, as /tmp is: others may not swap what is ours.
            #expect(chmod(open.path, 0o1777) == 0)
            #expect(try AtomicFile(mine.appendingPathComponent(".env")).contents(upTo: 100) == Data("A=1\n".utf8))
            // Writable by its group only (Debian's /usr/local/share, homes with a group of their own): passed.
            #expect(chmod(open.path, 0o775) == 0)
            #expect(AtomicFile.folderProblem(mine) == nil)
        }
    }

    @Test func aFolderInsideSomeoneElsesIsRefused() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { root in
            let theirs = root.appendingPathComponent("theirs")
            let mine = theirs.appendingPathComponent("mine")
            try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
            try Data("A=1\n".utf8).write(to: mine.appendingPathComponent(".env"))
            OtherUser.give(theirs, to: stranger)
            let refused = problem { _ = try AtomicFile(mine.appendingPathComponent(".env")).contents(upTo: 100) }
            #expect(refused?.path == mine.path)
            #expect(refused?.reason == "the folder above it, \(theirs.path), belongs to someone else (user \(stranger)), who could swap it")
            // Reached through a symlink of one's own: the folders it really is in count.
            let link = root.appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: mine)
            #expect(AtomicFile.folderProblem(link)?.reason.contains(theirs.path) == true)
            OtherUser.give(theirs, to: geteuid())
            #expect(AtomicFile.folderProblem(mine) == nil)
        }
    }

    /// The lock beside the daily count or the history: one another user planted where anyone may
    /// plant files is never taken (it was opened by path and held, whoever's it was).
    @Test func aLockFileSomeoneElsePlantedInAStickyFolderIsRefused() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { root in
            let shared = root.appendingPathComponent("shared")
            try OtherUser.makeStickyFolder(shared)
            let file = AtomicFile(shared.appendingPathComponent("history"))
            #expect(Self.lockTaken(file) == nil)
            OtherUser.give(file.lockFile, to: stranger)
            #expect(Self.lockTaken(file)?.path == file.lockFile.path)
        }
    }

    /// Why `file`'s lock was not taken; `nil` when it was.
    static func lockTaken(_ file: AtomicFile) -> AtomicFile.Problem? {
        do throws(AtomicFile.Problem) {
            return try file.withLock { () throws(AtomicFile.Problem) -> AtomicFile.Problem? in nil }
        } catch {
            return error
        }
    }

    /// The leftover sweep goes through the folder as listed: swapped for a symlink after the
    /// listing, nothing where the link points is removed, and the folder's own leftover is.
    @Test func leftoversAreSweptFromTheFolderListedNotWhereASymlinkNowPoints() async throws {
        try await withTemporaryFolder { root in
            let posters = root.appendingPathComponent("posters")
            let moved = root.appendingPathComponent("moved")
            let elsewhere = root.appendingPathComponent("elsewhere")
            for folder in [posters, elsewhere] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
                try Data("half".utf8).write(to: folder.appendingPathComponent(".movies-partial-no-owner"))
            }
            let store = PosterStore(folder: posters, owner: .current, listing: { open, visit in
                open.names(visit)
                // Between the listing and the sweep: the folder is renamed and a symlink put where it was.
                try? FileManager.default.moveItem(at: posters, to: moved)
                try? FileManager.default.createSymbolicLink(at: posters, withDestinationURL: elsewhere)
            })
            await store.index.sweptLeftovers()
            #expect(files(in: moved).isEmpty)
            #expect(files(in: elsewhere) == [".movies-partial-no-owner"])
        }
    }

    /// `episodes.json` and the posters of the catalogue found beside the binary are read as
    /// `catalogue.json` is: one someone else planted is not used.
    @Test func catalogueEpisodesAndPostersSomeoneElseOwnsAreNotRead() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { folder in
            try Data(#"[{"imdbID":"tt0000001","Title":"Mine","Year":"2000","Type":"series"}]"#.utf8)
                .write(to: folder.appendingPathComponent("catalogue.json"))
            let episodes = folder.appendingPathComponent("episodes.json")
            try Data(#"{"tt0000001": {"totalSeasons": "1", "seasons": {"1": [{"Episode": "1", "Title": "Planted", "imdbID": "tt0000002"}]}}}"#.utf8)
                .write(to: episodes)
            let postersFolder = folder.appendingPathComponent("posters")
            try FileManager.default.createDirectory(at: postersFolder, withIntermediateDirectories: false)
            let poster = postersFolder.appendingPathComponent("tt0000001.png")
            try pngBytes.write(to: poster)
            #expect(try Catalogue(folder: folder).listedSeasons(of: "tt0000001") == [1])
            #expect(try Catalogue(folder: folder).posterData(atPath: "posters/tt0000001.png") == pngBytes)
            OtherUser.give(episodes, to: stranger)
            OtherUser.give(poster, to: stranger)
            let refused = problem { _ = try Catalogue(folder: folder) }
            #expect(refused?.path == episodes.path)
            OtherUser.give(episodes, to: geteuid())
            #expect(try Catalogue(folder: folder).posterData(atPath: "posters/tt0000001.png") == nil)
        }
    }

    /// A folder of the tool's own that others could write in is tightened to 0700, and told once.
    @Test func aFolderTightenedIsToldOnce() async throws {
        try await withTemporaryFolder { root in
            let state = root.appendingPathComponent("state")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false)
            #expect(chmod(state.path, 0o777) == 0)
            try AtomicFile.prepareFolder(state)
            var info = stat()
            #expect(stat(state.path, &info) == 0 && info.st_mode & 0o777 == 0o700)
            #expect(OpenFolder.takeTightened(among: [root]).isEmpty)
            #expect(OpenFolder.takeTightened(among: [state]).map(\.path) == [state.path])
            try AtomicFile.prepareFolder(state)
            #expect(OpenFolder.takeTightened(among: [state]).isEmpty)
        }
    }
}
