import Foundation

/// How big a decode may get, decided from the frame header before anything is allocated.
///
/// A terminal draws a poster a few dozen cells wide, so a large picture is decoded at 1/2, 1/4 or 1/8
/// scale (each 8×8 block gives 4×4, 2×2 or 1 pixel; at 1/8 only the DC coefficient is used). A header
/// claiming more than ``maxPixels`` is refused: a few bytes could otherwise ask for gigabytes.
struct JPEGPlan: Equatable {
    /// The frame's size, as its header says.
    let width: Int
    let height: Int
    /// 1, 2, 4 or 8: the decoded picture is `width / scale` by `height / scale`, rounded up.
    let scale: Int

    /// A decoded side this long is enough for any terminal: larger pictures are scaled down to it (1/8 at most).
    static let enoughSide = 512
    /// 16384 × 16384: at 1/8, 2048 × 2048. Beyond this a header is refused.
    static let maxPixels = 16_384 * 16_384

    /// The plan for a frame of `width` × `height`.
    /// - Parameter enoughSide: the decoded side that is enough (tests ask for less to force a scale).
    /// - Throws: ``JPEGDecoder/Failure/tooLarge(width:height:)`` past ``maxPixels``.
    init(width: Int, height: Int, enoughSide: Int = JPEGPlan.enoughSide) throws(JPEGDecoder.Failure) {
        guard width > 0, height > 0 else { throw .corrupt("no size") }
        guard width * height <= Self.maxPixels else { throw .tooLarge(width: width, height: height) }
        self.width = width
        self.height = height
        scale = [1, 2, 4, 8].first { scale in
            (width + scale - 1) / scale <= enoughSide && (height + scale - 1) / scale <= enoughSide
        } ?? 8
    }

    var decodedWidth: Int { (width + scale - 1) / scale }
    var decodedHeight: Int { (height + scale - 1) / scale }
    /// Pixels each 8×8 block gives on a side.
    var blockSide: Int { 8 / scale }

    /// The grid of MCUs, and each component's blocks per MCU (a single-component scan is not
    /// interleaved: its MCU is one block).
    func mcus(for components: [JPEGDecoder.Component]) -> (columns: Int, rows: Int, blocks: [(h: Int, v: Int)]) {
        let single = components.count == 1
        let mcuWidth = single ? 8 : 8 * (components.map(\.h).max() ?? 1)
        let mcuHeight = single ? 8 : 8 * (components.map(\.v).max() ?? 1)
        return ((width + mcuWidth - 1) / mcuWidth, (height + mcuHeight - 1) / mcuHeight, components.map { single ? (1, 1) : ($0.h, $0.v) })
    }

    /// The bytes a decode allocates for `components`: their planes, padded to whole MCUs, and the RGB picture.
    func bytesAllocated(for components: [JPEGDecoder.Component]) -> Int {
        let (columns, rows, blocks) = mcus(for: components)
        let planes = blocks.reduce(0) { $0 + columns * $1.h * blockSide * rows * $1.v * blockSide }
        return planes + decodedWidth * decodedHeight * 3
    }

    /// The most any accepted header may make a decode allocate (3 components sampled 4×4 at ``maxPixels``).
    static let memoryCeiling = 48 << 20
}
