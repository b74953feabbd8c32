import Foundation
import OMDbKit
import Testing
@testable import MoviesCLI

/// Posters drawn by `show`: which terminal gets which protocol, and the exact escape sequences.
@Suite struct InlineImagesTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/posters")
    /// A PNG and a JPEG from the fixtures (the bytes decide, not the extension).
    static func fixture(_ format: ImageFormat) throws -> Data {
        let names = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
        for name in names {
            if let data = FileManager.default.contents(atPath: fixtures.appendingPathComponent(name).path), ImageFormat(sniffing: data) == format {
                return data
            }
        }
        throw CancellationError()
    }

    @Test(arguments: [
        (["TERM_PROGRAM": "iTerm.app"], InlineImages.Kind?.some(.iterm)),
        (["TERM_PROGRAM": "WezTerm"], .iterm),
        (["TERM_PROGRAM": "vscode"], .iterm),
        (["KITTY_WINDOW_ID": "1"], .kitty),
        (["TERM": "xterm-kitty"], .kitty),
        (["TERM_PROGRAM": "ghostty"], .kitty),
        (["TERM": "xterm-256color"], nil),
        ([:], nil),
    ])
    func autoDetectsFromTheEnvironment(environment: [String: String], expected: InlineImages.Kind?) {
        #expect(InlineImages.detect(.auto, environment: environment, outputIsTerminal: true) == expected)
    }

    @Test func settingForcesOrDisablesAndAPipeNeverDraws() {
        let iterm = ["TERM_PROGRAM": "iTerm.app"]
        #expect(InlineImages.detect(.off, environment: iterm, outputIsTerminal: true) == nil)
        #expect(InlineImages.detect(.kitty, environment: iterm, outputIsTerminal: true) == .kitty)
        #expect(InlineImages.detect(.iterm, environment: [:], outputIsTerminal: true) == .iterm)
        for setting in InlineImages.Setting.allCases {
            #expect(InlineImages.detect(setting, environment: iterm, outputIsTerminal: false) == nil)
        }
    }

    @Test(arguments: [ImageFormat.png, .jpeg])
    func itermTakesTheBytesAsTheyAre(format: ImageFormat) throws {
        let data = try Self.fixture(format)
        let sequence = try #require(InlineImages.sequence(for: data, using: .iterm))
        #expect(sequence == "\u{1B}]1337;File=inline=1;size=\(data.count);preserveAspectRatio=1:\(data.base64EncodedString())\u{07}")
    }

    @Test func kittyTakesPNGInChunksOf4096() throws {
        let data = try Self.fixture(.png)
        let sequence = try #require(InlineImages.sequence(for: data, using: .kitty))
        let chunks = sequence.components(separatedBy: "\u{1B}\\").dropLast()
        #expect(chunks.allSatisfy { $0.hasPrefix("\u{1B}_G") })
        let payloads = chunks.map { String($0[$0.index(after: $0.firstIndex(of: ";")!)...]) }
        #expect(payloads.joined() == data.base64EncodedString())
        #expect(payloads.allSatisfy { $0.utf8.count <= 4096 })
        #expect(chunks.first?.hasPrefix("\u{1B}_Ga=T,f=100,m=") == true)
        #expect(chunks.last?.hasPrefix(chunks.count == 1 ? "\u{1B}_Ga=T,f=100,m=0;" : "\u{1B}_Gm=0;") == true)
        #expect(chunks.dropLast().allSatisfy { $0.contains("m=1;") })
    }

    @Test func kittyChunksALargePNG() throws {
        var data = try Self.fixture(.png)
        data += Data(repeating: 0, count: 10_000)   // still sniffed as PNG: only the payload size matters here
        let sequence = try #require(InlineImages.sequence(for: data, using: .kitty))
        let chunks = sequence.components(separatedBy: "\u{1B}\\").dropLast()
        #expect(chunks.count == (data.base64EncodedString().utf8.count + 4095) / 4096)
        #expect(chunks.count > 1)
        #expect(chunks[1].hasPrefix("\u{1B}_Gm=1;"))
        #expect(chunks.last?.hasPrefix("\u{1B}_Gm=0;") == true)
    }

    @Test func kittyRefusesJPEG() throws {
        let jpeg = try Self.fixture(.jpeg)
        #expect(InlineImages.sequence(for: jpeg, using: .kitty) == nil)
        #expect(InlineImages.refusal(for: jpeg, using: .kitty).contains("PNG only"))
    }
}
