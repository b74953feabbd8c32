import Foundation
import OMDbKit
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import MoviesCLI
import TestSupport

/// `posters DIR` and `poster N DIR` (issue 21): the folder is made through the nearest folder
/// above it that is there, opened and checked, never through another user's link.
@MainActor
@Suite struct PosterFolderLinkTests {
    static let stub = StubTransport(
        searchRows: [["Title": "Alien", "Year": "1979", "imdbID": "tt0078748", "Type": "movie", "Poster": "N/A"]],
        records: ["tt0078748": ["imdbID": "tt0078748", "Title": "Alien", "Year": "1979", "Type": "movie"]])

    @Test(arguments: [false, true])
    func aPosterFolderIsNotMadeThroughAnotherUsersLink(single: Bool) async throws {
        guard let stranger = OtherUser.uid() else { return }
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let mine = folder.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: false)
        #expect(chmod(mine.path, 0o700) == 0)
        let shared = folder.appendingPathComponent("shared")
        try OtherUser.makeStickyFolder(shared)
        try OtherUser.plantLink(at: shared.appendingPathComponent("pics"), to: mine.path, as: stranger)
        let capture = Capture()
        let session = Session(client: Self.stub.client(), settings: Settings(), console: capture.console(),
                              presenter: TextPresenter(console: capture.console(), currentDirectory: shared), currentDirectory: shared)
        await session.handle(.search("alien"))
        capture.clear()
        if single {
            await session.handle(.poster(1, folder: "pics/shots"))
            #expect(capture.err.hasPrefix("error: Cannot save posters in \"\(shared.path)/pics/shots\": \(shared.path)/pics: it lies in a folder anyone can write in, and it is not yours (user \(stranger))"))
        } else {
            await session.handle(.posters("pics/shots"))
            #expect(capture.err.hasPrefix("error: Cannot use \"pics/shots\" for posters: \(shared.path)/pics: it lies in a folder anyone can write in, and it is not yours (user \(stranger))"))
            #expect(session.context.settings.posters == nil)
        }
        #expect(files(in: mine).isEmpty)
    }
}
