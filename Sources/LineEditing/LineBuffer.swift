/// The line being typed and its cursor, with Emacs-style edits. The cursor counts grapheme clusters,
/// so an accented letter or an emoji with modifiers moves as one.
struct LineBuffer: Equatable {
    private(set) var characters: [Character] = []
    /// Characters before the cursor: 0 is the start, `characters.count` the end.
    private(set) var cursor = 0
    /// What the last kill (Ctrl-K/U/W, Alt-D) removed, for Ctrl-Y.
    private(set) var killed = ""

    init(_ text: String = "") { replace(with: text) }

    var text: String { String(characters) }
    var isEmpty: Bool { characters.isEmpty }

    /// Inserts at the cursor. A combining mark joins the character before it, as on screen.
    mutating func insert(_ text: String) {
        let before = String(characters[..<cursor]) + text
        let after = characters[cursor...]
        let joined = Array(before + String(after))
        cursor = min(joined.count, Array(before).count)
        characters = joined
    }

    /// Replaces the whole line, cursor at the end, keeping what was last killed (for Ctrl-Y).
    mutating func replace(with text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    mutating func moveLeft() { cursor = max(0, cursor - 1) }
    mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    mutating func moveHome() { cursor = 0 }
    mutating func moveEnd() { cursor = characters.count }
    mutating func moveWordLeft() { cursor = wordStart(before: cursor) }
    mutating func moveWordRight() { cursor = wordEnd(after: cursor) }

    mutating func backspace() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    mutating func delete() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    mutating func killToEnd() { kill(cursor..<characters.count) }
    mutating func killToStart() { kill(0..<cursor) }
    /// Ctrl-W, as readline's: back to the previous white space.
    mutating func killWordBack() {
        var index = cursor
        while index > 0, characters[index - 1].isWhitespace { index -= 1 }
        while index > 0, !characters[index - 1].isWhitespace { index -= 1 }
        kill(index..<cursor)
    }
    mutating func killWordForward() { kill(cursor..<wordEnd(after: cursor)) }

    mutating func yank() { insert(killed) }

    private mutating func kill(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        killed = String(characters[range])
        characters.removeSubrange(range)
        cursor = range.lowerBound
    }

    /// Words are runs of letters and digits, as in Emacs and readline.
    private func isWord(_ index: Int) -> Bool {
        characters[index].isLetter || characters[index].isNumber
    }

    private func wordStart(before position: Int) -> Int {
        var index = position
        while index > 0, !isWord(index - 1) { index -= 1 }
        while index > 0, isWord(index - 1) { index -= 1 }
        return index
    }

    private func wordEnd(after position: Int) -> Int {
        var index = position
        while index < characters.count, !isWord(index) { index += 1 }
        while index < characters.count, isWord(index) { index += 1 }
        return index
    }
}
