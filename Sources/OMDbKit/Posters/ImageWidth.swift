import Files
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An image's width in pixels, read from its header: whether a poster on disk is as wide as asked.
/// A file is never read whole: PNG, GIF and WebP say it in their first 30 bytes, and a JPEG's
/// segments are skipped by their lengths to its start-of-frame.
enum ImageWidth {
    /// The width of the image in `file`, reading only the bytes that say it, as
    /// ``AtomicFile/openForReading()`` opens it; `nil` when there is none, or it cannot be read.
    /// - Throws: what ``FileTrust`` says against the file (someone else's, planted), or its kind.
    static func pixels(ofFile file: URL) throws(AtomicFile.Problem) -> Int? {
        guard let (fd, count) = try AtomicFile(file).openForReading() else { return nil }
        defer { close(fd) }
        return pixels(count: count) { range in
            var bytes = [UInt8](repeating: 0, count: range.count)
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, range.count, off_t(range.lowerBound)) }
            return got == range.count ? bytes : nil
        }
    }

    /// Bytes the formats other than JPEG need: WebP's VP8X width ends at 27, inside the first 30.
    private static let headerLength = 30

    /// The width of an image of `count` bytes, asking `read` for the ranges it needs (always
    /// within `0..<count`); `nil` from `read` ends the search. The fuzz target reads from memory.
    static func pixels(count: Int, read: (Range<Int>) -> [UInt8]?) -> Int? {
        guard let bytes = read(0..<min(count, headerLength)) else { return nil }
        func u16be(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u16le(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        switch ImageFormat(sniffing: Data(bytes)) {
        case .png?:
            // IHDR is always the first chunk: width is the big-endian UInt32 at 16.
            guard bytes.count >= 24 else { return nil }
            return bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        case .gif?:
            return bytes.count >= 10 ? u16le(6) : nil
        case .jpeg?:
            // Walk the segments to the first start-of-frame (SOF0…SOF15, not DHT, JPG or DAC).
            var offset = 2
            while offset + 9 < count {
                guard let segment = read(offset..<offset + 9), segment[0] == 0xFF else { return nil }
                let marker = segment[1]
                if marker == 0xFF { offset += 1; continue }
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return u16be(segment, 7) }
                offset += 2 + u16be(segment, 2)
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
