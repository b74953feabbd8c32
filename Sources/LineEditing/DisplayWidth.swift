import Foundation

/// Terminal columns `text` takes: the one width measure for wrapping, clipping and the editor's cursor.
/// Per grapheme cluster, as wide as its widest scalar: 2 for East Asian Wide/Fullwidth and emoji, 0 for
/// zero-width scalars only (combining marks, U+200B, joiners, variation selectors), else 1. Escape
/// sequences take none (``terminalRuns(_:)``).
public func displayWidth(_ text: some StringProtocol) -> Int {
    terminalRuns(Substring(text)).reduce(0) { total, run in
        run.isEscape ? total : run.text.reduce(total) { $0 + displayWidth($1) }
    }
}

/// `text` as runs of text and the escape sequences between them, which take no column and must never
/// be split (a break inside `ESC [ 0 m` prints `[0m`). A sequence is CSI (`ESC [` to its final byte),
/// OSC/DCS/APC (`ESC ]`, `ESC P`, `ESC _` to BEL or `ESC \`), or `ESC` and one character.
public func terminalRuns(_ text: Substring) -> [(text: Substring, isEscape: Bool)] {
    guard text.unicodeScalars.contains("\u{1B}") else { return [(text, false)] }
    var runs: [(text: Substring, isEscape: Bool)] = []
    let scalars = text.unicodeScalars
    var start = scalars.startIndex
    var index = start
    while index < scalars.endIndex {
        guard scalars[index] == "\u{1B}" else {
            index = scalars.index(after: index)
            continue
        }
        if start < index { runs.append((Substring(scalars[start..<index]), false)) }
        let end = escapeEnd(scalars, from: index)
        runs.append((Substring(scalars[index..<end]), true))
        start = end
        index = end
    }
    if start < scalars.endIndex { runs.append((Substring(scalars[start...]), false)) }
    return runs
}

/// Where the escape sequence at `start` ends, or the text's end when it is cut short.
private func escapeEnd(_ scalars: Substring.UnicodeScalarView, from start: Substring.UnicodeScalarView.Index) -> Substring.UnicodeScalarView.Index {
    var index = scalars.index(after: start)
    guard index < scalars.endIndex else { return index }
    let kind = scalars[index]
    index = scalars.index(after: index)
    switch kind {
    case "[":
        while index < scalars.endIndex {
            let value = scalars[index].value
            index = scalars.index(after: index)
            if (0x40...0x7E).contains(value) { break }
        }
    case "]", "P", "_":
        while index < scalars.endIndex {
            let scalar = scalars[index]
            index = scalars.index(after: index)
            if scalar == "\u{07}" { break }
            if scalar == "\u{1B}", index < scalars.endIndex, scalars[index] == "\\" {
                index = scalars.index(after: index)
                break
            }
        }
    default: break
    }
    return index
}

public func displayWidth(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    // An emoji asked for as a picture (U+FE0F) takes two columns, whatever its base.
    if scalars.contains(where: { $0.value == 0xFE0F }), scalars.contains(where: { $0.properties.isEmoji }) { return 2 }
    return scalars.reduce(0) { max($0, displayWidth($1)) }
}

public func displayWidth(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    // Variation selectors, zero-width space, Hangul medial vowels and final consonants (they join the syllable before).
    if (0xFE00...0xFE0F).contains(value) || value == 0x200B || (0x1160...0x11FF).contains(value) { return 0 }
    if scalar.properties.isEmojiPresentation { return 2 }
    for range in wideRanges where range.contains(value) { return 2 }
    return 1
}

/// East Asian Wide (W) and Fullwidth (F) blocks.
private let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
]
