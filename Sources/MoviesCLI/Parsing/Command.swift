import Foundation
import OMDbKit

/// One line typed at the prompt.
enum Command: Equatable, Sendable {
    case search(String)
    /// `more` or `next`: the page after the one shown.
    case more
    /// `prev`: the page before the one shown, from memory.
    case previousPage
    /// `page N` (`first`: page 1): page N of the search, from memory when it was loaded, else just that page.
    case page(Int)
    /// `show LIST`: everything about each of those results.
    case show(RowList)
    /// A number alone: that row, as `show N`, when one has that number; else a search (`1917`, `300`).
    case number(Int)
    /// An IMDb ID or title link, alone or after `show`: that title's details.
    case showTitle(imdbID: String)
    /// `posters DIR [WIDTH]`: save posters into DIR (at that width); `nil` is `posters off`.
    case posters(String?, width: PosterWidth? = nil)
    /// `posters` alone: where posters go now.
    case postersStatus
    /// `episodes LIST [SEASON]`: the episodes of each of those results' season (`nil`: season 1).
    case episodes(RowList, season: Int?)
    /// `poster LIST [DIR]`: the posters of those rows only, saved into DIR (`nil`: the posters folder, else here).
    case poster(RowList, folder: String?)
    /// `catalogue [N]`: page N of the titles the offline catalogue holds.
    case catalogue(page: Int)
    /// `save FILE`: the current search's rows; `session` (`--session`): every movie shown. `force`
    /// (`save!`, `--force`) replaces an existing file.
    case save(String, force: Bool, session: Bool = false)
    /// `open LIST`: those results' IMDb pages in the browser.
    case open(RowList)
    /// `nil` is `type any`.
    case type(SearchType?)
    /// `nil` is `year any`.
    case year(Int?)
    case plot(PlotLength)
    /// `type`, `year` or `plot` typed alone: say what it is now and how to change it.
    case typeStatus, yearStatus, plotStatus
    case quota
    case cache(clear: Bool)
    /// `help`, or with a word `help WORD`: all about that command (`help keys`: the keys).
    case help(String?)
    case quit
    /// An empty line: nothing happens.
    case nothing
    /// A command word used wrongly: the hint says how to use it.
    case invalid(hint: String)

    /// The words that are commands (``PromptCommand/all``'s); any other text is a search.
    static let words = Set(PromptCommand.all.flatMap(\.words))

    /// Reads one line. Never fails: a malformed command becomes ``invalid(hint:)``.
    init(parsing line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { self = .nothing; return }
        let parts = trimmed.split(separator: " ", maxSplits: 1)
        let word = parts[0].lowercased()
        let rest = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""

        if word.count > 1, let first = word.first, first == "/" || first == ":", word.dropFirst().allSatisfy(\.isLetter) {
            self = .invalid(hint: "unknown command \"\(trimmed)\": type help for the commands, or search TEXT to search for it")
            return
        }
        // Digits as typed, with no leading zero (`007` is a title, never row 7).
        if trimmed.first != "0", trimmed.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(trimmed) {
            self = .number(number)
            return
        }
        // Pasted from a browser: a title's ID or link is looked up, never searched for as text.
        switch IMDbReference(trimmed) {
        case .title(let id)?: self = .showTitle(imdbID: id); return
        case .notATitle(let why)?: self = .invalid(hint: why); return
        case nil: break
        }
        guard Command.words.contains(word) || word == "?" else {
            // A slip of the hand on a command word followed by what it takes (`moer`, `shwo 2`) runs
            // nothing, rather than a search that would replace the page. An accent (`caché`) is on purpose.
            let candidates = !word.allSatisfy({ $0.isASCII && $0.isLetter }) ? []
                : PromptCommand.all.filter { $0.argument.accepts(rest) }.flatMap(\.words)
            if let command = DidYouMean.closest(to: word, among: candidates, slips: true) {
                let shown = PrintableText.clean(trimmed)
                self = .invalid(hint: "\"\(shown)\" is not a command: did you mean \(command)? To search for it, type: search \(shown)")
                return
            }
            // Search for what will be shown: no NUL or Escape (arrow keys without line editing).
            let text = PrintableText.clean(trimmed)
            self = text.isEmpty ? .nothing : .search(text)
            return
        }
        let searchInstead = "; to search for that text, type: search \(trimmed)"
        func noArguments(_ command: Command) -> Command {
            rest.isEmpty ? command : .invalid(hint: "\(word) takes nothing" + searchInstead)
        }

        switch word {
        case "search":
            let text = PrintableText.clean(rest)
            self = text.isEmpty ? .invalid(hint: "search needs text: search TEXT") : .search(text)
        case "more", "next": self = noArguments(.more)
        // ddgr's one-letter keys, alone or before a row list (`o 1-3`); before other words they begin a title (`n sync`).
        case "n" where rest.isEmpty: self = .more
        case "p" where rest.isEmpty: self = .previousPage
        case "o" where rest.isEmpty: self = .invalid(hint: "o takes a result number, as open does: o 3, or several, such as o 1-3")
        case "o" where RowList(rest) != nil: self = .open(RowList(rest)!)
        // Numbers that name no row (`o 0`): a slip for open, not a title.
        case "o" where rest.allSatisfy({ $0.isASCII && ($0.isNumber || ", -".contains($0)) }):
            self = .invalid(hint: "o takes result numbers from 1, as open does: o 3, or several, such as o 1-3" + searchInstead)
        case "prev", "previous": self = noArguments(.previousPage)
        case "first": self = noArguments(.page(1))
        case "help", "?":
            if rest.isEmpty {
                self = .help(nil)
            } else if PromptCommand.named(rest) != nil || rest.lowercased() == "keys" {
                self = .help(rest)
            } else {
                self = .invalid(hint: "help takes a command word (help save), keys, or nothing" + searchInstead)
            }
        case "quit", "exit": self = noArguments(.quit)
        case "quota": self = noArguments(.quota)
        case "cache":
            switch rest.lowercased() {
            case "": self = .cache(clear: false)
            case "clear": self = .cache(clear: true)
            default: self = .invalid(hint: "cache takes nothing, or clear to empty it" + searchInstead)
            }
        case "show":
            if let list = RowList(rest) {
                self = .show(list)
            } else if let reference = IMDbReference(rest) {
                switch reference {
                case .title(let id): self = .showTitle(imdbID: id)
                case .notATitle(let why): self = .invalid(hint: why)
                }
            } else {
                self = .invalid(hint: "show takes a result number, such as show 3, or several, such as show 1-3" + (rest.isEmpty ? "" : searchInstead))
            }
        case "posters":
            switch rest.lowercased() {
            case "": self = .postersStatus
            case "off", "none": self = .posters(nil)
            case _ where Command.folderAndWidth(rest) != nil:
                let (folder, width) = Command.folderAndWidth(rest)!
                self = .posters(folder, width: width)
            default:
                let folder = Command.unquoted(rest)
                self = folder.trimmingCharacters(in: .whitespaces).isEmpty
                    ? .invalid(hint: "posters needs a folder: posters DIR to save posters there, posters off to stop")
                    : .posters(folder)
            }
        case "type" where rest.isEmpty: self = .typeStatus
        case "year" where rest.isEmpty: self = .yearStatus
        case "plot" where rest.isEmpty: self = .plotStatus
        case "type":
            do { self = .type(try parseType(rest, source: "type")) } catch { self = .invalid(hint: error.message + searchInstead) }
        case "year":
            do { self = .year(try parseYear(rest, source: "year")) } catch { self = .invalid(hint: error.message + searchInstead) }
        case "plot":
            do { self = .plot(try parseChoice("short or full")(rest, "plot")) } catch { self = .invalid(hint: error.message + searchInstead) }
        case "episodes":
            // A last word after a space is the season (`episodes 3 2`); the list has commas and dashes (`episodes 1,3 2`).
            var parts = rest.split(separator: " ").map(String.init)
            let season = parts.count > 1 ? parts.removeLast() : nil
            if let season, (Int(season) ?? -1) < 0 {
                self = .invalid(hint: "episodes takes a season number, such as episodes \(parts.joined(separator: " ")) 2, not \"\(season)\"")
            } else if parts.count == 1, let list = RowList(parts[0]) {
                self = .episodes(list, season: season.flatMap { Int($0) })
            } else {
                self = .invalid(hint: "episodes takes a result number and a season, such as episodes 3 or episodes 3 2 (several: episodes 1,3 2)"
                    + (rest.isEmpty ? "" : searchInstead))
            }
        case "poster": self = Command.poster(rest)
        case "page":
            let number = Int(rest) ?? 0
            self = number >= 1 ? .page(number)
                : .invalid(hint: "page takes a page number, such as page 3" + (rest.isEmpty ? "" : searchInstead))
        case "catalogue", "catalog":
            let page = rest.isEmpty ? 1 : Int(rest) ?? 0
            self = page >= 1 ? .catalogue(page: page)
                : .invalid(hint: "catalogue takes a page number, such as catalogue 2" + searchInstead)
        case "save", "save!":
            var file = rest
            var force = word == "save!"
            var session = false
            // `--force` and `--session` after the file, in either order.
            while let flag = ["--force", "--session"].first(where: { file.hasSuffix(" " + $0) || file == $0 }) {
                if flag == "--force" { force = true } else { session = true }
                file = String(file.dropLast(flag.count)).trimmingCharacters(in: .whitespaces)
            }
            file = Command.unquoted(file)
            self = file.trimmingCharacters(in: .whitespaces).isEmpty
                ? .invalid(hint: "save needs a file: save movies.json, save movies.csv or save movies.md (add --session for everything shown this session)")
                : .save(file, force: force, session: session)
        case "open":
            self = RowList(rest).map { .open($0) }
                ?? .invalid(hint: "open takes a result number, such as open 3, or several, such as open 1-3" + (rest.isEmpty ? "" : searchInstead))
        default:
            self = .search(PrintableText.clean(trimmed))
        }
    }

    /// `poster LIST [DIR]`: the words that read as row numbers, then the folder (quotes allowed).
    private static func poster(_ rest: String) -> Command {
        var words = rest.split(separator: " ", omittingEmptySubsequences: true)[...]
        var listed: [Substring] = []
        while let word = words.first, RowList(String(word)) != nil {
            listed.append(word)
            words = words.dropFirst()
        }
        guard let list = RowList(listed.joined(separator: " ")) else {
            return .invalid(hint: "poster takes a result number and a folder, such as poster 2 or poster 2 shots (several: poster 1-3 shots)")
        }
        let folder = unquoted(words.joined(separator: " "))
        return .poster(list, folder: folder.isEmpty ? nil : folder)
    }

    /// `DIR WIDTH` when the last word is a width (`posters shots 600`); `nil` otherwise.
    static func folderAndWidth(_ rest: String) -> (String, PosterWidth)? {
        guard let space = rest.lastIndex(of: " "), let width = PosterWidth(String(rest[rest.index(after: space)...])) else { return nil }
        let folder = unquoted(rest[..<space].trimmingCharacters(in: .whitespaces))
        return folder.isEmpty ? nil : (folder, width)
    }

    static func unquoted(_ text: String) -> String {
        if text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first {
            return String(text.dropFirst().dropLast())
        }
        return text
    }
}
