import Foundation
import Synchronization

/// Which poster files a folder holds, by imdbID: built from one listing the first time it is
/// asked, then kept current as posters are saved, so finding an earlier copy costs O(1) however
/// many files the folder holds.
final class PosterIndex: Sendable {
    /// File names by their `[imdbID].ext` ending; `nil` until the folder was listed.
    private let names = Mutex<[String: String]?>(nil)
    let folder: URL

    init(folder: URL) { self.folder = folder }

    /// The name of a file in the folder whose name ends with one of `endings`, if any.
    /// A name the index holds but the disk no longer has (deleted meanwhile) is forgotten.
    func file(endingWith endings: [String]) -> String? {
        let found: String? = names.withLock { names in
            if names == nil { names = Self.list(folder) }
            let index = names ?? [:]
            return endings.lazy.compactMap { index[$0] }.first
        }
        guard let found else { return nil }
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(found).path) else {
            names.withLock { names in names = names?.filter { $0.value != found } }
            return nil
        }
        return found
    }

    /// Records a file just saved.
    func add(_ name: String) {
        names.withLock { names in
            guard names != nil, let ending = Self.ending(of: name) else { return }
            names?[ending] = name
        }
    }

    /// `[tt0090190].jpg` of `The Toxic Avenger (1984) [tt0090190].jpg`.
    static func ending(of name: String) -> String? {
        guard !name.hasPrefix("."), let open = name.lastIndex(of: "[") else { return nil }
        return String(name[open...])
    }

    private static func list(_ folder: URL) -> [String: String] {
        var index: [String: String] = [:]
        // Sorted, so the choice among duplicates is the same on every run.
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() {
            if let ending = ending(of: name), index[ending] == nil { index[ending] = name }
        }
        return index
    }
}
