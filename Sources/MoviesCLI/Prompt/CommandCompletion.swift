import Foundation
import LineEditing

/// The prompt's completions: command words at the start of a line, the values of `type` and
/// `plot`, and folders after `posters`.
enum CommandCompletion {
    /// The completer the line editor gets, listing folders on disk relative to `base` (`~` is `home`).
    static func fileSystem(base: URL, home: URL?) -> Completer {
        completer { directory in
            var path = directory.isEmpty ? "." : directory
            if path == "~" || path.hasPrefix("~/"), let home { path = home.path + path.dropFirst() }
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { name in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isFolder) && isFolder.boolValue
            }.sorted()
        }
    }

    /// A completer whose folders (names only) inside a directory come from `folders`.
    static func completer(folders: @escaping @Sendable (_ directory: String) -> [String]) -> Completer {
        Completer { before in complete(before, folders: folders) }
    }

    /// Completions of the word that ends `before` (the text left of the cursor): where that
    /// word starts (in characters), and the full replacements for it, each with the space or
    /// slash that follows.
    static func complete(_ before: String, folders: (String) -> [String]) -> (start: Int, choices: [String]) {
        let words = before.split(separator: " ", omittingEmptySubsequences: false)
        let current = String(words.last ?? "")
        let start = before.count - current.count
        let earlier = words.dropLast().filter { !$0.isEmpty }.map { $0.lowercased() }
        switch earlier.first {
        case nil:
            let commands = Command.words.sorted()
            return (start, commands.filter { $0.hasPrefix(current.lowercased()) }.map { $0 + " " })
        case "type" where earlier.count == 1:
            return (start, ["movie", "series", "episode", "any"].filter { $0.hasPrefix(current.lowercased()) }.map { $0 + " " })
        case "plot" where earlier.count == 1:
            return (start, ["short", "full"].filter { $0.hasPrefix(current.lowercased()) }.map { $0 + " " })
        case "posters" where earlier.count == 1:
            let slash = current.lastIndex(of: "/")
            let directory = slash.map { String(current[...$0]) } ?? ""
            let name = slash.map { String(current[current.index(after: $0)...]) } ?? current
            // Hidden folders only when asked for with a leading dot.
            let matches = folders(directory).filter { $0.hasPrefix(name) && (name.hasPrefix(".") || !$0.hasPrefix(".")) }
            // A name with control characters cannot be typed back safely: never offered.
            return (start, matches.filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }.map { directory + $0 + "/" })
        default:
            return (start, [])
        }
    }
}
