import Foundation
import LineEditing

/// The prompt's Tab completions, from ``PromptCommand/all``: command words, their values, folders, and
/// the files `save` writes.
enum CommandCompletion {
    /// The completer the line editor gets, listing folders and files on disk relative to `base` (`~` is `home`).
    static func fileSystem(base: URL, home: URL?) -> Completer {
        // The names in `directory` that are folders (or, `folders` false, files that are not).
        let list = { @Sendable (directory: String, folders: Bool) -> [String] in
            var path = directory.isEmpty ? "." : directory
            if path == "~" || path.hasPrefix("~/"), let home { path = home.path + path.dropFirst() }
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { name in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isFolder) && isFolder.boolValue == folders
            }.sorted()
        }
        return completer(folders: { list($0, true) }, files: { list($0, false) })
    }

    /// A completer whose folders and files (names only) inside a directory come from `folders` and `files`.
    static func completer(folders: @escaping @Sendable (_ directory: String) -> [String],
                          files: @escaping @Sendable (_ directory: String) -> [String] = { _ in [] }) -> Completer {
        { before in complete(before, folders: folders, files: files) }
    }

    /// Completions of the word left of the cursor, as a ``Completer`` returns them.
    static func complete(_ before: String, folders: (String) -> [String],
                         files: (String) -> [String] = { _ in [] }) -> (start: Int, choices: [String]) {
        let words = before.split(separator: " ", omittingEmptySubsequences: false)
        let current = String(words.last ?? "")
        let start = before.count - current.count
        let earlier = words.dropLast().filter { !$0.isEmpty }.map { $0.lowercased() }
        // The words of `list` that start with the one typed, with the space after them.
        func choices(_ list: [String]) -> (start: Int, choices: [String]) {
            (start, list.filter { $0.hasPrefix(current.lowercased()) }.map { $0 + " " })
        }
        guard let first = earlier.first else { return choices(Command.words.sorted()) }
        switch PromptCommand.named(first)?.argument {
        case .values(let values)? where earlier.count == 1:
            return choices(values)
        case .command? where earlier.count == 1:
            return choices((PromptCommand.all.compactMap(\.words.first) + ["keys"]).sorted())
        case .file? where earlier.count == 1:
            // The files save writes, completed with the space after them, beside the folders.
            let saved = pathChoices(current, names: files).filter { ExportFormat(file: URL(fileURLWithPath: $0)) != nil }
            return (start, (folderChoices(current, folders: folders) + saved.map { $0 + " " }).sorted())
        case .folder? where earlier.count == 1,
             .folderAfterRows? where earlier.count > 1 && earlier.dropFirst().allSatisfy({ RowList($0) != nil }):
            return (start, folderChoices(current, folders: folders))
        default:
            return (start, [])
        }
    }

    /// The folders whose names start with `current` (which may hold a path: `shots/in`).
    private static func folderChoices(_ current: String, folders: (String) -> [String]) -> [String] {
        pathChoices(current, names: folders).map { $0 + "/" }
    }

    /// The paths of the names `names` lists in `current`'s folder that start with its last part.
    private static func pathChoices(_ current: String, names: (String) -> [String]) -> [String] {
        let slash = current.lastIndex(of: "/")
        let directory = slash.map { String(current[...$0]) } ?? ""
        let name = slash.map { String(current[current.index(after: $0)...]) } ?? current
        // Hidden names only when asked for with a leading dot.
        let matches = names(directory).filter { $0.hasPrefix(name) && (name.hasPrefix(".") || !$0.hasPrefix(".")) }
        // A name with control characters cannot be typed back safely: never offered.
        return matches.filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }.map { directory + $0 }
    }
}
