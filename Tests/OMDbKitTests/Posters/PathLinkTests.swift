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

/// Issue 21: a folder that is there is reached one component at a time, each opened without
/// following a link, and a link on the way is followed only as the rule allows (the user's,
/// root's, or its folder owner's); and a poster someone else planted in the folder is not taken
/// as one saved.
@Suite struct PathLinkTests {
    func problem(_ body: () throws -> Void) -> AtomicFile.Problem? {
        do { try body(); return nil } catch { return error as? AtomicFile.Problem }
    }

    /// Another user's link in a sticky folder, used as a component of the path (`LINK/sub`), as
    /// a save target's folder and as a posters folder: refused, naming the link, and nothing is
    /// written where it points. One's own link in the same place is followed.
    @Test func someoneElsesLinkOnThePathIsNotFollowed() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { root in
            let (link, mine) = try FolderCreationTests.plantedLink(in: root, as: stranger)
            let sub = mine.appendingPathComponent("sub")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
            let through = link.appendingPathComponent("sub")
            let expected = "it lies in a folder anyone can write in, and it is not yours (user \(stranger))"

            let refused = problem { try AtomicFile(through.appendingPathComponent("out.csv")).write(Data("x".utf8)) }
            #expect(refused?.path == link.path)
            #expect(refused?.reason == expected)
            #expect(problem { _ = try OpenFolder(through) }?.path == link.path)

            let store = PosterStore(folder: through)
            var posterError: OMDbError?
            do {
                _ = try await store.save(streaming: HTTPBody(pngBytes), source: "test", title: "Alien", year: "1979", imdbID: "tt0078748")
            } catch {
                posterError = error as? OMDbError
            }
            guard case .posterNotWritten(_, let reason)? = posterError else {
                Issue.record("saved: \(String(describing: posterError))")
                return
            }
            #expect(reason.hasPrefix("\(link.path): \(expected)"))
            #expect(files(in: sub).isEmpty)

            // One's own link in the same sticky folder is followed.
            let own = root.appendingPathComponent("shared/own")
            try FileManager.default.createSymbolicLink(at: own, withDestinationURL: mine)
            try AtomicFile(own.appendingPathComponent("sub/out.csv")).write(Data("x".utf8))
            #expect(files(in: sub) == ["out.csv"])
        }
    }

    /// Root's links on the way (`/proc/self` is the kernel's) keep working.
    @Test func rootsLinksOnThePathAreFollowed() throws {
        var info = stat()
        guard lstat("/proc/self", &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return }
        #expect(problem { _ = try OpenFolder(URL(fileURLWithPath: "/proc/self/fd")) } == nil)
    }

    /// A poster file another user put in the (sticky) posters folder is neither found as saved
    /// nor taken as wide enough; one of one's own is both.
    @Test func aPlantedPosterIsNotTakenAsSaved() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { root in
            let folder = root.appendingPathComponent("posters")
            try OtherUser.makeStickyFolder(folder)
            let file = folder.appendingPathComponent("Alien (1979) [tt0078748].png")
            try pngBytes.write(to: file)
            OtherUser.give(file, to: stranger)
            let store = PosterStore(folder: folder)
            #expect(await store.existingFile(for: "tt0078748") == nil)
            #expect(!store.isWideEnough(file: file))
            #expect(!store.atWidth(.pixels(600)).isWideEnough(file: file))

            OtherUser.give(file, to: geteuid())
            let again = PosterStore(folder: folder)
            #expect(await again.existingFile(for: "tt0078748") == file)
            #expect(again.isWideEnough(file: file))
        }
    }
}
