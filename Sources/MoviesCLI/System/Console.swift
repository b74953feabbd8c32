#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Foundation
import OMDbKit
import LineEditing

/// Where the front end writes: results to stdout, diagnostics to stderr, each with its own colour, and
/// the width to wrap to. Tests build one that writes into buffers.
struct Console: Sendable {
    let writeOut: @Sendable (String) -> Void
    let writeErr: @Sendable (String) -> Void
    /// Colour for stdout text.
    var style = Style.plain
    /// Colour for stderr text.
    var errorStyle = Style.plain
    /// Columns to wrap to, measured at every use: the window can be resized at any time.
    var width: Int { measureWidth() }
    var measureWidth: @Sendable () -> Int = { 80 }
    /// True when a person is typing at a terminal: prompts are shown only then.
    var isInteractive = false
    /// Columns of the terminal on stderr, read at every use; `nil` when stderr is no terminal.
    var errorWidth: @Sendable () -> Int? = { nil }
    /// Columns of the terminal on stdout, read at every use; `nil` when stdout is no terminal.
    var outputWidth: @Sendable () -> Int? = { nil }
    /// stdout is a terminal that takes cursor codes (not `TERM=dumb`): a page fills in place, with colour or not.
    var drawsLive = false
    /// `--quiet`: notes and warnings are left out; errors, and why nothing was found, still show.
    var quiet = false

    /// A line of results on stdout.
    func out(_ line: String = "") { writeOut(line + "\n") }
    func out(_ lines: [String]) { for line in lines { out(line) } }
    /// Prose on stdout (`quota`, `cache`), broken between words at the terminal's width.
    func say(_ text: String) { writeOut(Self.fitted(text, width: outputWidth()).joined(separator: "\n") + "\n") }
    /// A line of diagnostics on stderr.
    func err(_ line: String) { writeErr(fitted(line).joined(separator: "\n") + "\n") }
    /// An error on stderr, marked.
    func error(_ message: String) {
        let lines = fitted("error: " + message)
        writeErr(errorStyle.red("error: ") + lines.joined(separator: "\n").dropFirst("error: ".count) + "\n")
    }
    /// A note or warning on stderr; none with ``quiet``.
    func note(_ message: String) {
        guard !quiet else { return }
        writeErr(fitted(message).map { errorStyle.dim($0) }.joined(separator: "\n") + "\n")
    }

    private func fitted(_ text: String) -> [String] { Self.fitted(text, width: errorWidth()) }

    /// `text` (unstyled) in lines that fit `width` columns, broken between words rather than wherever the
    /// terminal's last column falls. Each line keeps its indent; `width` nil leaves the text as it is.
    static func fitted(_ text: String, width: Int?) -> [String] {
        guard let width else { return [text] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            guard displayWidth(line) > width else { return [String(line)] }
            let indent = String(line.prefix { $0 == " " })
            return wrap(String(line.dropFirst(indent.count)), width: width, indent: indent)
        }
    }

    /// The real terminal: colour only on a terminal without `NO_COLOR` (or `--no-color`), stdout written
    /// unbuffered, each text whole. A reader gone (EPIPE) stops the tool quietly with 141; any other failed
    /// write stops it with one line and status 1.
    static func standard(environment: [String: String], noColor: Bool = false, quiet: Bool = false, runtime: Runtime) -> Console {
        let colorAllowed = !noColor && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        let (output, interrupts) = (runtime.output, runtime.interrupts)
        return Console(
            writeOut: { text in
                guard let failure = output.writeAll(text) else { return }
                if failure == EPIPE { interrupts.stop(status: .outputClosed) }
                interrupts.outputFailed(failure)
            },
            writeErr: { text in fputs(text, stderr); fflush(stderr) },
            style: Style(enabled: colorAllowed && isatty(STDOUT_FILENO) == 1),
            errorStyle: Style(enabled: colorAllowed && isatty(STDERR_FILENO) == 1),
            measureWidth: { Terminal.size()?.columns ?? Int(environment["COLUMNS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 80 },
            isInteractive: isatty(STDIN_FILENO) == 1, errorWidth: { Terminal.size(of: STDERR_FILENO)?.columns },
            outputWidth: { Terminal.size()?.columns },
            drawsLive: isatty(STDOUT_FILENO) == 1 && environment["TERM"] != "dumb", quiet: quiet)
    }
}

/// ANSI styling that is either on or off; off gives the text back untouched.
struct Style: Sendable {
    let enabled: Bool
    static let plain = Style(enabled: false)

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

/// Word-wraps `text` to `width` display columns, each line after `indent`; a word longer than a line is
/// broken (never inside an escape sequence), so no line is wider than `width` while it leaves 10 after `indent`.
func wrap(_ text: String, width: Int, indent: String) -> [String] {
    let room = max(10, width - displayWidth(indent))
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    func endLine() {
        if !line.isEmpty { lines.append(indent + line) }
        line = ""
        lineWidth = 0
    }
    for word in text.split(separator: " ") {
        let wordWidth = displayWidth(word)
        if !line.isEmpty, lineWidth + 1 + wordWidth > room { endLine() }
        if wordWidth <= room {
            if !line.isEmpty {
                line += " "
                lineWidth += 1
            }
            line += word
            lineWidth += wordWidth
            continue
        }
        // Longer than a whole line: break it, filling each line.
        endLine()
        for run in terminalRuns(word) {
            if run.isEscape {
                line += run.text
                continue
            }
            for character in run.text {
                let columns = displayWidth(character)
                if lineWidth + columns > room { endLine() }
                line.append(character)
                lineWidth += columns
            }
        }
    }
    endLine()
    return lines
}

/// `phrases` joined by `separator` and wrapped to `width` columns after `indent`, breaking only between
/// phrases (a phrase longer than a line, between its words); no separator where a line breaks.
func wrap(phrases: [String], separator: String = " · ", width: Int, indent: String) -> [String] {
    let room = max(10, width - displayWidth(indent))
    var lines: [String] = []
    var line = ""
    for phrase in phrases where !phrase.isEmpty {
        if line.isEmpty {
            line = phrase
        } else if displayWidth(line) + displayWidth(separator) + displayWidth(phrase) <= room {
            line += separator + phrase
        } else {
            lines.append(line)
            line = phrase
        }
        // Too long for a line of its own: its words wrap, and the last line goes on.
        if displayWidth(line) > room {
            var broken = wrap(line, width: room, indent: "")
            line = broken.removeLast()
            lines += broken
        }
    }
    if !line.isEmpty { lines.append(line) }
    return lines.map { indent + $0 }
}

/// Network text, safe for a terminal.
func safe(_ text: String) -> String { PrintableText.clean(text) }

extension [String] {
    /// `A`, `A and B`, `A, B and C` (or another `conjunction`).
    func inWords(_ conjunction: String = "and") -> String {
        guard count > 1 else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " \(conjunction) " + self[count - 1]
    }
}
