import Foundation
@testable import OMDbKit
import Testing
import TestSupport

/// Issue 21, finding 6: a posters folder renamed mid-page and replaced by a symlink left complete
/// `.movies-partial-*` files behind (renames and unlinks went by path).
@Suite struct PosterFolderMovedTests {
    @Test func aFolderMovedMidWriteKeepsThePosterAndLeavesNothingBehindOrElsewhere() async throws {
        try await withTemporaryFolder { root in
            let posters = root.appendingPathComponent("posters")
            let elsewhere = root.appendingPathComponent("elsewhere")
            let moved = root.appendingPathComponent("moved")
            try FileManager.default.createDirectory(at: posters, withIntermediateDirectories: false)
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
            let destination = posters.appendingPathComponent("Alien (1979).jpg")
            let kept = try PosterFile(in: posters, owner: .current, destination: destination)
            try kept.append(Data("jpeg bytes".utf8))
            let dropped = try PosterFile(in: posters, owner: .current, destination: destination)
            try dropped.append(Data("other".utf8))
            // Mid-page: the folder is renamed and a symlink put where it was.
            try FileManager.default.moveItem(at: posters, to: moved)
            try FileManager.default.createSymbolicLink(at: posters, withDestinationURL: elsewhere)
            try kept.flush()
            try kept.rename()
            dropped.removeName()
            #expect(files(in: moved) == ["Alien (1979).jpg"])
            #expect(try String(contentsOf: moved.appendingPathComponent("Alien (1979).jpg"), encoding: .utf8) == "jpeg bytes")
            #expect(files(in: elsewhere).isEmpty)
        }
    }
}
