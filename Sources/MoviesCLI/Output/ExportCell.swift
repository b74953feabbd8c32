import OMDbKit

/// One cell of a `save`d CSV or Markdown file, made safe to open: the text comes from the
/// network, and the file will be opened by spreadsheets and Markdown viewers that act on it.
/// Pure: text in, cell out.
enum ExportCell {
    /// A CSV field (RFC 4180): printable text only (a file that is `cat` must not drive the
    /// terminal), line breaks kept, quoted when it holds a comma, quote or line break, its quotes
    /// doubled (by scalar: "\r\n" is one Character, equal to neither "\r" nor "\n").
    ///
    /// A cell a spreadsheet would run as a formula is neutralised as OWASP's CSV-injection guidance
    /// says: prefixed with a single quote, and quoted. Checked after control characters are
    /// dropped (a title `\u{1}=1+1` must not become a bare `=1+1`), and past leading spaces and
    /// line breaks, which spreadsheets skip.
    static func csv(_ text: String) -> String {
        var field = PrintableText.clean(text, keepingLineBreaks: true)
        let isFormula = isFormulaLike(field)
        if isFormula { field = "'" + field }
        let needsQuotes = isFormula || field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
        return needsQuotes ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }

    /// True when a spreadsheet would take `field` as a formula: its first scalar is a tab or a
    /// CR, or the first past spaces and line breaks is `=`, `+`, `-` or `@`.
    static func isFormulaLike(_ field: String) -> Bool {
        guard let first = field.unicodeScalars.first else { return false }
        if first == "\t" || first == "\r" { return true }
        let skipped: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r"]
        guard let lead = field.unicodeScalars.first(where: { !skipped.contains($0) }) else { return false }
        return ["=", "+", "-", "@"].contains(lead)
    }

    /// A Markdown table cell: one line of printable text, with what Markdown and HTML would act
    /// on escaped. HTML (`<script>`, `<img onerror=…>`) is written as text (`&lt;`), and brackets
    /// are escaped, so no cell is ever a link (`[x](javascript:…)`); `<…>` autolinks are
    /// escaped with the rest of HTML.
    static func markdown(_ text: String?) -> String {
        var cell = ""
        for character in PrintableText.clean((text ?? "").components(separatedBy: .newlines).joined(separator: " ")) {
            switch character {
            case "&": cell += "&amp;"
            case "<": cell += "&lt;"
            case ">": cell += "&gt;"
            case "\\", "|", "[", "]", "`": cell += "\\" + String(character)
            default: cell.append(character)
            }
        }
        return cell
    }
}
