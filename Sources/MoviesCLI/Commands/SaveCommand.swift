import Foundation
import OMDbKit
import Files

/// `save FILE`: the current search (with `--session`, every movie shown) to a JSON, CSV or Markdown file.
extension Session {
    /// Writes the current search's loaded rows (with `session`, every movie shown) to `file` atomically, in
    /// the format its extension names; rows that never loaded are left out, and said to be. An existing
    /// file is replaced only with `force` or a yes at a terminal.
    /// - Returns: `.failure` when the file could not be written; a refusal is an answer, not a failure.
    func save(_ file: String, force: Bool, session wholeSession: Bool = false) async -> ExitStatus {
        let url = URL(fileURLWithPath: Settings.posterFolder(file, relativeTo: context.currentDirectory, home: settings.home).path)
        guard let format = ExportFormat(file: url) else {
            console.err("save writes .json, .csv or .md files: give \"\(safe(file))\" one of those extensions.")
            return .success
        }
        guard !context.exportLog.entries.isEmpty else {
            console.err("Nothing to save yet: search for a title first.")
            return .success
        }
        let (entries, leftOut) = wholeSession ? (context.exportLog.entries, 0) : currentSearchEntries()
        guard !entries.isEmpty else {
            let shown = context.exportLog.entries.count
            let others = " save \(safe(file)) --session saves the \(shown) movie\(shown == 1 ? "" : "s") shown this session."
            console.err(leftOut > 0 ? "Nothing to save: none of the \(leftOut) rows of this search loaded." + others
                        : "No search on screen to save: search for a title first." + others)
            return .success
        }
        // The file really written: a symlink is followed only as `cp` would (the user's, naming a file).
        let existing: URL?
        do throws(AtomicFile.Problem) {
            existing = try AtomicFile(url).existingFile()
        } catch {
            if case .notARegularFile(let path, let kind) = error {
                if kind == "a folder", path == url.path {
                    console.err("\"\(safe(file))\" is a folder: give save a file name, such as save \(safe(file))/movies.\(url.pathExtension).")
                } else {
                    // A device or FIFO is never replaced nor written to (a FIFO would hang the prompt).
                    let reached = path == url.path ? "" : "\(safe(path)): "
                    console.err("\(safe(file)) is not a file (\(reached)\(safe(error.reason))), so nothing was saved: give save the name of a file.")
                }
                return .success
            }
            console.error("Nothing was saved: \(safe(error.path)): \(safe(error.reason)). \(safe(Self.capitalized(error.advice ?? "give save another path"))).")
            return .failure
        }
        if let existing, !force {
            let named = existing.path == url.path ? safe(file) : "\(safe(file)) (a link to \(safe(existing.path)))"
            // Asked only of a person at a terminal: a script's next line is no answer.
            guard console.isInteractive, await answersYes("\(named) exists. Replace it? (y/N) ") else {
                console.err("\(named) exists, so nothing was saved: save! \(safe(file)) (or save \(safe(file)) --force) replaces it.")
                return .success
            }
        }
        // The folder named as typed, not by the temporary file's name, which means nothing to a person.
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            let typed = (file as NSString).deletingLastPathComponent
            console.error("Nothing was saved: there is no folder \(safe(typed.isEmpty ? folder.standardizedFileURL.path : typed)). Create it first, or give save another path.")
            return .failure
        }
        do throws(AtomicFile.Problem) {
            // What a killed save left there goes first.
            let target = AtomicFile(url)
            target.removeLeftTemporaries(everyFile: true)
            try target.write(format.render(entries), permissions: 0o666)
            let left = leftOut == 0 ? "" : " \(leftOut) row\(leftOut == 1 ? "" : "s") that never loaded \(leftOut == 1 ? "was" : "were") left out."
            console.out("Saved \(entries.count) movie\(entries.count == 1 ? "" : "s") to \(safe(url.path))." + left)
            return .success
        } catch {
            let tooLong = error.reason == String(cString: strerror(ENAMETOOLONG))
            let advice = error.advice ?? (tooLong ? "give save a shorter name" : "check that its folder can be written")
            console.error("Could not save \(safe(file)): \(safe(error.reason)). \(safe(Self.capitalized(advice))).")
            return .failure
        }
    }

    /// `advice` capitalised, unless it is a command (`chmod go-w …`).
    static func capitalized(_ advice: String) -> String {
        advice.hasPrefix("chmod") ? advice : advice.prefix(1).uppercased() + advice.dropFirst()
    }

    /// The current search's loaded rows (a failed lookup included), with what `show` added, in number
    /// order with their page and rank in this search; and how many never loaded.
    func currentSearchEntries() -> (entries: [ExportLog.Entry], leftOut: Int) {
        var entries: [ExportLog.Entry] = []
        var seen: Set<String> = []
        var leftOut = 0
        for row in searchController.rows where !row.isEpisode {
            guard row.record != nil else { leftOut += 1; continue }
            guard seen.insert(row.item.imdbID).inserted else { continue }
            var entry = context.exportLog.entry(for: row.item.imdbID)
                ?? ExportLog.Entry(item: row.item, movie: row.movie, poster: row.savedPoster?.file)
            entry.page = (row.number - 1) / SearchPage.size + 1
            entry.rank = row.number
            entries.append(entry)
        }
        return (entries, leftOut)
    }
}
