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

/// `save` where another local user could plant the file (issue 21, finding 1): their link is never
/// followed, and the question names the file that will really be written.
@MainActor
@Suite struct SavePlantedLinkTests {
    static let stub = StubTransport(
        searchRows: [["Title": "Alien", "Year": "1979", "imdbID": "tt0078748", "Type": "movie", "Poster": "N/A"]],
        records: ["tt0078748": ["imdbID": "tt0078748", "Title": "Alien", "Year": "1979", "Type": "movie", "Plot": "ssh-ed25519 AAAA x"]])

    private func session(_ capture: Capture, in folder: URL) async -> Session {
        var console = capture.console()
        console.isInteractive = true
        let session = Session(client: Self.stub.client(), settings: Settings(), console: console,
                              presenter: TextPresenter(console: capture.console(), currentDirectory: folder), currentDirectory: folder)
        await session.handle(.search("alien"))
        capture.clear()
        return session
    }

    @Test(arguments: [false, true])
    func anotherUsersLinkInAStickyFolderIsNeverFollowed(force: Bool) async throws {
        guard let stranger = OtherUser.uid() else { return }
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let secret = folder.appendingPathComponent("secret")
        try FileManager.default.createDirectory(at: secret, withIntermediateDirectories: false)
        #expect(chmod(secret.path, 0o700) == 0)
        let shared = folder.appendingPathComponent("shared")
        try OtherUser.makeStickyFolder(shared)
        let keys = secret.appendingPathComponent("authorized_keys")
        try OtherUser.plantLink(at: shared.appendingPathComponent("movies.csv"), to: keys.path, as: stranger)
        let capture = Capture()
        let session = await session(capture, in: shared)
        var asked: [String] = []
        session.ask = { question in asked.append(question); return "y" }
        await session.handle(.save("movies.csv", force: force))
        #expect(files(in: secret).isEmpty)
        #expect(asked.isEmpty)
        #expect(capture.out.isEmpty)
        #expect(capture.err.hasPrefix("error: Nothing was saved: \(shared.path)/movies.csv: it lies in a folder anyone can write in, and it is not yours"))
        // Once it exists, root's file is not replaced either.
        try Data("root's\n".utf8).write(to: keys)
        await session.handle(.save("movies.csv", force: force))
        #expect(try String(contentsOf: keys, encoding: .utf8) == "root's\n")
        #expect(asked.isEmpty)
    }

    @Test func theQuestionNamesTheFileALinkOfOursReaches() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let real = folder.appendingPathComponent("real.md")
        try Data("old".utf8).write(to: real)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("movies.md").path, withDestinationPath: "real.md")
        let capture = Capture()
        let session = await session(capture, in: folder)
        var asked: [String] = []
        session.ask = { question in asked.append(question); return "y" }
        await session.handle(.save("movies.md", force: false))
        #expect(asked == ["movies.md (a link to \(real.path)) exists. Replace it? (y/N) "])
        #expect(try String(contentsOf: real, encoding: .utf8).contains("Alien"))
    }
}
