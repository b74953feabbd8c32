import Foundation

/// How a one-shot writes each result for a script, as gh does: `--json[=FIELDS]` or `--format TEMPLATE`,
/// both over the JSON object a result encodes to.
enum LineFormat: Equatable, Sendable {
    /// One JSON object a line: every key (`nil`), or only these, in every line even when null.
    case json(fields: [String]?)
    /// One line from a template a result.
    case template(LineTemplate)

    /// `value` as one line of output, without its line break (a template may hold `\n`).
    func line(_ value: some Encodable) -> String {
        switch self {
        case .json(nil):
            return OutputJSON.line(value)
        case .json(let fields?):
            let object = JSONValue.object(of: value)
            return OutputJSON.line(Dictionary(fields.map { ($0, object[$0] ?? .null) }, uniquingKeysWith: { first, _ in first }))
        case .template(let template):
            return template.render(JSONValue.object(of: value))
        }
    }

    /// The keys of a line of `command`'s output: what `--json=FIELDS`, `--fields` and `--format` may name.
    static func fieldNames(of command: String) -> [String] {
        switch command {
        case "episodes": EpisodeOutput.CodingKeys.allCases.map(\.stringValue)
        case "catalogue": catalogueFields
        // One title asked for by name: no search page, no rank in it.
        case "show": RecordOutput.CodingKeys.allCases.map(\.stringValue).filter { $0 != "page" && $0 != "rank" }
        default: RecordOutput.CodingKeys.allCases.map(\.stringValue)
        }
    }

    /// The keys of a line of `movies catalogue` (``Session/output(_:)``).
    static let catalogueFields = ["imdbID", "title", "year", "type"]

    /// Refuses a name this format asks for that is not in `valid`, listing those that are; a name that may be
    /// the API key is not shown.
    func check(against valid: [String], command: String) throws(UsageError) {
        let named = switch self {
        case .json(let fields): fields ?? []
        case .template(let template): template.fields
        }
        let unknown = named.filter { !valid.contains($0) }
        guard !unknown.isEmpty else { return }
        let option = if case .template = self { "--format" } else { "--json" }
        let shown = unknown.map { Options.mayBeAKey($0) ? "(not shown: it may be a key)" : "\"\($0)\"" }
        throw UsageError("unknown field\(unknown.count == 1 ? "" : "s") \(Set(shown).sorted().joined(separator: ", ")) for \(option): "
            + "movies \(command) has \(valid.sorted().joined(separator: ", "))")
    }
}

/// `--format`'s template: text with `{field}` for a key of each line's JSON object, and `\t`, `\n`, `\\`.
/// A brace around anything but a name is text.
struct LineTemplate: Equatable, Sendable {
    enum Part: Equatable, Sendable {
        case text(String)
        case field(String)
    }

    let parts: [Part]

    init(_ template: String) {
        var parts: [Part] = []
        var text = ""
        var rest = Substring(template)
        while let character = rest.popFirst() {
            if character == "\\", let next = rest.first, let escaped = ["t": "\t", "n": "\n", "\\": "\\"][next] {
                text += escaped
                rest.removeFirst()
            } else if character == "{", let match = rest.prefixMatch(of: /\s*([A-Za-z][A-Za-z0-9_]*)\s*\}/) {
                if !text.isEmpty { parts.append(.text(text)) }
                text = ""
                parts.append(.field(String(match.1)))
                rest = rest[match.range.upperBound...]
            } else {
                text.append(character)
            }
        }
        if !text.isEmpty { parts.append(.text(text)) }
        self.parts = parts
    }

    /// The names in braces, in order.
    var fields: [String] {
        parts.compactMap { if case .field(let name) = $0 { name } else { nil } }
    }

    /// The template with each name replaced by its value in `object` (``JSONValue/text``).
    func render(_ object: [String: JSONValue]) -> String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .field(let name): (object[name] ?? .null).text
            }
        }.joined()
    }
}

/// A value of an output line's JSON object, read back to pick keys from and fill templates with.
enum JSONValue: Codable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int.self) { self = .int(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The keys and values `value` encodes to; empty for a value that is no JSON object.
    static func object(of value: some Encodable) -> [String: JSONValue] {
        let data = Data(OutputJSON.line(value).utf8)
        return (try? JSONDecoder().decode([String: JSONValue].self, from: data)) ?? [:]
    }

    /// As a template shows it: printable text, nothing for null, anything else as one line of JSON.
    var text: String {
        switch self {
        case .null: ""
        case .string(let text): safe(text)
        case .bool, .int, .double, .array, .object: OutputJSON.line(self)
        }
    }
}
