import Foundation
import Testing
@testable import OMDbKit
import TestSupport

@Suite struct ImageWidthTests {
    /// A JPEG whose start-of-frame, 1234 pixels wide, comes after an APP1 segment of `padding` bytes.
    static func jpeg(padding: Int) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        var remaining = padding
        while remaining > 0 {
            let size = min(remaining, 65_533)
            bytes += [0xFF, 0xE1, UInt8((size + 2) >> 8), UInt8((size + 2) & 0xFF)] + [UInt8](repeating: 0x45, count: size)
            remaining -= size
        }
        bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x02, 0x00, 0x04, 0xD2, 0x03] + [UInt8](repeating: 0, count: 9)
        bytes += [UInt8](repeating: 0x99, count: 1_000) + [0xFF, 0xD9]
        return Data(bytes)
    }

    static let images: [(String, Data, Int?)] = [
        ("jpeg", jpeg(padding: 10), 1234),
        ("jpeg behind 300 kB of metadata", jpeg(padding: 300_000), 1234),
        ("png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0x02, 0x58, 0, 0, 0x03, 0x84]), 600),
        ("gif", Data("GIF89a".utf8) + Data([0x2C, 0x01, 0x10, 0x00]), 300),
        ("webp VP8X", Data("RIFF".utf8) + Data([0, 0, 0, 0]) + Data("WEBPVP8X".utf8) + Data(repeating: 0, count: 8) + Data([0xE7, 0x03, 0x00, 0, 0, 0]), 1000),
        ("truncated jpeg", jpeg(padding: 10).prefix(12), nil),
        ("not an image", Data("<html>".utf8), nil),
        ("empty", Data(), nil),
    ]

    @Test(arguments: images)
    func aFileSaysItsWidth(name: String, data: Data, expected: Int?) async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("image")
            try data.write(to: file)
            #expect(try ImageWidth.pixels(ofFile: file) == expected, "\(name)")
        }
    }

    @Test func aMissingFileHasNoWidth() throws {
        #expect(try ImageWidth.pixels(ofFile: URL(fileURLWithPath: "/nonexistent/poster.jpg")) == nil)
    }
}
