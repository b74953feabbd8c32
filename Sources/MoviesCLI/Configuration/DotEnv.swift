import Files
import Foundation

/// Reads a `.env` file as dotenv users expect: `KEY=VALUE` lines, `#` comments, `export`, single quotes
/// literal, double quotes with `\"`, `\\`, `\n`, `\t`, `\r`, CR LF and a byte order mark. A line that
/// cannot be read is skipped with a warning that names its number, never its text (it may hold the key).
enum DotEnv {
    /// The variables of a file, and what to say about it at the start.
    struct Parsed: Equatable, Sendable {
        /// Later lines win over earlier ones with the same key.
        var values: [String: String] = [:]
        /// Each line skipped (`.env line 3 skipped: its quote is not closed.`), or why the file was not read
        /// at all: one that may have been planted to steer the tool is not used.
        var notices: [String] = []
    }

    /// No `.env` is larger: a larger file is not one.
    static let maximumBytes = 64 * 1_024

    /// The variables in `directory/.env` and the lines skipped; nothing but why for a file not trusted.
    static func read(from directory: URL) -> Parsed {
        do throws(AtomicFile.Problem) {
            guard let data = try AtomicFile(directory.appendingPathComponent(".env")).contents(upTo: maximumBytes) else { return Parsed() }
            return read(data)
        } catch {
            return Parsed(notices: ["Not using \(safe(error.path)): \(safe(error.reason))\(error.advice.map { "; \(safe($0))" } ?? "")."])
        }
    }

    static func read(_ data: Data) -> Parsed {
        var body = [UInt8](data)
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        var parsed = Parsed()
        // Split on LF only, so a line number is what an editor shows; a CR before it is dropped.
        for (index, rawLine) in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            var lineBytes = rawLine
            if lineBytes.last == UInt8(ascii: "\r") { lineBytes.removeLast() }
            do throws(Skipped) {
                guard let line = String(validating: lineBytes, as: UTF8.self) else { throw Skipped(reason: "it is not UTF-8 text") }
                if let (key, value) = try parseLine(line) { parsed.values[key] = value }
            } catch {
                parsed.notices.append(".env line \(index + 1) skipped: \(error.reason).")
            }
        }
        return parsed
    }

    /// Why a line was skipped (never quoting it).
    struct Skipped: Error { let reason: String }

    /// One line's pair; `nil` for a comment or a blank line.
    static func parseLine(_ text: String) throws(Skipped) -> (String, String)? {
        var line = Substring(text.trimmingCharacters(in: .whitespaces))
        if line.isEmpty || line.hasPrefix("#") { return nil }
        if line.hasPrefix("export"), let next = line.dropFirst(6).first, next == " " || next == "\t" {
            line = Substring(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        guard let equals = line.firstIndex(of: "=") else { throw Skipped(reason: "it has no \"=\"") }
        let key = line[..<equals].trimmingCharacters(in: .whitespaces)
        guard key.first?.isNumber == false, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
            throw Skipped(reason: "the name before \"=\" is not a variable name (letters, digits, _)")
        }
        return (key, try value(Substring(line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces))))
    }

    /// The value after `=`: quoted (single: literal; double: with escapes) or bare (up to a ` #` comment).
    static func value(_ text: Substring) throws(Skipped) -> String {
        guard let quote = text.first, quote == "\"" || quote == "'" else {
            // A bare value ends at a comment that follows a blank.
            let end = text.indices.dropFirst().first { text[$0] == "#" && [" ", "\t"].contains(text[text.index(before: $0)]) }
                ?? text.endIndex
            return text[..<end].trimmingCharacters(in: .whitespaces)
        }
        var value = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == quote {
                let after = text[text.index(after: index)...].trimmingCharacters(in: .whitespaces)
                guard after.isEmpty || after.hasPrefix("#") else {
                    throw Skipped(reason: "there is text after the closing quote")
                }
                return value
            }
            if quote == "\"", character == "\\", text.index(after: index) < text.endIndex {
                index = text.index(after: index)
                let escaped: Character = text[index]
                value += ["n": "\n", "t": "\t", "r": "\r", "\"": "\"", "\\": "\\"][escaped] ?? "\\\(escaped)"
            } else {
                value.append(character)
            }
            index = text.index(after: index)
        }
        throw Skipped(reason: "its quote is not closed")
    }
}
