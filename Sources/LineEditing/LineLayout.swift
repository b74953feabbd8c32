/// Where a prompt and its line land on a terminal `width` columns wide, and the bytes that redraw them.
/// As linenoise's multi-line mode, the whole line is redrawn from its first row, so wrapping never drifts.
struct LineLayout: Equatable {
    /// Row (from the prompt's row) and column of the cursor.
    var cursorRow = 0
    var cursorColumn = 0
    /// Rows the prompt and line take.
    var rows = 1

    /// Places `line` after `prompt`; a wide character that does not fit a row's end goes to the next, as terminals do.
    static func place(prompt: String, line: LineBuffer, width: Int) -> (layout: LineLayout, endRow: Int, endColumn: Int) {
        let width = max(1, width)
        var row = 0
        var column = 0
        var cursor: (Int, Int)?
        func advance(_ columns: Int) {
            if column + columns > width {
                row += 1
                column = 0
            }
            column += columns
        }
        for character in prompt { advance(displayWidth(character)) }
        for (index, character) in line.characters.enumerated() {
            if index == line.cursor { cursor = wrapped(row, column, width) }
            advance(displayWidth(character))
        }
        let end = wrapped(row, column, width)
        let (cursorRow, cursorColumn) = cursor ?? end
        return (LineLayout(cursorRow: cursorRow, cursorColumn: cursorColumn, rows: end.0 + 1), end.0, end.1)
    }

    /// A position at the very end of a full row is the start of the next.
    private static func wrapped(_ row: Int, _ column: Int, _ width: Int) -> (Int, Int) {
        column >= width ? (row + 1, 0) : (row, column)
    }

    /// The bytes that erase the line drawn with `previous` and draw `prompt` + `line`, cursor in place.
    static func redraw(prompt: String, line: LineBuffer, width: Int, previous: LineLayout?) -> (bytes: String, layout: LineLayout) {
        var out = ""
        if let previous, previous.cursorRow > 0 { out += "\u{1B}[\(previous.cursorRow)A" }
        out += "\r\u{1B}[J"
        out += prompt + line.text
        let (layout, endRow, endColumn) = place(prompt: prompt, line: line, width: width)
        // Text that fills its last row leaves the cursor in limbo at the right edge: a line break makes the next row real.
        if endColumn == 0, endRow > 0 { out += "\r\n" }
        if endRow > layout.cursorRow { out += "\u{1B}[\(endRow - layout.cursorRow)A" }
        out += "\r"
        if layout.cursorColumn > 0 { out += "\u{1B}[\(layout.cursorColumn)C" }
        return (out, layout)
    }

    /// From the cursor to a fresh row under the whole line (after Enter or Ctrl-C).
    func leave() -> String {
        let down = rows - 1 - cursorRow
        return (down > 0 ? "\u{1B}[\(down)B" : "") + "\r\n"
    }
}
