import Foundation

/// A picture drawn with text, for terminals with 24-bit colour and no image protocol: each cell is an
/// upper half block (▀), its foreground the upper pixel and its background the lower.
enum HalfBlocks {
    /// `image` scaled (box average) to `columns` cells wide, as lines ending in a colour reset.
    static func lines(_ image: RGBImage, columns: Int) -> [String] {
        let columns = max(1, min(columns, image.width))
        var rows = Int((Double(image.height) * Double(columns) / Double(image.width)).rounded())
        // One line at least, twice as many lines as columns at most: a very tall picture would fill the scrollback.
        rows = min(max(rows, 2), 4 * columns)
        rows += rows % 2   // whole cells
        var lines: [String] = []
        for row in stride(from: 0, to: rows, by: 2) {
            var line = ""
            for column in 0..<columns {
                let top = average(image, column, row, columns: columns, rows: rows)
                let bottom = average(image, column, row + 1, columns: columns, rows: rows)
                line += "\u{1B}[38;2;\(top.0);\(top.1);\(top.2)m\u{1B}[48;2;\(bottom.0);\(bottom.1);\(bottom.2)m▀"
            }
            lines.append(line + "\u{1B}[0m")
        }
        return lines
    }

    /// The mean colour of the source pixels that scaled pixel (`x`, `y`) covers.
    static func average(_ image: RGBImage, _ x: Int, _ y: Int, columns: Int, rows: Int) -> (Int, Int, Int) {
        let x0 = x * image.width / columns, x1 = max(x0 + 1, (x + 1) * image.width / columns)
        let y0 = min(image.height - 1, y * image.height / rows), y1 = min(image.height, max(y0 + 1, (y + 1) * image.height / rows))
        var sum = (0, 0, 0)
        for sy in y0..<y1 {
            for sx in x0..<x1 {
                let pixel = image.pixel(sx, sy)
                sum = (sum.0 + Int(pixel.0), sum.1 + Int(pixel.1), sum.2 + Int(pixel.2))
            }
        }
        let count = (x1 - x0) * (y1 - y0)
        return (sum.0 / count, sum.1 / count, sum.2 / count)
    }
}
