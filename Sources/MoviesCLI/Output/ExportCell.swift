import OMDbKit

/// One cell of a `save`d CSV or Markdown file, made safe for the spreadsheets and viewers that open it:
/// its text comes from the network.
enum ExportCell {
    /// A CSV field (RFC 4180): printable text and line breaks, quoted when it holds a comma, quote or line
    /// break (checked by scalar: "\r\n" is one Character), quotes doubled. A would-be formula is prefixed
    /// with a quote, as OWASP advises, checked after control characters are dropped (`\u{1}=1+1`).
    static func csv(_ text: String) -> String {
        var field = PrintableText.clean(text, keepingLineBreaks: true)
        // A spreadsheet's formula: it starts with a tab or CR, or its first scalar past blanks and line
        // breaks is =, +, - or @.
        let lead = field.unicodeScalars.first { !" \t\n\r".unicodeScalars.contains($0) }
        let isFormula = ["\t", "\r"].contains(field.unicodeScalars.first) || ["=", "+", "-", "@"].contains(lead)
        if isFormula { field = "'" + field }
        let needsQuotes = isFormula || field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
        return needsQuotes ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }

    /// A Markdown table cell: one line of printable text, HTML written as text (`&lt;`) and brackets
    /// escaped, so no cell is ever markup or a link (`[x](javascript:…)`).
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
