import Foundation
import OMDbKit

/// The texts about `movies` written from the options table: `--help`, movies(1), README's options table.
enum Manual {
    static let summary = "search the Open Movie Database (OMDb) from a prompt"

    /// Exit statuses and what they mean, for `--help` and the manual page.
    static let exitStatuses: [(status: String, meaning: String)] = [
        ("0", "success, including a search with no results, and leaving the prompt"),
        ("1", "a failure at run time: key rejected, quota spent, server unreachable, a limit (ulimit) too low for a run; movies show found no such title, movies episodes nothing to list"),
        ("2", "a usage error: unknown option, bad value, a field --json or --format does not have, movies search, show or episodes given a --base-url but no key, a key shorter than 8 characters"),
        ("130", "interrupted by Ctrl-C"),
        ("141", "stdout was closed by its reader (as by head)"),
        ("143, 129", "stopped by SIGTERM or SIGHUP"),
    ]

    // MARK: --help

    static var helpText: String {
        let usage = [("movies [options]", "the prompt: type a title, more, prev, show LIST, help, quit")]
            + CommandSpec.all.map { command in
                let options = OptionSpec.lineCommands.names.contains(command.name) ? "[options]" : ""
                return ([("movies " + command.name), command.arguments, options].filter { !$0.isEmpty }.joined(separator: " "), command.help)
            }
        let options = OptionSpec.visible.map { ($0.synopsis, helpLine(for: $0)) }
        return """
        movies: \(summary).

        Usage:
        \(columns(usage, width: 38))

        Options:
        \(columns(options, width: 22))

        With no key, the prompt and every read command (search, show, episodes) answer from the
        offline catalogue, saying so once on stderr (not with --quiet); movies catalogue lists it.
        Settings come from the options, then the environment, then a .env file in the working
        directory (see .env.example).
        Requests go through the system's libcurl, as curl's do: HTTPS_PROXY, ALL_PROXY and NO_PROXY
        are honoured, CURL_CA_BUNDLE or SSL_CERT_FILE (and SSL_CERT_DIR) name the CA certificates,
        and MOVIES_LIBCURL names a libcurl to load instead of the system's.

        Exit status:
        \(columns(exitStatuses.map { ($0.status, $0.meaning) }, width: 9))
        """
    }

    /// The row's help, with where else its value comes from and its default.
    static func helpLine(for spec: OptionSpec) -> String {
        var extra: [String] = []
        if spec.placeholder != nil, let variable = spec.environment {
            extra.append("$\(variable)" + (spec.dotEnv ? " or .env" : ""))
        }
        if spec.placeholder != nil, !spec.defaultText.isEmpty { extra.append("default \(spec.defaultText)") }
        return spec.scopePrefix + spec.help + (extra.isEmpty ? "" : " (\(extra.joined(separator: "; ")))")
    }

    /// Two columns, the right one wrapped to 100 columns under itself; a left one too wide pushes its first line on.
    private static func columns(_ rows: [(String, String)], width: Int) -> String {
        rows.flatMap { left, right in
            hanging("  " + left + (left.count < width ? "" : "   "), right, column: width + 3, width: 100)
        }.joined(separator: "\n")
    }

    /// `left` padded to `column`, then `right` wrapped to `width` under itself (`help`'s lines too).
    static func hanging(_ left: String, _ right: String, column: Int, width: Int) -> [String] {
        let lines = wrap(right, width: width, indent: String(repeating: " ", count: column))
        let padded = left.padding(toLength: max(column, left.count), withPad: " ", startingAt: 0)
        return [padded + lines[0].dropFirst(column)] + lines.dropFirst()
    }

    // MARK: README

    /// README's table of options, between its markers (`movies --help-markdown`).
    static var optionsMarkdown: String {
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var lines = ["| option | environment | default | what it does |", "|---|---|---|---|"]
        for spec in OptionSpec.visible {
            let variable = spec.environment.map { "`\($0)`" + (spec.dotEnv ? " or `.env`" : "") } ?? ""
            let what = spec.scopePrefix + spec.help
            lines.append("| `\(cell(spec.synopsis))` | \(variable) | \(cell(spec.defaultText)) | \(cell(what)) |")
        }
        return lines.joined(separator: "\n")
    }
}
