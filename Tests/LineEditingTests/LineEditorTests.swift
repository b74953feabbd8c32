import Testing
import TestSupport
@testable import LineEditing

/// The line editor without a terminal: bytes in, line and cursor out.
@Suite struct LineEditorTests {
    /// Feeds `bytes` (as a terminal sends them) and returns the editor and the last outcome.
    private func type(_ bytes: String, history: [String] = [], completer: @escaping Completer = { _ in (0, []) }) -> (LineEditor, LineEditor.Outcome?) {
        var decoder = KeyDecoder()
        var editor = LineEditor(history: history, completer: completer)
        var last: LineEditor.Outcome?
        for key in decoder.feed(Array(bytes.utf8)) + decoder.flush() { last = editor.handle(key) }
        return (editor, last)
    }

    @Test(arguments: [
        // Typed, then keys: the line and the cursor (in characters) afterwards.
        ("toxc\u{1B}[Di", "toxic", 4),
        ("abc\u{01}X", "Xabc", 1),
        ("abc\u{1B}[H\u{1B}[FX", "abcX", 4),
        ("abc\u{02}\u{02}\u{06}X", "abXc", 3),
        ("one two three\u{1B}b\u{1B}b\u{1B}fX", "one twoX three", 8),
        ("one two\u{1B}[1;5DX", "one Xtwo", 5),
        ("one two\u{1B}[1;5D\u{1B}[1;5C!", "one two!", 8),
        ("abc\u{7F}", "ab", 2),
        ("abc\u{01}\u{1B}[3~", "bc", 0),
        ("abc\u{01}\u{04}", "bc", 0),
        ("hello world\u{1B}[D\u{1B}[D\u{0B}", "hello wor", 9),
        ("hello world\u{1B}[D\u{15}", "d", 0),
        ("star wars\u{17}", "star ", 5),
        ("star wars\u{17}\u{01}\u{19}", "warsstar ", 4),
        ("one two\u{01}\u{1B}d", " two", 0),
        ("\u{1B}[200~a\nb\tc\u{1B}[31m\u{1B}[201~", "a b c[31m", 9),
        ("日本\u{1B}[D語", "日語本", 2),
        ("e\u{0301}x\u{1B}[D\u{1B}[D!", "!éx", 1),
    ])
    func keysEditTheLine(_ bytes: Typed, line: String, cursor: Int) {
        let (editor, _) = type(bytes.text)
        #expect(editor.buffer.text == line)
        #expect(editor.buffer.cursor == cursor)
    }

    @Test func widePlusCombiningCharactersCountTheirColumns() {
        let (editor, _) = type("日本e\u{0301}")
        #expect(LineLayout.place(prompt: "", line: editor.buffer, width: 80).layout.cursorColumn == 5)
    }

    @Test func enterSubmitsAndPasteNeverDoes() {
        #expect(type("alien\r").1 == .submit("alien"))
        #expect(type("\u{1B}[200~alien\rmore\u{1B}[201~").1 == .redraw)
        #expect(type("\u{1B}[200~alien\rmore\u{1B}[201~").0.buffer.text == "alien more")
    }

    @Test func controlKeysAskTheReaderForActions() {
        #expect(type("\u{04}").1 == .endOfInput)
        #expect(type("abc\u{04}").1 == .redraw)
        #expect(type("abc\u{03}").1 == .interrupted)
        #expect(type("\u{0C}").1 == .clearScreen)
        #expect(type("\u{1A}").1 == .suspend)
    }

    @Test func upAndDownWalkTheHistoryAndKeepTheDraft() {
        let history = ["alien", "toxic"]
        #expect(type("dra\u{1B}[A", history: history).0.buffer.text == "toxic")
        #expect(type("dra\u{1B}[A\u{1B}[A\u{1B}[A", history: history).0.buffer.text == "alien")
        #expect(type("dra\u{10}\u{10}\u{0E}", history: history).0.buffer.text == "toxic")
        #expect(type("dra\u{1B}[A\u{1B}[B", history: history).0.buffer.text == "dra")
    }

    @Test func ctrlRSearchesBackwardAndEnterRunsTheMatch() {
        let history = ["star wars", "star trek", "alien"]
        var (editor, _) = type("\u{12}sta", history: history)
        #expect(editor.display(prompt: "> ").prompt == "(reverse-i-search)'sta': ")
        #expect(editor.display(prompt: "> ").line.text == "star trek")
        #expect(editor.handle(.reverseSearch) == .redraw)
        #expect(editor.display(prompt: "> ").line.text == "star wars")
        #expect(editor.handle(.enter) == .submit("star wars"))
        #expect(type("\u{12}zzz", history: history).0.display(prompt: "> ").prompt.hasPrefix("(failing reverse-i-search)"))
        // Escape gives back the line as it was; an arrow keeps the match to edit.
        #expect(type("mine\u{12}ali\u{07}", history: history).0.buffer.text == "mine")
        #expect(type("\u{12}ali\u{1B}[DX", history: history).0.buffer.text == "alieXn")
    }

    @Test func anEscapeSplitAcrossReadsIsKeptUntilItsEnd() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.isWaiting)
        #expect(decoder.feed(Array("[D".utf8)) == [.left])
        #expect(decoder.feed([0xE6, 0x97]) == [])
        #expect(decoder.feed([0xA5]) == [.insert("日")])
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.flush() == [.cancel])
    }

    /// Text typed faster than the editor reads arrives as one insert a read, however it is cut.
    @Test func aBurstOfTextIsOneInsert() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("ali".utf8) + [0xC3]) == [.insert("ali")])
        #expect(decoder.feed([0xA9] + Array("n 2\r".utf8)) == [.insert("én 2"), .enter])
    }
}
