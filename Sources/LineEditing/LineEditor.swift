/// What Tab offers: given the line left of the cursor, where the word to complete starts (in characters)
/// and its full replacements, each with the space or slash that follows. The editor inserts or lists them.
public typealias Completer = @Sendable (_ before: String) -> (start: Int, choices: [String])

/// The line editor's logic as a value, keys in, outcomes out: history, Ctrl-R search, Tab completion.
/// The terminal I/O is ``TerminalLineReader``'s.
struct LineEditor {
    /// What a key asks the reader to do.
    enum Outcome: Equatable {
        case redraw
        /// The line is done: run it.
        case submit(String)
        /// Ctrl-D on an empty line: no more input.
        case endOfInput
        /// Ctrl-C: the line was dropped; start a fresh one below.
        case interrupted
        /// Ctrl-L: clear the screen, then redraw.
        case clearScreen
        /// Ctrl-Z: give the terminal back and stop until `fg`.
        case suspend
        /// Tab found several choices: list them under the line, then redraw.
        case list([String])
        /// Nothing to do (a key with no effect here).
        case nothing
    }

    /// An incremental reverse search (Ctrl-R) in progress.
    struct Search: Equatable {
        var query = ""
        /// The history entry that matches, newest first.
        var match: Int?
        /// The line as it was before Ctrl-R, for Escape / Ctrl-G.
        var original: LineBuffer
    }

    var buffer = LineBuffer()
    /// Oldest first.
    private(set) var history: [String]
    /// The entry shown by Up/Down, or nil for the line being typed.
    private var historyIndex: Int?
    /// The line being typed before Up was pressed.
    private var draft = LineBuffer()
    private(set) var search: Search?
    let completer: Completer

    init(history: [String] = [], completer: @escaping Completer = { _ in (0, []) }) {
        self.history = history
        self.completer = completer
    }

    /// The prompt and line to draw: the search's own prompt during Ctrl-R.
    func display(prompt: String) -> (prompt: String, line: LineBuffer) {
        guard let search else { return (prompt, buffer) }
        let failed = search.match == nil && !search.query.isEmpty ? "failing " : ""
        let shown = search.match.map { LineBuffer(history[$0]) } ?? search.original
        return ("(\(failed)reverse-i-search)'\(search.query)': ", shown)
    }

    /// Adds a line that was run (the reader checks ``History/keeps(_:after:secret:)`` first).
    mutating func remember(_ line: String) {
        if history.last != line { history.append(line) }
    }

    /// Starts a fresh line (after a submit or Ctrl-C).
    mutating func reset() {
        buffer.replace(with: "")
        historyIndex = nil
        draft = LineBuffer()
        search = nil
    }

    mutating func handle(_ key: Key) -> Outcome {
        if search != nil, let outcome = handleSearch(key) { return outcome }
        switch key {
        case .insert(let text), .paste(let text): buffer.insert(Self.typeable(text))
        case .enter: return .submit(buffer.text)
        case .tab: return complete()
        case .backspace: buffer.backspace()
        case .delete: buffer.delete()
        case .left: buffer.moveLeft()
        case .right: buffer.moveRight()
        case .wordLeft: buffer.moveWordLeft()
        case .wordRight: buffer.moveWordRight()
        case .home: buffer.moveHome()
        case .end: buffer.moveEnd()
        case .up: walkHistory(by: -1)
        case .down: walkHistory(by: 1)
        case .killToEnd: buffer.killToEnd()
        case .killToStart: buffer.killToStart()
        case .killWordBack: buffer.killWordBack()
        case .killWordForward: buffer.killWordForward()
        case .yank: buffer.yank()
        case .clearScreen: return .clearScreen
        case .reverseSearch: search = Search(original: buffer)
        case .interrupt: return .interrupted
        case .endOfInput:
            if buffer.isEmpty { return .endOfInput }
            buffer.delete()
        case .suspend: return .suspend
        case .cancel, .ignored: return .nothing
        }
        return .redraw
    }

    /// Keys during Ctrl-R. Nil: the search was accepted and `key` is handled as usual.
    private mutating func handleSearch(_ key: Key) -> Outcome? {
        guard var search else { return nil }
        switch key {
        case .insert(let text), .paste(let text):
            search.query += Self.typeable(text)
            search.match = find(search.query, from: search.match ?? history.count - 1)
        case .backspace:
            if !search.query.isEmpty { search.query.removeLast() }
            search.match = search.query.isEmpty ? nil : find(search.query, from: history.count - 1)
        case .reverseSearch:
            if let match = search.match, let older = find(search.query, from: match - 1) { search.match = older }
        case .cancel, .interrupt:
            buffer = search.original
            self.search = nil
            return .redraw
        default:
            if let match = search.match { buffer.replace(with: history[match]) }
            self.search = nil
            historyIndex = nil
            return key == .enter ? .submit(buffer.text) : nil
        }
        self.search = search
        return .redraw
    }

    /// The newest entry at or before `start` that contains `query`.
    private func find(_ query: String, from start: Int) -> Int? {
        guard !query.isEmpty, start >= 0 else { return nil }
        let needle = query.lowercased()
        return stride(from: min(start, history.count - 1), through: 0, by: -1).first { history[$0].lowercased().contains(needle) }
    }

    private mutating func walkHistory(by step: Int) {
        guard !history.isEmpty else { return }
        let current = historyIndex ?? history.count
        let next = min(max(0, current + step), history.count)
        guard next != current else { return }
        if historyIndex == nil { draft = buffer }
        if next == history.count {
            historyIndex = nil
            buffer.replace(with: draft.text)
        } else {
            historyIndex = next
            buffer.replace(with: history[next])
        }
    }

    private mutating func complete() -> Outcome {
        let before = String(buffer.characters[..<buffer.cursor])
        let result = completer(before)
        guard !result.choices.isEmpty else { return .nothing }
        let common = result.choices.dropFirst().reduce(result.choices[0]) { $0.commonPrefix(with: $1) }
        let typed = String(before.dropFirst(result.start))
        if common.count > typed.count {
            for _ in 0..<typed.count { buffer.backspace() }
            buffer.insert(common)
            return .redraw
        }
        return result.choices.count > 1 ? .list(result.choices.map(Self.shown)) : .nothing
    }

    /// A choice as listed under the line, as shells list paths: the last component (a folder with
    /// its slash), a word without its space.
    private static func shown(_ choice: String) -> String {
        let word = choice.hasSuffix(" ") ? choice.dropLast() : Substring(choice)
        let isFolder = word.hasSuffix("/")
        let name = (isFolder ? word.dropLast() : word).split(separator: "/").last.map(String.init) ?? ""
        return isFolder ? name + "/" : name
    }

    /// Text as one line: line breaks and tabs become spaces, other control characters are dropped.
    static func typeable(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\r" || scalar == "\n" || scalar == "\t" {
                scalars.append(" ")
            } else if scalar.properties.generalCategory != .control {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
