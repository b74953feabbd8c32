import Foundation
import OMDbKit

/// Parsing for `episodes`, `save` and `open`, and the width in `posters DIR WIDTH`.
extension Command {
    /// The command for `word` (one of the words of this file), or `nil` when it is not one of them.
    static func parseMore(_ word: String, _ rest: String, searchInstead: String) -> Command? {
        switch word {
        case "episodes":
            let parts = rest.split(separator: " ").map(String.init)
            guard (1...2).contains(parts.count), let number = Int(parts[0]), number >= 1 else {
                return .invalid(hint: "episodes takes a result number and a season, such as episodes 3 or episodes 3 2" + (rest.isEmpty ? "" : searchInstead))
            }
            guard parts.count == 2 else { return .episodes(number, season: nil) }
            guard let season = Int(parts[1]), season >= 0 else {
                return .invalid(hint: "episodes takes a season number, such as episodes \(number) 2, not \"\(parts[1])\"")
            }
            return .episodes(number, season: season)
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
            guard let number = Int(rest), number >= 1 else {
                return .invalid(hint: "open takes a result number, such as open 3" + (rest.isEmpty ? "" : searchInstead))
            }
            return .open(number)
        default:
            return nil
        }
    }

    /// `DIR WIDTH` when the last word is a width (`posters shots 600`); `nil` otherwise.
    static func folderAndWidth(_ rest: String) -> (String, PosterWidth)? {
        guard let space = rest.lastIndex(of: " "), let width = PosterWidth(String(rest[rest.index(after: space)...])) else { return nil }
        let folder = unquoted(rest[..<space].trimmingCharacters(in: .whitespaces))
        return folder.isEmpty ? nil : (folder, width)
    }
}
