import Testing
@testable import LineEditing

/// Where the prompt and line land when they wrap.
@Suite struct LineLayoutTests {
    @Test func aShortLineStaysOnOneRow() {
        let placed = LineLayout.place(prompt: "> ", line: LineBuffer("abc"), width: 20)
        #expect(placed.layout == LineLayout(cursorRow: 0, cursorColumn: 5, rows: 1))
    }

    @Test func aLongLineWrapsAndTheCursorFollows() {
        var line = LineBuffer(String(repeating: "x", count: 25))
        for _ in 0..<10 { line.moveLeft() }
        let placed = LineLayout.place(prompt: "> ", line: line, width: 10)
        // 27 columns at 10 a row: rows 0-2; the cursor after 2 + 15 columns is on row 1, column 7.
        #expect(placed.layout == LineLayout(cursorRow: 1, cursorColumn: 7, rows: 3))
    }

    @Test func aWideCharacterThatDoesNotFitGoesToTheNextRow() {
        let placed = LineLayout.place(prompt: "> ", line: LineBuffer("abcdefg日"), width: 10)
        #expect(placed.layout.cursorRow == 1 && placed.layout.cursorColumn == 2)
    }

    @Test func aLineThatFillsItsRowExactlyPutsTheCursorOnTheNext() {
        let (bytes, layout) = LineLayout.redraw(prompt: "> ", line: LineBuffer("abcdefgh"), width: 10, previous: nil)
        #expect(layout == LineLayout(cursorRow: 1, cursorColumn: 0, rows: 2))
        #expect(bytes.contains("\r\n"))
    }

    @Test func aRedrawMovesUpToWhereTheLastOneStarted() {
        let previous = LineLayout(cursorRow: 2, cursorColumn: 3, rows: 3)
        let (bytes, _) = LineLayout.redraw(prompt: "> ", line: LineBuffer("a"), width: 10, previous: previous)
        #expect(bytes.hasPrefix("\u{1B}[2A\r\u{1B}[J> a"))
    }
}
