import Foundation
import OMDbKit
import Testing
@testable import MoviesCLI
import TestSupport

/// What the person typed, shown back: never an escape code on the terminal.
@MainActor
@Suite struct TypedTextTests {
    @Test(arguments: ["year \u{1B}[31mred", "type \u{1B}]0;title\u{07}x", "show \u{1B}[2J", "/\u{1B}[31mx"])
    func hintsQuotingTypedTextCarryNoControlCharacters(_ line: Typed) async throws {
        let capture = Capture()
        let session = try catalogueSession(capture)
        await session.handle(Command(parsing: line.text))
        #expect(!capture.err.isEmpty)
        #expect(!capture.err.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
    }

    @Test func aPostersFolderWithControlCharactersIsRefused() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        let session = try catalogueSession(capture, directory: folder)
        await session.handle(Command(parsing: "posters \u{1B}[31mshots"))
        #expect(capture.err.hasPrefix("error: \"[31mshots\" holds control characters"))
        #expect(!capture.err.contains("\u{1B}"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(session.context.settings.posters == nil)
    }
}
