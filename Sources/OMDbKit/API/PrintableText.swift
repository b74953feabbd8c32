import Foundation

/// Text from the network made safe to print or to use in a name.
package enum PrintableText {
    /// `text` without control characters (C0, DEL, C1: so no escape sequences) or bidirectional
    /// overrides; tabs and line breaks become spaces and runs of white space fold to one.
    /// - Parameters:
    ///   - text: any text, from OMDb or a file.
    ///   - keepingLineBreaks: keep `\n` and `\r` as they are (a CSV field quotes them).
    package static func clean(_ text: String, keepingLineBreaks: Bool = false) -> String {
        var scalars = String.UnicodeScalarView()
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            if keepingLineBreaks, scalar == "\n" || scalar == "\r" {
                scalars.append(scalar)
                lastWasSpace = false
            } else if scalar.properties.isWhitespace {
                // One plain space for a run, none at the start.
                if !lastWasSpace, !scalars.isEmpty {
                    scalars.append(" ")
                    lastWasSpace = true
                }
            } else if scalar.properties.generalCategory != .control, !isBidiControl(scalar) {
                scalars.append(scalar)
                lastWasSpace = false
            }
        }
        // None at the end.
        if lastWasSpace { scalars.removeLast() }
        return String(scalars)
    }

    /// A search as typed or pasted, made into the text that is sent and quoted back: NFC (a
    /// decomposed "é" is the precomposed one), Unicode spaces (NBSP, thin, ideographic) a plain
    /// space, zero-width characters and bidi controls dropped, no control characters. One text
    /// for both, so a message never quotes something other than what was asked.
    package static func query(_ text: String) -> String {
        let scalars = String.UnicodeScalarView(text.unicodeScalars.filter { !isZeroWidth($0) })
        return clean(String(scalars)).precomposedStringWithCanonicalMapping
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B...0x200D, 0x2060, 0xFEFF: true
        default: false
        }
    }

    private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
