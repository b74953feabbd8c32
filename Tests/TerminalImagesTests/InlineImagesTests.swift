import Foundation
import OMDbKit
import Testing
@testable import TerminalImages
import TestSupport

/// Posters drawn by `show`: which terminal gets which protocol, and the exact escape sequences.
@Suite struct InlineImagesTests {
    static let repository = repositoryRoot
    /// The offline catalogue's posters: JPEG, PNG, GIF and WebP.
    static let posters = repository.appendingPathComponent("Sources/OMDbCatalogue/Catalogue/posters")
    /// A PNG and a JPEG from the catalogue's posters (the bytes decide, not the extension).
    static func fixture(_ format: ImageFormat) throws -> Data {
        let names = try FileManager.default.contentsOfDirectory(atPath: posters.path).sorted()
        for name in names {
            if let data = FileManager.default.contents(atPath: posters.appendingPathComponent(name).path), ImageFormat(sniffing: data) == format {
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
        (["COLORTERM": "truecolor"], .blocks),
        (["COLORTERM": "24bit", "TERM": "xterm-256color"], .blocks),
        (["COLORTERM": "truecolor", "NO_COLOR": "1"], nil),
        (["COLORTERM": "truecolor", "TERM_PROGRAM": "iTerm.app"], .iterm),
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
        let sequence = try #require(InlineImages.draw(data, using: .iterm).drawn)
        #expect(sequence == "\u{1B}]1337;File=inline=1;size=\(data.count);preserveAspectRatio=1:\(data.base64EncodedString())\u{07}")
    }

    @Test func kittyTakesPNGInChunksOf4096() throws {
        let data = try Self.fixture(.png)
        let sequence = try #require(InlineImages.draw(data, using: .kitty).drawn)
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
        let sequence = try #require(InlineImages.draw(data, using: .kitty).drawn)
        let chunks = sequence.components(separatedBy: "\u{1B}\\").dropLast()
        #expect(chunks.count == (data.base64EncodedString().utf8.count + 4095) / 4096)
        #expect(chunks.count > 1)
        #expect(chunks[1].hasPrefix("\u{1B}_Gm=1;"))
        #expect(chunks.last?.hasPrefix("\u{1B}_Gm=0;") == true)
    }

    @Test func halfBlocksDrawAJPEGInColourCells() throws {
        let jpeg = try Self.fixture(.jpeg)
        let sequence = try #require(InlineImages.draw(jpeg, using: .blocks, columns: 20).drawn)
        let lines = sequence.split(separator: "\n").map(String.init)
        #expect(lines.count == 15)   // 80×120 at 20 columns: 30 pixels high, two to a cell
        #expect(lines.allSatisfy { $0.count(where: { $0 == "▀" }) == 20 && $0.hasSuffix("\u{1B}[0m") })
        // The first cell's colours are the means of the 4×4 source squares it covers.
        let image = try JPEGDecoder.decode(jpeg)
        let top = HalfBlocks.average(image, 0, 0, columns: 20, rows: 30)
        let bottom = HalfBlocks.average(image, 0, 1, columns: 20, rows: 30)
        #expect(lines[0].hasPrefix("\u{1B}[38;2;\(top.0);\(top.1);\(top.2)m\u{1B}[48;2;\(bottom.0);\(bottom.1);\(bottom.2)m▀"))
        #expect(InlineImages.draw(try Self.fixture(.png), using: .blocks)
                == .refused(why: "only JPEG posters can be drawn here (this one is PNG)"))
    }

    @Test func averageOfAFlatImageIsItsColour() {
        let image = RGBImage(width: 4, height: 4, pixels: Array(repeating: [10, 20, 30], count: 16).flatMap { $0 })
        let cell = "\u{1B}[38;2;10;20;30m\u{1B}[48;2;10;20;30m▀"
        #expect(HalfBlocks.lines(image, columns: 2) == [cell + cell + "\u{1B}[0m"])   // 2×2 pixels: one line of two cells
    }

    /// Said in a person's words (not `half blocks need a baseline JPEG, and the poster is WEBP`).
    @Test func aWebPPosterIsRefusedInAPersonsWords() {
        let webp = Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)
        #expect(InlineImages.draw(webp, using: .blocks)
                == .refused(why: "only JPEG posters can be drawn here (this one is WebP)"))
    }

    @Test func kittyRefusesJPEG() throws {
        let jpeg = try Self.fixture(.jpeg)
        #expect(InlineImages.draw(jpeg, using: .kitty)
                == .refused(why: "only PNG posters can be drawn in this terminal (this one is JPEG)"))
    }
}

extension InlineImages.Drawing {
    /// The bytes that draw it; nil when refused or cancelled.
    var drawn: String? { if case .drawn(let bytes) = self { bytes } else { nil } }
}
