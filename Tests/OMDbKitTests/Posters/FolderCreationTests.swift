import Files
import Foundation
@testable import OMDbKit
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 21: a folder the tool makes is made through the nearest folder above it that is there,
/// opened and checked, one component at a time (`mkdirat`, then opened with `O_NOFOLLOW`): a
/// symlink someone else put on the path never decides where it is made.
@Suite struct FolderCreationTests {
    /// `shared` is sticky (as /tmp is), `mine` a folder of one's own, and another user's link in
    /// `shared` points at it: folders made below the link would land in `mine`.
    static func plantedLink(in root: URL, as stranger: uid_t) throws -> (link: URL, mine: URL) {
        let shared = root.appendingPathComponent("shared")
        try OtherUser.makeStickyFolder(shared)
        let mine = root.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: false)
        #expect(chmod(mine.path, 0o700) == 0)
        let link = shared.appendingPathComponent("movies")
        try OtherUser.plantLink(at: link, to: mine.path, as: stranger)
        return (link, mine)
    }

    /// The cache, state and history folders (``AtomicFile/prepareFolder(_:user:)``).
    @Test func aToolFolderBelowSomeoneElsesLinkIsNotMadeWhereItPoints() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { root in
            let (link, mine) = try Self.plantedLink(in: root, as: stranger)
            var refused: AtomicFile.Problem?
            do throws(AtomicFile.Problem) { try AtomicFile.prepareFolder(link.appendingPathComponent("cache/movies")) } catch { refused = error }
            #expect(refused?.path == link.path)
            #expect(refused?.reason == "it lies in a folder anyone can write in, and it is not yours (user \(stranger))")
            #expect(files(in: mine).isEmpty)
        }
    }

    /// The poster folder, made as the first poster is saved (``PosterStore``).
    @Test func aPosterFolderBelowSomeoneElsesLinkIsNotMadeWhereItPoints() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { root in
            let (link, mine) = try Self.plantedLink(in: root, as: stranger)
            let store = PosterStore(folder: link.appendingPathComponent("posters"))
            var refused: OMDbError?
            do {
                _ = try await store.save(streaming: HTTPBody(pngBytes), source: "test", title: "Alien", year: "1979", imdbID: "tt0078748")
            } catch {
                refused = error as? OMDbError
            }
            guard case .posterNotWritten(let path, let reason)? = refused else {
                Issue.record("saved: \(String(describing: refused))")
                return
            }
            #expect(path == store.folder.path)
            #expect(reason.hasPrefix("\(link.path): it lies in a folder anyone can write in, and it is not yours (user \(stranger))"))
            #expect(files(in: mine).isEmpty)
        }
    }

    /// A home its group may write in (0775, common where each user has a group of their own)
    /// stays a place the tool's folders may be made in: it is above them, not theirs.
    @Test func foldersAreMadeBelowOneOnlyItsGroupMayWriteIn() async throws {
        try await withTemporaryFolder { root in
            let home = root.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false)
            #expect(chmod(home.path, 0o775) == 0)
            let cache = home.appendingPathComponent(".cache/movies")
            try AtomicFile.prepareFolder(cache)
            var info = stat()
            #expect(stat(cache.path, &info) == 0 && info.st_mode & 0o777 == 0o700)
            #expect(stat(cache.deletingLastPathComponent().path, &info) == 0 && info.st_mode & 0o777 == 0o700)
        }
    }

    /// A link put where a folder is about to be made, between the look at the path and the
    /// making: `mkdirat` finds it there, the `O_NOFOLLOW` open refuses it, and nothing is made
    /// where it points.
    @Test func aLinkPutOnThePathWhileItIsMadeIsNotFollowed() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { root in
            let shared = root.appendingPathComponent("shared")
            try OtherUser.makeStickyFolder(shared)
            let mine = root.appendingPathComponent("mine")
            try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: false)
            let planted = shared.appendingPathComponent("a")
            var refused: AtomicFile.Problem?
            do throws(AtomicFile.Problem) {
                _ = try OpenFolder.openOrCreate(planted.appendingPathComponent("b/c")) { made in
                    if made.path == planted.path { try? OtherUser.plantLink(at: planted, to: mine.path, as: stranger) }
                }
            } catch {
                refused = error
            }
            #expect(refused?.path == planted.path)
            #expect(refused?.reason == "it lies in a folder anyone can write in, and it is not yours (user \(stranger))")
            #expect(files(in: mine).isEmpty)
            // One's own link put there meanwhile is not followed either: the folder was to be made, not found.
            try FileManager.default.removeItem(at: planted)
            refused = nil
            do throws(AtomicFile.Problem) {
                _ = try OpenFolder.openOrCreate(planted.appendingPathComponent("b")) { made in
                    if made.path == planted.path { try? FileManager.default.createSymbolicLink(at: planted, withDestinationURL: mine) }
                }
            } catch {
                refused = error
            }
            #expect(refused?.reason == "it became a symlink while it was being made")
            #expect(files(in: mine).isEmpty)
            // Nothing in the way: made, 0700, each folder on the way.
            try FileManager.default.removeItem(at: planted)
            let made = try OpenFolder.openOrCreate(planted.appendingPathComponent("b"))
            #expect(made.info.st_mode & 0o777 == 0o700 && made.url.path == planted.appendingPathComponent("b").path)
        }
    }
}
