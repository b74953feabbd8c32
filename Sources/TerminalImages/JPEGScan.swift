import Foundation

/// A canonical Huffman table, decoded code length by code length (JPEG's MAXCODE/VALPTR method).
struct HuffmanTable {
    private var maxCode = [Int](repeating: -1, count: 17)
    private var valueOffset = [Int](repeating: 0, count: 17)
    private let symbols: [UInt8]

    init(counts: [Int], symbols: [UInt8]) {
        self.symbols = symbols
        var code = 0, index = 0
        for length in 1...16 {
            let count = counts[length - 1]
            if count > 0 {
                valueOffset[length] = index - code
                code += count
                index += count
                maxCode[length] = code - 1
            }
            code <<= 1
        }
    }

    func decode(_ reader: inout BitReader) throws(JPEGDecoder.Failure) -> UInt8 {
        var code = 0
        for length in 1...16 {
            code = code << 1 | (try reader.bit())
            if code <= maxCode[length] { return symbols[code + valueOffset[length]] }
        }
        throw .corrupt("bad Huffman code")
    }
}

/// Entropy-coded bits, with JPEG's byte stuffing (`FF 00`) and restart markers.
struct BitReader {
    let bytes: [UInt8]
    var offset: Int
    private var buffer = 0
    private var count = 0
    /// Zero bytes given in place of a marker since the last restart: a sound scan needs one at most,
    /// and a large picture over a few bytes of data must not be decoded from zeros.
    private var padded = 0
    static let maxPadding = 64

    init(bytes: [UInt8], offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    mutating func bit() throws(JPEGDecoder.Failure) -> Int {
        if count == 0 {
            guard offset < bytes.count else { throw .corrupt("scan ends early") }
            var byte = bytes[offset]
            offset += 1
            if byte == 0xFF {
                if offset < bytes.count, bytes[offset] == 0 {
                    offset += 1   // FF 00 is a stuffed FF
                } else {
                    offset -= 1   // a marker: pad with zeros, and stay before it
                    byte = 0
                    padded += 1
                    guard padded <= Self.maxPadding else { throw .corrupt("scan ends early") }
                }
            }
            buffer = Int(byte)
            count = 8
        }
        count -= 1
        return (buffer >> count) & 1
    }

    mutating func bits(_ n: Int) throws(JPEGDecoder.Failure) -> Int {
        var value = 0
        for _ in 0..<n { value = value << 1 | (try bit()) }
        return value
    }

    /// Skips to the byte after the next restart marker.
    mutating func restart() {
        count = 0
        padded = 0
        while offset + 1 < bytes.count, !(bytes[offset] == 0xFF && (0xD0...0xD7).contains(bytes[offset + 1])) { offset += 1 }
        offset += 2
    }
}

/// One baseline scan: every MCU of every component, decoded into the planes at the plan's scale.
struct Scan {
    let bytes: [UInt8]
    let offset: Int
    let plan: JPEGPlan
    let restartInterval: Int
    let quant: [[Int]]
    let dcTables: [HuffmanTable?]
    let acTables: [HuffmanTable?]

    /// - Parameter isCancelled: asked once per row of MCUs.
    mutating func decode(_ components: inout [JPEGDecoder.Component], isCancelled: () -> Bool) throws(JPEGDecoder.Failure) {
        let (columns, rows, blocks) = plan.mcus(for: components)
        let side = plan.blockSide
        for (index, (h, v)) in blocks.enumerated() {
            components[index].planeWidth = columns * h * side
            components[index].plane = [UInt8](repeating: 0, count: columns * h * side * rows * v * side)
        }
        var reader = BitReader(bytes: bytes, offset: offset)
        var block = [Int](repeating: 0, count: 64)
        for mcu in 0..<(columns * rows) {
            if mcu % columns == 0, isCancelled() { throw .cancelled }
            if restartInterval > 0, mcu > 0, mcu % restartInterval == 0 {
                reader.restart()
                for index in components.indices { components[index].previousDC = 0 }
            }
            let (mcuX, mcuY) = (mcu % columns, mcu / columns)
            for (index, (h, v)) in blocks.enumerated() {
                for blockY in 0..<v {
                    for blockX in 0..<h {
                        try decodeBlock(&components[index], &reader, into: &block, dcOnly: side == 1)
                        let x = (mcuX * h + blockX) * side, y = (mcuY * v + blockY) * side
                        let origin = y * components[index].planeWidth + x
                        if side == 1 {
                            // The block's mean: the DC term of the inverse transform is DC / 8.
                            components[index].plane[origin] = JPEGDecoder.clamp(Double(block[0]) / 8 + 128)
                        } else {
                            Self.inverseDCT(block, into: &components[index].plane, at: origin,
                                            stride: components[index].planeWidth, side: side)
                        }
                    }
                }
            }
        }
    }

    /// Reads one block's coefficients into `block`, dequantized; with `dcOnly`, AC coefficients are skipped.
    private func decodeBlock(_ component: inout JPEGDecoder.Component, _ reader: inout BitReader, into block: inout [Int],
                             dcOnly: Bool) throws(JPEGDecoder.Failure) {
        guard let dc = dcTables[component.dcTable], let ac = acTables[component.acTable] else { throw .corrupt("missing Huffman table") }
        let q = quant[component.quantTable]
        for index in 0..<64 { block[index] = 0 }
        let size = Int(try dc.decode(&reader))
        // 8-bit samples have DC differences of at most 11 bits and AC coefficients of at most 10.
        guard size <= 11 else { throw .corrupt("DC difference of \(size) bits") }
        component.previousDC += Self.extend(try reader.bits(size), size)
        block[0] = component.previousDC * q[0]
        var k = 1
        while k < 64 {
            let symbol = Int(try ac.decode(&reader))
            let (run, size) = (symbol >> 4, symbol & 0x0F)
            if size == 0 {
                if run == 15 { k += 16; continue }
                break   // end of block
            }
            k += run
            guard k < 64, size <= 10 else { throw .corrupt("coefficient past 63") }
            let value = Self.extend(try reader.bits(size), size)
            if !dcOnly {
                let natural = JPEGDecoder.zigzag[k]
                block[natural] = value * q[natural]
            }
            k += 1
        }
    }

    static func extend(_ value: Int, _ size: Int) -> Int {
        size == 0 ? 0 : (value < 1 << (size - 1) ? value - (1 << size) + 1 : value)
    }

    /// cos((2x + 1) u π / 16) · C(u) / 2, for the separable inverse DCT.
    static let basis: [Double] = (0..<64).map { index in
        let (x, u) = (index / 8, index % 8)
        return (u == 0 ? 1 / 2.0.squareRoot() : 1) * cos(Double((2 * x + 1) * u) * .pi / 16) / 2
    }

    /// The block's `side` × `side` samples into `plane` at `origin`, each the mean of the full
    /// transform's samples it covers.
    static func inverseDCT(_ block: [Int], into plane: inout [UInt8], at origin: Int, stride: Int, side: Int = 8) {
        var rows = [Double](repeating: 0, count: 64)
        for y in 0..<8 {
            for x in 0..<8 {
                var sum = 0.0
                for u in 0..<8 where block[y * 8 + u] != 0 { sum += basis[x * 8 + u] * Double(block[y * 8 + u]) }
                rows[y * 8 + x] = sum
            }
        }
        let step = 8 / side
        var samples = [Double](repeating: 0, count: side * side)
        for x in 0..<8 {
            for y in 0..<8 {
                var sum = 0.0
                for v in 0..<8 { sum += basis[y * 8 + v] * rows[v * 8 + x] }
                samples[(y / step) * side + x / step] += sum
            }
        }
        let area = Double(step * step)
        for y in 0..<side {
            for x in 0..<side { plane[origin + y * stride + x] = JPEGDecoder.clamp(samples[y * side + x] / area + 128) }
        }
    }
}
