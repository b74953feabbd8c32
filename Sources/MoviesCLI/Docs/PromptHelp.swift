import Foundation

/// The prompt's `help` (a line a command, to fit 24 rows) and `help WORD` (all about one command).
enum PromptHelp {
    /// Where descriptions start.
    static let column = 20

    /// One line a command; on a screen too narrow for one, it goes on under its description.
    static func overview(width: Int) -> String {
        PromptCommand.all.flatMap { entry in
            entry.summary.map { Manual.hanging("  " + entry.usage, $0, column: column, width: width) } ?? []
        }.joined(separator: "\n")
    }

    /// All about the command `word` names, with its other forms under it; `help keys`, the editor's
    /// keys. `nil` for any other word.
    static func detail(_ word: String, width: Int) -> String? {
        if word.lowercased() == "keys" { return wrap(keys, width: width, indent: "").joined(separator: "\n") }
        guard let start = PromptCommand.all.firstIndex(where: { $0.words.contains(word.lowercased()) }) else { return nil }
        let entries = [PromptCommand.all[start]] + PromptCommand.all[(start + 1)...].prefix { $0.words.isEmpty }
        return entries.flatMap { Manual.hanging("  " + $0.usage, $0.help, column: column, width: width) }.joined(separator: "\n")
    }

    static let keys = """
        At a terminal: arrows, Home/End and Ctrl-A/E/K/U/W/Y edit the line; Up/Down walk the history \
        and Ctrl-R searches it; Tab completes commands, the values of type, year, plot and cache, the \
        words help knows, folders after posters and poster LIST, and folders and files after save.
        """
}
