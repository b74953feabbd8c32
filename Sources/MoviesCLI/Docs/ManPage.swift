import Foundation
import OMDbKit

/// movies(1) in roff (`movies manpage`), from the options, commands and prompt commands tables.
extension Manual {
    static var manPage: String {
        var page: [String] = [
            ".TH MOVIES 1 \"\" \"movies \(OMDbKit.version)\" \"User Commands\"",
            ".SH NAME", "movies \\- " + roff(summary),
            ".SH SYNOPSIS",
            ".B movies", "[\\fIoptions\\fR]",
        ]
        for command in CommandSpec.all {
            // No empty line after a bare command: in roff it is a blank line inside the synopsis.
            let rest = (command.arguments.isEmpty ? "" : "\\fI\(roff(command.arguments))\\fR ")
                + (OptionSpec.lineCommands.names.contains(command.name) ? "[\\fIoptions\\fR]" : "")
            page += [".br", ".B movies \(command.name)"] + (rest.isEmpty ? [] : [rest])
        }
        page += [
            ".SH DESCRIPTION",
            roff("movies searches OMDb for titles. Without a command it runs a prompt: type a title, and the first page of results shows at once; each row then fills in with its plot as it arrives, and posters are saved into the folder chosen with --posters."),
            ".PP",
            roff("With no API key (or with --offline) it answers from the offline catalogue installed with it: the prompt and every read command (search, show, episodes) alike, saying so once on stderr unless --quiet; movies catalogue lists what it holds. Given a --base-url but no key, a read command stops with status 2 instead. Settings come from the options, then the environment, then a .env file in the working directory."),
            ".PP",
            roff("For scripts, search, show, episodes and catalogue write one JSON object a result with --json (only the keys named with --json=title,year or --fields), or one line a result from a --format template; --quiet keeps notes and warnings off stderr."),
            ".SH COMMANDS",
        ]
        for command in CommandSpec.all {
            page += [".TP", ".B \(command.name)" + (command.arguments.isEmpty ? "" : " \\fI\(roff(command.arguments))\\fR"), roff(command.help)]
        }
        page.append(".SH OPTIONS")
        for spec in OptionSpec.visible {
            let names = [spec.short, spec.name].compactMap { $0 }.map { "\\fB\(roff($0))\\fR" }.joined(separator: ", ")
            page += [".TP", names + (spec.placeholder.map { " \\fI\(roff($0))\\fR" } ?? ""), roff(helpLine(for: spec))]
        }
        page.append(".SH PROMPT COMMANDS")
        for command in PromptCommand.all {
            page += [".TP", ".B " + roff(command.usage), roff(command.help)]
        }
        page.append(".SH ENVIRONMENT")
        for spec in OptionSpec.visible {
            guard let variable = spec.environment else { continue }
            let also = spec.dotEnv ? "; also read from .env" : ""
            page += [".TP", ".B \(variable)", roff("as \(spec.name) when it is not given\(also).")]
        }
        page += [
            ".TP", ".B MOVIES_CATALOGUE", roff("the folder holding the offline catalogue (catalogue.json and posters/)."),
            ".SH FILES",
            ".TP", ".I .env", roff("KEY=VALUE lines in the working directory; a base URL there is used only with a key from the same file."),
            ".TP", ".I <bin>/../share/movies", roff("the offline catalogue, found beside the installed binary."),
            ".SH EXIT STATUS",
        ]
        for (status, meaning) in exitStatuses {
            page += [".TP", ".B \(roff(status))", roff(meaning)]
        }
        page += [
            ".SH EXAMPLES",
            ".nf", roff("movies --posters ~/posters"), roff("movies search star wars --pages 2 --json --offline"), roff("movies show https://www.imdb.com/title/tt0076759/ --json"),
            roff("movies search alien --json=title,year"), roff("movies search alien -q --format '{imdbID}\\t{title} ({year})' | fzf"),
            roff("movies completions bash > ~/.local/share/bash-completion/completions/movies"), ".fi",
            ".SH SEE ALSO", "https://www.omdbapi.com/",
        ]
        return page.joined(separator: "\n") + "\n"
    }

    /// `text` safe as roff body text: backslashes and dashes escaped, no line read as a request.
    static func roff(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
