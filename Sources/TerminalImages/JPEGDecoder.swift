import Foundation

/// Pixels, 8-bit RGB, row by row.
struct RGBImage: Equatable {
    let width: Int
    let height: Int
    /// `width * height * 3` bytes: R, G, B of each pixel.
    let pixels: [UInt8]

    func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let at = (y * width + x) * 3
        return (pixels[at], pixels[at + 1], pixels[at + 2])
    }
}

/// A small baseline JPEG decoder (Huffman-coded sequential DCT, 8-bit samples, grey or YCbCr, any
/// sampling factors, restart intervals): enough for posters. Progressive and arithmetic coding are
/// refused. Chroma is upsampled by nearest neighbour.
enum JPEGDecoder {
    enum Failure: Error, Equatable {
        case notJPEG
        case unsupported(String)
        case corrupt(String)
        /// The header claims more pixels than ``JPEGPlan/maxPixels``: refused before any allocation.
        case tooLarge(width: Int, height: Int)
        /// The task decoding it was cancelled (Ctrl-C).
        case cancelled
    }

    struct Component {
        let id: UInt8
        let h: Int
        let v: Int
        let quantTable: Int
        var dcTable = 0
        var acTable = 0
        var previousDC = 0
        /// Samples at the component's own resolution and the plan's scale, padded to whole MCUs.
        var plane: [UInt8] = []
        var planeWidth = 0
    }

    /// The picture `data` holds, at the scale its ``JPEGPlan`` chooses.
    /// - Parameters:
    ///   - enoughSide: the decoded side that is enough; tests ask for less to force a scale.
    ///   - isCancelled: asked between MCU rows; `true` stops the decode (Ctrl-C cancels the command's task).
    static func decode(_ data: Data, enoughSide: Int = JPEGPlan.enoughSide,
                       isCancelled: () -> Bool = { Task.isCancelled }) throws(Failure) -> RGBImage {
        let bytes = [UInt8](data)
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .notJPEG }
        var quant = [[Int]](repeating: [Int](repeating: 1, count: 64), count: 4)
        var dcTables = [HuffmanTable?](repeating: nil, count: 4)
        var acTables = [HuffmanTable?](repeating: nil, count: 4)
        var components: [Component] = []
        var plan: JPEGPlan?
        var restartInterval = 0
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { throw .corrupt("no marker at \(offset)") }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let body = offset + 4
            let end = offset + 2 + length
            guard length >= 2, end <= bytes.count else { throw .corrupt("segment past the end") }
            switch marker {
            case 0xDB:
                var at = body
                while at < end {
                    let precision = Int(bytes[at] >> 4), id = Int(bytes[at] & 0x0F)
                    let tableEnd: Int = at + 1 + 64 * (precision + 1)
                    guard id < 4, precision < 2, tableEnd <= end else { throw .corrupt("quantization table") }
                    at += 1
                    for index in 0..<64 {
                        quant[id][zigzag[index]] = precision == 0 ? Int(bytes[at]) : Int(bytes[at]) << 8 | Int(bytes[at + 1])
                        at += precision == 0 ? 1 : 2
                    }
                }
            case 0xC0, 0xC1:
                guard plan == nil, length >= 8 else { throw .corrupt("frame header") }
                guard bytes[body] == 8 else { throw .unsupported("\(bytes[body])-bit samples") }
                let height = Int(bytes[body + 1]) << 8 | Int(bytes[body + 2])
                let width = Int(bytes[body + 3]) << 8 | Int(bytes[body + 4])
                let count = Int(bytes[body + 5])
                guard count == 1 || count == 3 else { throw .unsupported("\(count) components") }
                guard length >= 8 + 3 * count else { throw .corrupt("frame header") }
                // Before anything the size decides is allocated.
                plan = try JPEGPlan(width: width, height: height, enoughSide: enoughSide)
                for index in 0..<count {
                    let at = body + 6 + index * 3
                    let (h, v) = (Int(bytes[at + 1] >> 4), Int(bytes[at + 1] & 0x0F))
                    guard (1...4).contains(h), (1...4).contains(v) else { throw .corrupt("sampling factors") }
                    components.append(Component(id: bytes[at], h: h, v: v, quantTable: Int(bytes[at + 2] & 3)))
                }
            case 0xC2, 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                throw .unsupported("not a baseline JPEG (SOF \(String(marker, radix: 16)))")
            case 0xC4:
                var at = body
                while at < end {
                    let tableClass = bytes[at] >> 4, id = Int(bytes[at] & 0x0F)
                    guard id < 4, at + 17 <= end else { throw .corrupt("Huffman table") }
                    let counts = Array(bytes[at + 1..<at + 17]).map(Int.init)
                    let total = counts.reduce(0, +)
                    guard at + 17 + total <= end else { throw .corrupt("Huffman table") }
                    let table = HuffmanTable(counts: counts, symbols: Array(bytes[at + 17..<at + 17 + total]))
                    if tableClass == 0 { dcTables[id] = table } else { acTables[id] = table }
                    at += 17 + total
                }
            case 0xDD:
                guard length >= 4 else { throw .corrupt("restart interval") }
                restartInterval = Int(bytes[body]) << 8 | Int(bytes[body + 1])
            case 0xDA:
                guard let plan, !components.isEmpty, length >= 3 else { throw .corrupt("scan before frame") }
                let count = Int(bytes[body])
                guard length >= 3 + 2 * count else { throw .corrupt("scan header") }
                for index in 0..<count {
                    let id = bytes[body + 1 + index * 2], tables = Int(bytes[body + 2 + index * 2])
                    guard let position = components.firstIndex(where: { $0.id == id }) else { throw .corrupt("scan component") }
                    guard tables >> 4 < 4, tables & 0x0F < 4 else { throw .corrupt("Huffman table number") }
                    components[position].dcTable = tables >> 4
                    components[position].acTable = tables & 0x0F
                }
                guard plan.bytesAllocated(for: components) <= JPEGPlan.memoryCeiling else {
                    throw .tooLarge(width: plan.width, height: plan.height)
                }
                var scan = Scan(bytes: bytes, offset: end, plan: plan, restartInterval: restartInterval,
                                quant: quant, dcTables: dcTables, acTables: acTables)
                try scan.decode(&components, isCancelled: isCancelled)
                return toRGB(components, width: plan.decodedWidth, height: plan.decodedHeight)
            default:
                break   // APPn, COM and the rest: nothing needed from them
            }
            offset = end
        }
        throw .corrupt("no scan")
    }

    /// Upsamples each component to the decoded size and converts YCbCr (JFIF) to RGB.
    private static func toRGB(_ components: [Component], width: Int, height: Int) -> RGBImage {
        let maxH = components.map(\.h).max() ?? 1, maxV = components.map(\.v).max() ?? 1
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        func sample(_ component: Component, _ x: Int, _ y: Int) -> Double {
            Double(component.plane[(y * component.v / maxV) * component.planeWidth + x * component.h / maxH])
        }
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 3
                let luma = sample(components[0], x, y)
                guard components.count == 3 else {
                    (pixels[at], pixels[at + 1], pixels[at + 2]) = (UInt8(luma), UInt8(luma), UInt8(luma))
                    continue
                }
                let cb = sample(components[1], x, y) - 128, cr = sample(components[2], x, y) - 128
                pixels[at] = clamp(luma + 1.402 * cr)
                pixels[at + 1] = clamp(luma - 0.344136 * cb - 0.714136 * cr)
                pixels[at + 2] = clamp(luma + 1.772 * cb)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    static func clamp(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }

    /// Natural order index of each zigzag position.
    static let zigzag: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21,
        28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61,
        54, 47, 55, 62, 63,
    ]
}
