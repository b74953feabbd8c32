import Foundation
import Testing
@testable import TerminalImages

/// A poster's header decides how much a decode costs, and any poster host writes it: sizes are
/// checked before anything is allocated, large pictures are decoded at a reduced scale, a
/// header over a few bytes of data fails fast, and Ctrl-C stops a decode.
@Suite struct JPEGCeilingTests {
    /// A grey baseline JPEG of `width` × `height` whose every block is mid-grey: one-bit codes for
    /// "DC unchanged" and "end of block", so each block takes two zero bits. `dataBytes` of scan
    /// data follow (enough for the whole picture when `nil`), then EOI.
    static func grey(width: Int, height: Int, dataBytes: Int? = nil) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
                  1, 1, 0x11, 0]
        let oneCode = [1] + [UInt8](repeating: 0, count: 15) + [0]   // one code of one bit, for symbol 0
        bytes += [0xFF, 0xC4, 0x00, 0x14, 0x00] + oneCode + [0xFF, 0xC4, 0x00, 0x14, 0x10] + oneCode
        bytes += [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0x00, 0, 63, 0]
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        bytes += [UInt8](repeating: 0, count: dataBytes ?? (blocks * 2 + 7) / 8)
        return Data(bytes + [0xFF, 0xD9])
    }

    @Test func theSyntheticPictureDecodesAtFullSize() throws {
        let image = try JPEGDecoder.decode(Self.grey(width: 40, height: 24))
        #expect(image.width == 40 && image.height == 24)
        #expect(image.pixels.allSatisfy { $0 == 128 })
    }

    /// Was: 5 GB, then "failed to allocate 1073741856 bytes" and signal 6.
    @Test func aHeaderClaimingMoreThanTheCeilingIsRefusedBeforeAnyDecoding() {
        #expect(throws: JPEGDecoder.Failure.tooLarge(width: 65_535, height: 65_535)) {
            try JPEGDecoder.decode(Self.grey(width: 65_535, height: 65_535, dataBytes: 1_000))
        }
        let refusal = InlineImages.draw(Self.grey(width: 65_535, height: 65_535, dataBytes: 1_000), using: .blocks)
        #expect(refusal == .refused(why: "this JPEG says it is 65535×65535 pixels, more than can be drawn here"))
    }

    /// Was: a picture decoded from zeros given in place of the end marker, for as long as the
    /// header's size said (30 s and 1.35 GB at 30000×30000).
    @Test func aLargeHeaderOverAFewBytesOfDataFailsFast() {
        #expect(throws: JPEGDecoder.Failure.corrupt("scan ends early")) {
            try JPEGDecoder.decode(Self.grey(width: 16_000, height: 16_000, dataBytes: 1_000))
        }
    }

    /// Was: 4096 × 4096 pixels (48 MB of RGB) for a poster drawn 24 cells wide.
    @Test func aLargePictureIsDecodedAtAScaleATerminalCanUse() throws {
        let image = try JPEGDecoder.decode(Self.grey(width: 4_096, height: 2_048))
        #expect(image.width == 512 && image.height == 256)
        #expect(image.pixels.allSatisfy { $0 == 128 })
        let sequence = try #require(InlineImages.draw(Self.grey(width: 4_096, height: 2_048), using: .blocks, columns: 20).drawn)
        #expect(sequence.split(separator: "\n").count == 5)   // 20 columns, 10 pixels high, two to a cell
    }

    /// The allocation accounting: what the worst header allowed can make a decode allocate.
    @Test(arguments: [(16_384, 16_384), (65_535, 4_096), (4_096, 65_535), (1, 65_535), (65_535, 1)])
    func theWorstAcceptedHeadersStayUnderTheMemoryCeiling(width: Int, height: Int) throws {
        let plan = try JPEGPlan(width: width, height: height)
        let components = [(4, 4), (1, 1), (1, 1)].enumerated().map { index, factors in
            JPEGDecoder.Component(id: UInt8(index), h: factors.0, v: factors.1, quantTable: 0)
        }
        #expect(plan.scale == 8)
        #expect(plan.bytesAllocated(for: components) <= JPEGPlan.memoryCeiling)
        #expect(JPEGPlan.memoryCeiling + 2 * 20_000_000 < 100_000_000)   // + the poster's bytes, twice, at most
    }

    /// At 1/2, 1/4 and 1/8 each decoded pixel is the mean of the full decode's square it covers
    /// (within the chroma upsampling's difference).
    @Test(arguments: [2, 4, 8])
    func reducedScalesGiveTheMeansOfTheFullPicture(scale: Int) throws {
        let jpeg = try Data(contentsOf: JPEGDecoderTests.posters.appendingPathComponent("tt0076759.jpg"))
        let full = try JPEGDecoder.decode(jpeg)
        let reduced = try JPEGDecoder.decode(jpeg, enoughSide: 120 / scale)
        #expect(reduced.width == full.width / scale && reduced.height == full.height / scale)
        var differences = 0
        for y in 0..<reduced.height {
            for x in 0..<reduced.width {
                let mean = HalfBlocks.average(full, x, y, columns: reduced.width, rows: reduced.height)
                let pixel = reduced.pixel(x, y)
                differences += abs(mean.0 - Int(pixel.0)) + abs(mean.1 - Int(pixel.1)) + abs(mean.2 - Int(pixel.2))
            }
        }
        let meanDifference = Double(differences) / Double(reduced.pixels.count)
        #expect(meanDifference < 6, "mean difference \(meanDifference)")
    }

    /// Asked once per row of MCUs: a decode stops at the next row once cancelled.
    @Test func aDecodeStopsWhenAskedTo() {
        var asked = 0
        #expect(throws: JPEGDecoder.Failure.cancelled) {
            try JPEGDecoder.decode(Self.grey(width: 4_096, height: 4_096)) {
                asked += 1
                return asked == 3
            }
        }
        #expect(asked == 3)
    }

    /// Ctrl-C cancels the command's task; the decode running in it sees it, and `show` draws nothing.
    @Test func aCancelledTaskStopsTheDecode() async {
        let jpeg = Self.grey(width: 4_096, height: 4_096)
        let drawing = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return InlineImages.draw(jpeg, using: .blocks)
        }.value
        #expect(drawing == .cancelled)
    }
}
