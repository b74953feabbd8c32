import Foundation
import Testing
import TestSupport
@testable import TerminalImages

/// Headers that trapped the decoder (an index past its array: the process died) or were read
/// past their segment, found hardening it for the JPEG fuzz target (`make fuzz TARGETS=jpeg`):
/// each is now refused as damaged, in one line.
@Suite struct JPEGHostileHeaderTests {
    /// The synthetic grey picture with its bytes edited: `edit` gets them after SOI.
    static func edited(_ edit: (inout [UInt8]) -> Void) -> Data {
        var bytes = [UInt8](JPEGCeilingTests.grey(width: 16, height: 16))
        edit(&bytes)
        return Data(bytes)
    }

    /// Offsets in the synthetic picture: DQT at 2, SOF0 at 71, the DHTs at 84 and 106, SOS at 128.
    static let cases: [(Typed, Data)] = [
        // The scan names Huffman table 15 (there are four): dcTables[15] was read (trapped).
        (Typed("scan names table 15"), edited { $0[128 + 6] = 0xF0 }),
        // A 16-bit quantization table in a segment long enough for an 8-bit one: read past the segment.
        (Typed("16-bit table cut short"), edited { $0[2 + 3] = 0x43; $0[2 + 4] = 0x10 }),
        // A frame header of no bytes at the end of the file: its precision was read past the end (trapped).
        (Typed("empty frame header at the end"), Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x02])),
        // A restart interval segment with no interval, at the end: read past the end (trapped).
        (Typed("empty restart interval at the end"), Data([0xFF, 0xD8, 0xFF, 0xDD, 0x00, 0x02])),
        // A DC difference of 255 bits (the DC table's only symbol): 8-bit samples have at most 11.
        (Typed("DC difference of 255 bits"), edited { $0[84 + 5 + 16] = 0xFF }),
    ]

    @Test(arguments: cases)
    func aHostileHeaderIsRefusedAsDamaged(_ name: Typed, jpeg: Data) {
        #expect(throws: JPEGDecoder.Failure.self) { try JPEGDecoder.decode(jpeg) }
        guard case .refused = InlineImages.draw(jpeg, using: .blocks) else { Issue.record("not refused"); return }
    }
}
