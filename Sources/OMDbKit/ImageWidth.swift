import Foundation

/// An image's width in pixels, read from its header. Pure.
///
/// Used to tell whether a poster already on disk is as wide as the width asked for; an image
/// whose header cannot be read counts as wide enough (it is kept, not downloaded again).
enum ImageWidth {
    static func pixels(of data: Data) -> Int? {
        let bytes = [UInt8](data)
        func u16be(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u16le(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        switch ImageFormat(sniffing: data) {
        case .png?:
            // IHDR is always the first chunk: width is the big-endian UInt32 at 16.
            guard bytes.count >= 24 else { return nil }
            return bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        case .gif?:
            return bytes.count >= 10 ? u16le(6) : nil
        case .jpeg?:
            // Walk the segments to the first start-of-frame (SOF0…SOF15, not DHT, JPG or DAC).
            var offset = 2
            while offset + 9 < bytes.count {
                guard bytes[offset] == 0xFF else { return nil }
                let marker = bytes[offset + 1]
                if marker == 0xFF { offset += 1; continue }
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return u16be(offset + 7) }
                offset += 2 + u16be(offset + 2)
            }
            return nil
        case .webp?:
            guard bytes.count >= 30 else { return nil }
            switch String(decoding: bytes[12..<16], as: UTF8.self) {
            case "VP8 ": return u16le(26) & 0x3FFF
            case "VP8L": return (Int(bytes[21]) | Int(bytes[22]) << 8) & 0x3FFF + 1
            case "VP8X": return (Int(bytes[24]) | Int(bytes[25]) << 8 | Int(bytes[26]) << 16) + 1
            default: return nil
            }
        case nil:
            return nil
        }
    }
}
