#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Foundation
import OMDbKit

/// Where the front end writes: results to stdout, diagnostics to stderr, each with its own
/// colour setting, and the width to wrap plots to. Tests build one that writes into buffers.
public struct Console: Sendable {
    let writeOut: @Sendable (String) -> Void
    let writeErr: @Sendable (String) -> Void
    /// Colour for stdout text.
    let style: Style
    /// Colour for stderr text.
    let errorStyle: Style
    /// Columns to wrap to.
    let width: Int
    /// True when a person is typing at a terminal: prompts are shown only then.
    let isInteractive: Bool

    public init(writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
                style: Style = .plain, errorStyle: Style = .plain, width: Int = 80, isInteractive: Bool = false) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.style = style
        self.errorStyle = errorStyle
        self.width = width
        self.isInteractive = isInteractive
    }

    /// A line of results on stdout.
    func out(_ line: String = "") { writeOut(line + "\n") }
    /// A line of diagnostics on stderr.
    func err(_ line: String) { writeErr(line + "\n") }
    /// An error on stderr, one line, marked.
    func error(_ message: String) { err(errorStyle.red("error: ") + message) }
    /// A warning on stderr.
    func note(_ message: String) { err(errorStyle.dim(message)) }

    /// The real terminal: colour only on a terminal without `NO_COLOR` (or `--no-color`), and
    /// stdout flushed after every write so a pipe sees lines as they come.
    public static func standard(environment: [String: String], noColor: Bool = false) -> Console {
        let colorAllowed = !noColor && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        return Console(
            writeOut: { text in fputs(text, stdout); fflush(stdout) },
            writeErr: { text in fputs(text, stderr); fflush(stderr) },
            style: Style(enabled: colorAllowed && isatty(STDOUT_FILENO) == 1),
            errorStyle: Style(enabled: colorAllowed && isatty(STDERR_FILENO) == 1),
            width: terminalWidth(environment: environment),
            isInteractive: isatty(STDIN_FILENO) == 1)
    }

    static func terminalWidth(environment: [String: String]) -> Int {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        return Int(environment["COLUMNS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 80
    }
}

/// ANSI styling that is either on or off; off gives the text back untouched.
public struct Style: Sendable {
    public let enabled: Bool
    public static let plain = Style(enabled: false)

    public init(enabled: Bool) { self.enabled = enabled }

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// Word-wraps `text` to `width` columns, each line after `indent`.
func wrap(_ text: String, width: Int, indent: String) -> [String] {
    let room = max(20, width - indent.count)
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
        if !line.isEmpty, line.count + 1 + word.count > room {
            lines.append(indent + line)
            line = ""
        }
        line += line.isEmpty ? String(word) : " " + word
    }
    if !line.isEmpty { lines.append(indent + line) }
    return lines
}

/// Network text, safe for a terminal.
func safe(_ text: String) -> String { PrintableText.clean(text) }
