import Foundation

/// How big a decode may get, decided from the frame header before anything is allocated.
///
/// A terminal draws a poster a few dozen cells wide, so a picture of thousands of pixels is
/// decoded at a reduced scale (1/2, 1/4 or 1/8: each 8×8 block gives 4×4, 2×2 or 1 pixel; at
/// 1/8 only the block's DC coefficient is used, no inverse transform). A header that claims more
/// than ``maxPixels`` is refused: even at 1/8 its planes would not fit the memory ceiling, and
/// any poster host can write one in a few bytes.
struct JPEGPlan: Equatable {
    /// The frame's size, as its header says.
    let width: Int
    let height: Int
    /// 1, 2, 4 or 8: the decoded picture is `width / scale` by `height / scale`, rounded up.
    let scale: Int

    /// A decoded side of at most this many pixels is enough for any terminal: larger pictures
    /// are decoded at the smallest scale that brings them within it (1/8 at the most).
    static let enoughSide = 512
    /// 16384 × 16384: at 1/8, 2048 × 2048. Beyond this a header is refused.
    static let maxPixels = 16_384 * 16_384

    /// The plan for a frame of `width` × `height` whose largest sampling factors are `maxH` × `maxV`.
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

    /// The decoded picture's size.
    var decodedWidth: Int { (width + scale - 1) / scale }
    var decodedHeight: Int { (height + scale - 1) / scale }
    /// Pixels each 8×8 block gives on a side.
    var blockSide: Int { 8 / scale }

    /// The bytes a decode allocates for `components` (their planes, padded to whole MCUs, and the
    /// RGB picture): the allocation accounting the ceiling is checked against. The compressed
    /// bytes come on top (a poster is at most `PosterStore.defaultMaxBytes`).
    func bytesAllocated(for components: [JPEGDecoder.Component]) -> Int {
        let maxH = components.map(\.h).max() ?? 1, maxV = components.map(\.v).max() ?? 1
        let single = components.count == 1
        let mcuWidth = single ? 8 : 8 * maxH, mcuHeight = single ? 8 : 8 * maxV
        let columns = (width + mcuWidth - 1) / mcuWidth, rows = (height + mcuHeight - 1) / mcuHeight
        let planes = components.reduce(0) { total, component in
            let (h, v) = single ? (1, 1) : (component.h, component.v)
            return total + columns * h * blockSide * rows * v * blockSide
        }
        return planes + decodedWidth * decodedHeight * 3
    }

    /// What any accepted header may make a decode allocate: 3 components sampled 4×4, the worst
    /// padding, at ``maxPixels``. Well under the 100 MB a poster may cost.
    static let memoryCeiling = 48 << 20
}
