import Foundation

/// The one JSON encoder of every output: keys sorted, slashes as they are, nothing that could drive a terminal.
enum OutputJSON {
    /// `value` on one line (a line of `--json` output).
    static func line(_ value: some Encodable) -> String {
        text(value, pretty: false)
    }

    /// `value` as JSON text; `pretty` for a file a person may read.
    static func text(_ value: some Encodable, pretty: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        // Plain strings, numbers and lists: encoding cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        // Also escapes what JSON leaves as it is (DEL, C1 controls such as CSI, U+2028, U+2029), so no line
        // carries a control sequence; they can only be inside strings.
        var escaped = ""
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                escaped += String(format: "\\u%04x", scalar.value)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
