import Foundation
import LineEditing

/// The prompt's completions, from ``PromptCommand/all``: command words at the start of a line,
/// the values of `type`, `year`, `plot` and `cache`, and folders after `posters` and `poster LIST`.
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
        guard let first = earlier.first else {
            let commands = Command.words.sorted()
            return (start, commands.filter { $0.hasPrefix(current.lowercased()) }.map { $0 + " " })
        }
        switch PromptCommand.named(first)?.argument {
        case .values(let values)? where earlier.count == 1:
            return (start, values.filter { $0.hasPrefix(current.lowercased()) }.map { $0 + " " })
        case .command? where earlier.count == 1:
            let names = PromptCommand.all.compactMap(\.words.first) + ["keys"]
            return (start, names.sorted().filter { $0.hasPrefix(current.lowercased()) }.map { $0 + " " })
        case .folder? where earlier.count == 1:
            return (start, folderChoices(current, folders: folders))
        case .folderAfterRows? where earlier.count > 1 && earlier.dropFirst().allSatisfy({ RowList($0) != nil }):
            return (start, folderChoices(current, folders: folders))
        default:
            return (start, [])
        }
    }

    /// The folders whose names start with `current` (which may hold a path: `shots/in`).
    private static func folderChoices(_ current: String, folders: (String) -> [String]) -> [String] {
        let slash = current.lastIndex(of: "/")
        let directory = slash.map { String(current[...$0]) } ?? ""
        let name = slash.map { String(current[current.index(after: $0)...]) } ?? current
        // Hidden folders only when asked for with a leading dot.
        let matches = folders(directory).filter { $0.hasPrefix(name) && (name.hasPrefix(".") || !$0.hasPrefix(".")) }
        // A name with control characters cannot be typed back safely: never offered.
        return matches.filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }.map { directory + $0 + "/" }
    }
}
