import Foundation
import OMDbKit

/// Parsing for `episodes`, `save`, `open`, `poster`, `page` and `catalogue`, and the width in `posters DIR WIDTH`.
extension Command {
    /// The command for `word` (one of the words of this file), or `nil` when it is not one of them.
    static func parseMore(_ word: String, _ rest: String, searchInstead: String) -> Command? {
        switch word {
        case "episodes":
            // A last word after a space is the season (`episodes 3 2`); the list has commas and dashes (`episodes 1,3 2`).
            var parts = rest.split(separator: " ").map(String.init)
            let usage = "episodes takes a result number and a season, such as episodes 3 or episodes 3 2 (several: episodes 1,3 2)"
            var season: Int?
            if parts.count > 1 {
                guard let number = Int(parts.removeLast()), number >= 0 else {
                    return .invalid(hint: "episodes takes a season number, such as episodes \(parts.joined(separator: " ")) 2, not \"\(rest.split(separator: " ").last!)\"")
                }
                season = number
            }
            guard parts.count == 1, let list = RowList(parts[0]) else {
                return .invalid(hint: usage + (rest.isEmpty ? "" : searchInstead))
            }
            return .episodes(list, season: season)
        case "poster":
            return poster(rest)
        case "page":
            guard let number = Int(rest), number >= 1 else {
                return .invalid(hint: "page takes a page number, such as page 3" + (rest.isEmpty ? "" : searchInstead))
            }
            return .page(number)
        case "catalogue", "catalog":
            guard rest.isEmpty || Int(rest).map({ $0 >= 1 }) == true else {
                return .invalid(hint: "catalogue takes a page number, such as catalogue 2" + searchInstead)
            }
            return .catalogue(page: Int(rest) ?? 1)
        case "save", "save!":
            var file = rest
            var force = word == "save!"
            var session = false
            // `--force` and `--session` after the file, in either order.
            while let flag = ["--force", "--session"].first(where: { file.hasSuffix(" " + $0) || file == $0 }) {
                if flag == "--force" { force = true } else { session = true }
                file = String(file.dropLast(flag.count)).trimmingCharacters(in: .whitespaces)
            }
            file = unquoted(file)
            guard !file.trimmingCharacters(in: .whitespaces).isEmpty else {
                return .invalid(hint: "save needs a file: save movies.json, save movies.csv or save movies.md (add --session for everything shown this session)")
            }
            return .save(file, force: force, session: session)
        case "open":
            guard let list = RowList(rest) else {
                return .invalid(hint: "open takes a result number, such as open 3, or several, such as open 1-3" + (rest.isEmpty ? "" : searchInstead))
            }
            return .open(list)
        default:
            return nil
        }
    }

    /// `poster LIST [DIR]`: the words that read as row numbers, then the folder (quotes allowed).
    private static func poster(_ rest: String) -> Command {
        let usage = Command.invalid(hint: "poster takes a result number and a folder, such as poster 2 or poster 2 shots (several: poster 1-3 shots)")
        var words = rest.split(separator: " ", omittingEmptySubsequences: true)[...]
        var listed: [Substring] = []
        while let word = words.first, RowList(String(word)) != nil {
            listed.append(word)
            words = words.dropFirst()
        }
        guard let list = RowList(listed.joined(separator: " ")) else { return usage }
        let folder = unquoted(words.joined(separator: " "))
        return .poster(list, folder: folder.isEmpty ? nil : folder)
    }

    /// `DIR WIDTH` when the last word is a width (`posters shots 600`); `nil` otherwise.
    static func folderAndWidth(_ rest: String) -> (String, PosterWidth)? {
        guard let space = rest.lastIndex(of: " "), let width = PosterWidth(String(rest[rest.index(after: space)...])) else { return nil }
        let folder = unquoted(rest[..<space].trimmingCharacters(in: .whitespaces))
        return folder.isEmpty ? nil : (folder, width)
    }
}
