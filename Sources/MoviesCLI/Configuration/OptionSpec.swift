import Foundation
import OMDbKit

/// One command-line option, described once: the parser, `--help`, the manual page, the completions,
/// README's table and the settings resolver all read its row in ``OptionSpec/all``.
struct OptionSpec: Sendable {
    /// Where an option makes sense.
    enum Scope: Sendable, Equatable {
        /// The prompt and every command.
        case everywhere
        /// Only with these commands (names of ``CommandSpec/all``): `--pages` with `search`.
        case commands([String])
        /// Instead of anything else: `--help`, `--version`.
        case instead

        /// The commands an option of ``commands(_:)`` goes with; none for the others.
        var names: [String] {
            if case .commands(let names) = self { names } else { [] }
        }
    }

    /// What a shell offers for the option's value.
    enum Completion: Sendable, Equatable {
        case none
        case values([String])
        case directories
    }

    let name: String
    var short: String?
    /// `KEY`, shown after the name; `nil` for a flag, which takes no value.
    var placeholder: String?
    /// For a flag that may also take a value in the same word (`--json=FIELDS`): `FIELDS`.
    var inlineValue: String?
    var completion: Completion = .none
    /// The variable that supplies the value when the option is not given.
    var environment: String?
    /// Whether `.env` may supply it too, under that name: for an option with a value (NO_COLOR is Console's alone).
    var dotEnv: Bool { placeholder != nil && environment != nil }
    /// What applies when the option is given nowhere, for people (`10`, `off`).
    var defaultText = ""
    /// One line for `--help`.
    var help: String
    var scope: Scope = .everywhere
    /// The value may be the API key: no message ever shows it.
    var secret = false
    /// Left out of `--help`, the manual page, the completions and README (tools for the build).
    var hidden = false
    /// Stores the value (`nil` for a flag); the last `String` names its source (`OMDB_BASE_URL in .env`) for
    /// messages. A flag's variable (`NO_COLOR`, which Console checks) is only documented.
    let apply: @Sendable (inout Options, String?, String) throws(UsageError) -> Void

    /// `--name PLACEHOLDER` (or `-h, --help`), as `--help` and the manual page show it.
    var synopsis: String {
        let names = [short, name].compactMap { $0 }.joined(separator: ", ")
        return placeholder.map { "\(names) \($0)" } ?? inlineValue.map { "\(names)[=\($0)]" } ?? names
    }

    /// Reads `text` into `options` through ``apply``. A value that may be the key is left out of the error
    /// message: a number is told by its length (`a number of 8 digits`), anything else as looking like a key.
    func read(_ text: String?, into options: inout Options, source: String) throws(UsageError) {
        do {
            try apply(&options, text, source)
        } catch {
            let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            guard let text, !text.isEmpty, secret || Options.mayBeAKey(trimmed) else { throw error }
            // `a number of 8 digits`, `a number of 8 digits and d`: a number's shape without its digits.
            let shape = trimmed.wholeMatch(of: /([0-9]+)([A-Za-z]?)/)
                .map { "a number of \($0.1.count) digits" + ($0.2.isEmpty ? "" : " and \($0.2)") }
            let shown = secret ? nil : shape
            throw UsageError(error.message.replacingOccurrences(of: "\"\(text)\"", with: shown ?? "a value that looks like a key (not shown)")
                .replacingOccurrences(of: text, with: "(not shown)"))
        }
    }

    /// `with search: ` before the help of an option that goes only with some commands.
    var scopePrefix: String { scope.names.isEmpty ? "" : "with \(scope.names.joined(separator: " or ")): " }

    // MARK: Building rows

    /// An option with a value, stored at `keyPath` once `parse` accepts it.
    static func value<T>(_ name: String, _ placeholder: String, help: String, default defaultText: String = "",
                         completion: Completion = .none, environment: String? = nil,
                         scope: Scope = .everywhere, secret: Bool = false, into keyPath: WritableKeyPath<Options, T> & Sendable,
                         parse: @escaping @Sendable (_ text: String, _ source: String) throws(UsageError) -> T) -> OptionSpec {
        OptionSpec(name: name, placeholder: placeholder, completion: completion, environment: environment,
                   defaultText: defaultText, help: help, scope: scope, secret: secret,
                   apply: { (options: inout Options, text: String?, source: String) throws(UsageError) in
                       options[keyPath: keyPath] = try parse(text ?? "", source)
                   })
    }

    /// A flag that sets the `Bool` at `keyPath` to `value`.
    static func flag(_ name: String, short: String? = nil, help: String, default defaultText: String = "",
                     environment: String? = nil, scope: Scope = .everywhere,
                     into keyPath: WritableKeyPath<Options, Bool> & Sendable, _ value: Bool = true) -> OptionSpec {
        OptionSpec(name: name, short: short, environment: environment, defaultText: defaultText, help: help,
                   scope: scope, apply: { options, _, _ in options[keyPath: keyPath] = value })
    }

    /// A flag that asks for something other than a search (`--help`, `--version`).
    static func mode(_ name: String, short: String? = nil, help: String, hidden: Bool = false, _ mode: Options.Mode) -> OptionSpec {
        OptionSpec(name: name, short: short, help: help, scope: .instead, hidden: hidden,
                   apply: { options, _, _ in options.mode = mode })
    }
}

/// A word after `movies` that picks what to do: `search`, `completions`, `manpage`.
struct CommandSpec: Sendable {
    let name: String
    /// What follows the name in a synopsis (`QUERY...`).
    let arguments: String
    let help: String
    /// Values a shell offers for its first argument.
    var values: [String] = []
}
