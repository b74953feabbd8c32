import Foundation
import OMDbKit
import Testing
@testable import TerminalImages

/// The baseline JPEG decoder against libjpeg's decoding of the same posters (through Pillow,
/// `Fixtures/make-jpeg-reference.py`), within a tolerance: the IDCT and chroma upsampling differ.
///
/// Serialized: decoding is CPU-bound; one fixture at a time leaves a core to the rest of the run.
@Suite(.serialized) struct JPEGDecoderTests {
    static let posters = InlineImagesTests.posters
    /// libjpeg's decodings of three of them.
    static let references = InlineImagesTests.repository.appendingPathComponent("Fixtures/jpeg-reference")

    /// A binary PPM (P6, maxval 255).
    static func readPPM(_ url: URL) throws -> RGBImage {
        let data = [UInt8](try Data(contentsOf: url))
        var fields: [String] = []
        var at = 0
        while fields.count < 4 {
            var field = ""
            while at < data.count, data[at] != 0x20, data[at] != 0x0A { field.append(Character(UnicodeScalar(data[at]))); at += 1 }
            at += 1
            if !field.isEmpty { fields.append(field) }
        }
        #expect(fields[0] == "P6" && fields[3] == "255")
        let width = try #require(Int(fields[1])), height = try #require(Int(fields[2]))
        return RGBImage(width: width, height: height, pixels: Array(data[at...]))
    }

    @Test(arguments: ["tt0076759", "tt0112178", "tt0443453"])
    func decodingMatchesTheReferenceWithinATolerance(name: String) throws {
        let jpeg = try Data(contentsOf: Self.posters.appendingPathComponent("\(name).jpg"))
        let reference = try Self.readPPM(Self.references.appendingPathComponent("\(name).ppm"))
        let decoded = try JPEGDecoder.decode(jpeg)
        #expect(decoded.width == reference.width && decoded.height == reference.height)
        try #require(decoded.pixels.count == reference.pixels.count)
        let differences = zip(decoded.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        let within16 = Double(differences.filter { $0 <= 16 }.count) / Double(differences.count)
        #expect(mean < 1.5, "mean difference \(mean)")
        #expect(within16 > 0.98, "only \(within16) of samples within 16")
    }

    /// One in six of the JPEG fixtures (a debug build decodes slowly, and the suite shares two cores).
    @Test func jpegFixturesDecodeToTheirSize() throws {
        let folder = Self.posters
        var decoded = 0
        for (index, name) in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().enumerated() where index % 6 == 0 {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            guard ImageFormat(sniffing: data) == .jpeg else { continue }
            let image = try JPEGDecoder.decode(data)
            #expect(image.width == 80 && image.height == 120, "\(name)")
            decoded += 1
        }
        #expect(decoded >= 5)
    }

    @Test func otherBytesAreRefused() {
        #expect(throws: JPEGDecoder.Failure.notJPEG) { try JPEGDecoder.decode(Data("<html>".utf8)) }
        #expect(throws: JPEGDecoder.Failure.self) { try JPEGDecoder.decode(Data([0xFF, 0xD8, 0xFF, 0xC2, 0x00, 0x02, 0xFF, 0xD9])) }
    }
}
