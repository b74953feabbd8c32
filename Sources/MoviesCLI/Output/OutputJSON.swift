import Foundation

/// The one JSON encoder of every output (`search`, `show` and `episodes --json`, `save FILE.json`):
/// keys sorted, slashes as they are, and no character that could drive a terminal.
enum OutputJSON {
    /// `value` on one line (a line of `--json` output).
    static func line(_ value: some Encodable) -> String {
        text(value, pretty: false)
    }

    /// `value` as JSON text; `pretty` for a file a person may read.
    static func text(_ value: some Encodable, pretty: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        // Every output type is plain strings, numbers and lists: encoding them cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        return escapingTerminalControls(String(decoding: data, as: UTF8.self))
    }

    /// JSON escapes C0 controls but not C1 (U+0080–U+009F, such as CSI), DEL or the line and
    /// paragraph separators: escaped too, so a line shown on a terminal never carries a control
    /// sequence. They can only be inside strings, so the whole text is safe to rewrite.
    static func escapingTerminalControls(_ json: String) -> String {
        var escaped = ""
        for scalar in json.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                escaped += String(format: "\\u%04x", scalar.value)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
