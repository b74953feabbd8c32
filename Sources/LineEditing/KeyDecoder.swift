/// What a key (or a paste) means to the line editor.
enum Key: Equatable, Sendable {
    /// Typed text: one character, or a few when they arrive at once.
    case insert(String)
    /// Bracketed paste: inserted as text, never run, even when it holds line breaks.
    case paste(String)
    case enter, tab, backspace, delete
    case left, right, wordLeft, wordRight, home, end
    case up, down
    /// Ctrl-K, Ctrl-U, Ctrl-W, Alt-D.
    case killToEnd, killToStart, killWordBack, killWordForward
    /// Ctrl-Y.
    case yank
    /// Ctrl-L.
    case clearScreen
    /// Ctrl-R.
    case reverseSearch
    /// Ctrl-C.
    case interrupt
    /// Ctrl-D: the end on an empty line, Delete otherwise.
    case endOfInput
    /// Ctrl-Z.
    case suspend
    /// Escape alone, or Ctrl-G: leave a search.
    case cancel
    /// A sequence this editor does not use: ignored.
    case ignored
}

/// Turns the bytes a terminal sends into ``Key``s; a sequence split across reads waits for its rest.
///
/// A lone Escape is known only when no byte follows within a short wait: the reader then calls
/// ``flush()``. A paste ends at the last end marker before such a pause, not the first: a terminal
/// that does not filter pastes sends a pasted `ESC [ 201 ~` as it is. All up to that marker is the
/// paste and runs nothing; the bytes after it were typed. A paste with no end marker at a pause is
/// shown as text so far and goes on; Ctrl-C as the first key after that pause ends it, so a start
/// marker whose end never comes cannot hold the prompt.
struct KeyDecoder {
    private var pending: [UInt8] = []
    /// Inside a bracketed paste: the bytes since its start marker, end markers included.
    private var pasted: [UInt8]?
    /// The last end marker in `pasted`: the paste's end if the input pauses now.
    private var lastPasteEnd: Range<Int>?
    /// The input paused inside a paste with no end marker, and nothing came since.
    private var pastePaused = false

    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// True when bytes wait for the rest of a sequence, or for the pause that ends a paste.
    var isWaiting: Bool { pasted == nil ? !pending.isEmpty : lastPasteEnd != nil || !pastePaused }

    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        while let key = next() { keys.append(key) }
        return keys
    }

    /// What is held back, taken as typed: a lone Escape is `cancel`; a paste ends at its last end
    /// marker (the bytes after it are keys); one with no end marker yet goes on, what came of it so
    /// far given as text.
    mutating func flush() -> [Key] {
        var keys: [Key] = []
        if pasted != nil {
            guard let paste = endPaste() else { return pausedPaste() }
            keys.append(paste)
            while let key = next() { keys.append(key) }
            // A new paste started after the end, with no end marker yet: it goes on.
            if pasted != nil { return keys }
        }
        if pending.first == 0x1B {
            pending.removeFirst()
            keys.append(.cancel)
        }
        while let key = next() { keys.append(key) }
        pending.removeAll()
        return keys
    }

    /// One key from the front of `pending`, or nil when more bytes are needed.
    private mutating func next() -> Key? {
        if pasted != nil { return pasteBytes() }
        guard let byte = pending.first else { return nil }
        switch byte {
        case 0x1B: return escape()
        case 0x00..<0x20, 0x7F:
            pending.removeFirst()
            return Self.control(byte)
        default: return text()
        }
    }

    private static func control(_ byte: UInt8) -> Key {
        switch byte {
        case 0x01: .home
        case 0x02: .left
        case 0x03: .interrupt
        case 0x04: .endOfInput
        case 0x05: .end
        case 0x06: .right
        case 0x07: .cancel
        case 0x08, 0x7F: .backspace
        case 0x09: .tab
        case 0x0A, 0x0D: .enter
        case 0x0B: .killToEnd
        case 0x0C: .clearScreen
        case 0x0E: .down
        case 0x10: .up
        case 0x12: .reverseSearch
        case 0x15: .killToStart
        case 0x17: .killWordBack
        case 0x19: .yank
        case 0x1A: .suspend
        default: .ignored
        }
    }

    /// UTF-8 text up to the next control byte, as one key (a fast typist's burst is one insert); an
    /// incomplete character waits for its last bytes.
    private mutating func text() -> Key? {
        var end = 0
        while end < pending.count, pending[end] >= 0x20, pending[end] != 0x7F {
            let length = Self.sequenceLength(pending[end])
            guard end + length <= pending.count else { break }
            end += length
        }
        guard end > 0 else { return nil }
        let string = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeFirst(end)
        return .insert(string)
    }

    private static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }

    /// `ESC [ … final`, `ESC O x`, or `ESC x` (Alt-x).
    private mutating func escape() -> Key? {
        guard pending.count >= 2 else { return nil }
        switch pending[1] {
        case UInt8(ascii: "["):
            // Parameters and intermediates (0x20-0x3F), then one final byte (0x40-0x7E).
            var index = 2
            while index < pending.count, (0x20...0x3F).contains(pending[index]) { index += 1 }
            guard index < pending.count else { return nil }
            let parameters = String(decoding: pending[2..<index], as: UTF8.self)
            let final = pending[index]
            pending.removeFirst(index + 1)
            return csi(parameters, final)
        case UInt8(ascii: "O"):
            guard pending.count >= 3 else { return nil }
            let final = pending[2]
            pending.removeFirst(3)
            return csi("", final)
        default:
            let byte = pending[1]
            pending.removeFirst(2)
            switch byte {
            case UInt8(ascii: "b"), UInt8(ascii: "B"): return .wordLeft
            case UInt8(ascii: "f"), UInt8(ascii: "F"): return .wordRight
            case UInt8(ascii: "d"), UInt8(ascii: "D"): return .killWordForward
            case 0x7F, 0x08: return .killWordBack
            case 0x0D: return .enter
            default: return .ignored
            }
        }
    }

    private mutating func csi(_ parameters: String, _ final: UInt8) -> Key {
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false)
        // `1;5` is Ctrl, `1;3` Alt: with an arrow, a word move.
        let modified = fields.count > 1 && ["3", "5"].contains(fields[1])
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return modified ? .wordRight : .right
        case UInt8(ascii: "D"): return modified ? .wordLeft : .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch fields.first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "200":
                pasted = []
                lastPasteEnd = nil
                return .ignored
            default: return .ignored
            }
        default: return .ignored
        }
    }

    /// Gathers pasted bytes, noting the last end marker; never gives a key (``flush()`` ends the
    /// paste) but Ctrl-C right after a pause in a paste with no end marker, which ends it.
    private mutating func pasteBytes() -> Key? {
        guard !pending.isEmpty else { return nil }
        defer { pastePaused = false }
        if pastePaused, pending.first == 0x03 {
            pending.removeFirst()
            pasted = nil
            return .interrupt
        }
        guard var bytes = pasted.take() else { return nil }
        // A marker may straddle the bytes kept and those just read.
        var from = max(bytes.count - (Self.pasteEnd.count - 1), lastPasteEnd?.upperBound ?? 0)
        bytes.append(contentsOf: pending)
        pending.removeAll()
        while let end = bytes[from...].firstRange(of: Self.pasteEnd) {
            lastPasteEnd = end
            from = end.upperBound
        }
        pasted = bytes
        return nil
    }

    /// The paste up to its last end marker; the bytes after that marker are back in `pending`.
    private mutating func endPaste() -> Key? {
        guard let bytes = pasted, let end = lastPasteEnd else { return nil }
        pending = Array(bytes[end.upperBound...]) + pending
        pasted = nil
        lastPasteEnd = nil
        return .paste(String(decoding: bytes[..<end.lowerBound], as: UTF8.self))
    }

    /// A pause in a paste with no end marker: the bytes so far as text, but for a marker or a
    /// character cut at the pause, which waits for its rest. The paste goes on.
    private mutating func pausedPaste() -> [Key] {
        guard let bytes = pasted else { return [] }
        pastePaused = true
        var kept = (1..<Self.pasteEnd.count).last { bytes.suffix($0).elementsEqual(Self.pasteEnd.prefix($0)) } ?? 0
        if kept == 0, let lead = bytes.suffix(3).lastIndex(where: { $0 & 0xC0 != 0x80 }),
           Self.sequenceLength(bytes[lead]) > bytes.count - lead {
            kept = bytes.count - lead
        }
        pasted = Array(bytes.suffix(kept))
        return kept == bytes.count ? [] : [.paste(String(decoding: bytes.dropLast(kept), as: UTF8.self))]
    }
}
