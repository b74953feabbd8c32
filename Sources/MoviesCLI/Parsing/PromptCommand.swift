import Foundation

/// One of the prompt's commands. `help`, the manual page, Tab and the words never searched for all
/// read ``all``, so a command added here is in each of them.
struct PromptCommand: Sendable {
    /// The words that run it, its name first. Empty for what is no command word (a title, a link) or
    /// another use of the entry above.
    let words: [String]
    /// The left column of `help` (`show LIST`, `more, next`): at most 17 characters.
    let usage: String
    /// A few words for `help`'s list (one line at 50 columns); `nil` for an entry only `help WORD` shows.
    let summary: String?
    /// What it does, all of it: `help WORD` and the manual page.
    let help: String
    /// What follows the command word: what Tab offers, and what a typo of this word must be followed by.
    var argument: Argument = .nothing

    enum Argument: Equatable, Sendable {
        /// Nothing (`more`).
        case nothing
        /// One of these words, or a number (`type movie`, `year 1999`, `catalogue 2`), or nothing.
        case values([String])
        /// A folder (`posters DIR`), `off`, or nothing.
        case folder
        /// A row list (`show 1-3`, `page 2`, `episodes 1 2`).
        case rows
        /// A folder after a row list (`poster 1-3 DIR`).
        case folderAfterRows
        /// A file to write (`save movies.csv`).
        case file
        /// Any text (`search TEXT`).
        case text
        /// A command word, or nothing (`help save`).
        case command
    }

    init(_ words: [String], _ usage: String, _ summary: String?, _ help: String, argument: Argument = .nothing) {
        self.words = words
        self.usage = usage
        self.summary = summary
        self.help = help
        self.argument = argument
    }

    /// The entry whose words include `word` (lowercased), if any.
    static func named(_ word: String) -> PromptCommand? {
        let word = word.lowercased()
        return all.first { $0.words.contains(word) }
    }

    /// The prompt's commands, in `help`'s order; an entry with no words is another use of the one above.
    static let all: [PromptCommand] = [
        PromptCommand([], "TEXT", "search OMDb for TEXT", "search for TEXT (with the current type and year filters)"),
        PromptCommand(["search"], "search TEXT", "search a command word or 300",
                      "search for TEXT even when it starts with a command word (search more) or is a row's number (search 300)",
                      argument: .text),
        PromptCommand(["more", "next", "n"], "more, next, n", "the next page",
                      "load the next page of results; n alone (followed by other words, n begins a title)"),
        PromptCommand(["prev", "previous", "p", "first"], "prev, p, first", "back a page, or to page 1",
                      "prev (previous, or p alone): the page before; first: the first page; a page shown before comes back from memory, with no request"),
        PromptCommand(["page"], "page N", "page N of the results",
                      "page N of the results: from memory when shown before, else just that page", argument: .rows),
        PromptCommand(["show"], "show LIST", "all about rows: show 1-3",
                      "everything about those results: full plot, ratings, director, actors, runtime, genre; a LIST is a result number (show 2), a range (1-3), or both (1,3-4 or 2 5)",
                      argument: .rows),
        PromptCommand([], "N", "row N, or a search for N",
                      "a number alone: row N, as show N; a number no row has is searched for as a title (1917, 300)"),
        PromptCommand([], "tt0076759, LINK", "all about an IMDb title",
                      "an IMDb ID or a title's IMDb link (pasted from a browser): everything about that title, as show N; show tt0076759 says the same"),
        PromptCommand(["posters"], "posters DIR", "save posters there; or off",
                      "save posters into DIR (created if missing); posters off to stop; posters to see where", argument: .folder),
        PromptCommand([], "posters DIR W", nil,
                      "the same, W pixels wide: 300 (OMDb's), 600, 1000 or original; a wider poster replaces the narrower file (names never carry the width); if the wider one fails, OMDb's own is saved and the row says so"),
        PromptCommand(["poster"], "poster LIST [DIR]", "save those rows' posters",
                      "save the posters of those results only, into DIR, else the posters folder, else the working folder",
                      argument: .folderAfterRows),
        PromptCommand(["episodes"], "episodes LIST [S]", "season S of those series",
                      "the episodes of season S (default 1) of those results, series; the LIST has no spaces here (2, 1-3 or 1,3), as a last word is the season; show and open take the episodes' numbers",
                      argument: .rows),
        PromptCommand(["save", "save!"], "save FILE", "the rows to .json, .csv, .md",
                      "save the current search's rows (every page loaded, with their ratings) to FILE: .json, .csv or .md by its extension; save FILE --session saves every movie shown this session; an existing file is never replaced silently: save! FILE (or save FILE --force) replaces it",
                      argument: .file),
        PromptCommand(["open", "o"], "open LIST, o LIST", "those rows' IMDb pages",
                      "open those results' IMDb pages with the system's opener (or print the addresses); more than 5 at once are asked about first",
                      argument: .rows),
        PromptCommand(["type"], "type T", "movie, series, episode, any",
                      "filter next searches: movie, series, episode or any; type alone says the current one",
                      argument: .values(["movie", "series", "episode", "any"])),
        PromptCommand(["year"], "year YYYY", "filter by year, or any",
                      "filter next searches by year, or year any; year alone says the current one", argument: .values(["any"])),
        PromptCommand(["plot"], "plot short|full", "plot length in the rows",
                      "plot length in result rows; plot alone says the current one", argument: .values(["short", "full"])),
        PromptCommand(["quota"], "quota", "requests sent today",
                      "requests sent today with the key (OMDb allows 1,000 a day on a free key)"),
        PromptCommand(["cache"], "cache", "answers kept; cache clear",
                      "the answers kept on disk; cache clear empties it", argument: .values(["clear"])),
        PromptCommand(["catalogue", "catalog"], "catalogue [N]", "the offline titles, numbered",
                      "page N of the titles the offline catalogue holds, numbered as a search's rows: show N, open N and poster N take them, next and prev walk the pages (catalog works too)",
                      argument: .values([])),
        PromptCommand(["help"], "help [WORD]", "all about one; help keys",
                      "this list; help WORD says all about that command (help save), help keys the keys of the line editor",
                      argument: .command),
        PromptCommand(["quit", "exit"], "quit, exit", "leave (Ctrl-D too)",
                      "leave (so does Ctrl-D); Ctrl-C stops a page that is loading"),
    ]
}

extension PromptCommand.Argument {
    /// Whether `rest`, what follows a command word, reads as this argument: a typo of a command is
    /// taken for it only when the rest fits (`svae x.csv`), so a title near a command word is still searched.
    func accepts(_ rest: String) -> Bool {
        switch self {
        case .nothing: return rest.isEmpty
        case .values(let values): return rest.isEmpty || values.contains(rest.lowercased()) || rest.allSatisfy { $0.isASCII && $0.isNumber }
        case .folder:
            return rest.isEmpty || ["off", "none"].contains(rest.lowercased()) || Command.folderAndWidth(rest) != nil
                || rest.contains("/") || rest.hasPrefix("~")
        case .rows: return RowList(rest) != nil
        case .folderAfterRows: return rest.split(separator: " ").first.map { RowList(String($0)) != nil } ?? false
        case .file:
            // The file's name, without `--force` or `--session`.
            let name = Command.unquoted(rest.split(separator: " ").filter { !$0.hasPrefix("--") }.joined(separator: " "))
            return !name.isEmpty && ExportFormat(file: URL(fileURLWithPath: name)) != nil
        case .text: return true
        case .command: return rest.isEmpty || PromptCommand.named(rest) != nil
        }
    }
}
