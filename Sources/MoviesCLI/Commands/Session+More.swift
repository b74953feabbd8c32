import Foundation
import OMDbKit

/// `episodes`, `save`, `open`, and posters drawn by `show`.
extension Session {
    // MARK: Episodes

    /// Lists season `season` (default 1) of result `number`, a series, as new numbered rows.
    func episodes(_ number: Int, season: Int?) async -> ExitStatus {
        guard let row = row(number, for: "episodes") else { return .success }
        if row.item.type != .series {
            console.err("Result \(number) is a \(safe(row.item.type.description)), not a series: episodes takes the number of a series.")
            return .success
        }
        return await listSeason(of: row.item.imdbID, season: season ?? 1, title: row.item.title)
    }

    /// Asks OMDb for the season and shows its episodes, numbered on from the rows already shown.
    /// - Returns: `.failure` when that failed at run time (already reported).
    @discardableResult
    func listSeason(of seriesID: String, season: Int, title: String? = nil) async -> ExitStatus {
        do {
            let list = try await presenter.waiting("Asking \(source) for season \(season) of \(safe(title ?? seriesID))…") {
                try await client.season(imdbID: seriesID, number: season)
            }
            let first = rows.count + 1
            for episode in list.episodes {
                rows.append(Row(item: episode.searchItem, isEpisode: true))
                exportLog.note(episode.searchItem, episode: episode)
            }
            for line in EpisodeList.lines(list, first: first, style: console.style) { console.out(line) }
            return .success
        } catch {
            return report(error)
        }
    }

    /// Why the offline catalogue has no list of season `season` of `seriesID`: it lists the
    /// episodes of a few series only. Said as it is (OMDb's own message sent the person to
    /// `show N` for the number of seasons, which cannot help here).
    static func missingSeason(_ season: Int, of seriesID: String, in catalogue: Catalogue) -> String {
        let title = safe(catalogue.title(of: seriesID) ?? seriesID)
        let listed = catalogue.listedSeasons(of: seriesID)
        guard !listed.isEmpty else {
            return "The offline catalogue has no episode lists for \(title): it has them only for \(Self.inWords(catalogue.seriesWithEpisodes.map(safe)))."
        }
        return "The offline catalogue lists the episodes of \(title) for season\(listed.count == 1 ? "" : "s") "
            + "\(Self.inWords(listed.map(String.init))) only, not season \(season)."
    }

    /// `A`, `A and B`, `A, B and C`.
    static func inWords(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }

    // MARK: Export

    /// Writes the current search's rows (every page of it loaded), or with `session` every movie
    /// shown so far, to `file`, in the format its extension names, atomically. Rows whose record
    /// never came (stopped by Ctrl-C) are left out, and said to be.
    /// An existing file is replaced only when `force` is set or the person says yes at a terminal.
    /// - Returns: `.failure` when the file could not be written; a refusal (no extension, a folder,
    ///   an existing file kept) is an answer, not a failure.
    func save(_ file: String, force: Bool, session wholeSession: Bool = false) async -> ExitStatus {
        let url = URL(fileURLWithPath: Settings.posterFolder(file, relativeTo: currentDirectory, home: settings.home).path)
        guard let format = ExportFormat(file: url) else {
            console.err("save writes .json, .csv or .md files: give \"\(safe(file))\" one of those extensions.")
            return .success
        }
        guard !exportLog.entries.isEmpty else {
            console.err("Nothing to save yet: search for a title first.")
            return .success
        }
        let (entries, leftOut) = wholeSession ? (exportLog.entries, 0) : currentSearchEntries()
        guard !entries.isEmpty else {
            let shown = exportLog.entries.count
            let others = " save \(safe(file)) --session saves the \(shown) movie\(shown == 1 ? "" : "s") shown this session."
            console.err(leftOut > 0 ? "Nothing to save: none of the \(leftOut) rows of this search loaded." + others
                        : "No search on screen to save: search for a title first." + others)
            return .success
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
            if isFolder.boolValue {
                console.err("\"\(safe(file))\" is a folder: give save a file name, such as save \(safe(file))/movies.\(url.pathExtension).")
                return .success
            }
            // A device or a FIFO is never replaced by a file (nor written to: a FIFO would hang the prompt).
            if let problem = AtomicFile(url).kindProblem() {
                console.err("\(safe(file)) is not a file (\(safe(problem.reason))), so nothing was saved: give save the name of a file.")
                return .success
            }
            if !force {
                guard let confirm, await confirm("\(safe(file)) exists. Replace it? (y/N) ") else {
                    console.err("\(safe(file)) exists, so nothing was saved: save! \(safe(file)) (or save \(safe(file)) --force) replaces it.")
                    return .success
                }
            }
        }
        // The folder is named as typed: the temporary file's name (`nothere/.x.json.3fq….tmp`) means nothing to a person.
        let folder = url.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            let typed = (file as NSString).deletingLastPathComponent
            console.error("Nothing was saved: there is no folder \(safe(typed.isEmpty ? folder.standardizedFileURL.path : typed)). Create it first, or give save another path.")
            return .failure
        }
        do throws(AtomicFile.Problem) {
            // A temporary file of its own in the same folder, then rename(2); a symlink is written through.
            try AtomicFile(url).write(format.render(entries), permissions: 0o666)
            let left = leftOut == 0 ? "" : " \(leftOut) row\(leftOut == 1 ? "" : "s") that never loaded \(leftOut == 1 ? "was" : "were") left out."
            console.out("Saved \(entries.count) movie\(entries.count == 1 ? "" : "s") to \(safe(url.path))." + left)
            return .success
        } catch {
            console.error("Could not save \(safe(file)): \(safe(error.reason)). Check that its folder can be written.")
            return .failure
        }
    }

    /// The current search's rows whose record came (a failed lookup included: its title, year
    /// and type are known), with what `show` added since; and how many never loaded.
    func currentSearchEntries() -> (entries: [ExportLog.Entry], leftOut: Int) {
        var entries: [ExportLog.Entry] = []
        var seen: Set<String> = []
        var leftOut = 0
        for row in rows where !row.isEpisode {
            guard row.loaded else { leftOut += 1; continue }
            guard seen.insert(row.item.imdbID).inserted else { continue }
            entries.append(exportLog.entry(for: row.item.imdbID)
                ?? ExportLog.Entry(item: row.item, movie: row.movie, poster: row.poster?.file))
        }
        return (entries, leftOut)
    }

    // MARK: Open

    /// Opens result `number`'s IMDb page, or prints its address when there is no opener.
    func open(_ number: Int) async {
        guard let row = row(number, for: "open") else { return }
        let address = "https://www.imdb.com/title/\(row.item.imdbID)/"
        if let failure = await opener.open(address) {
            console.out(address)
            console.note("Not opened (\(failure)): the address is above. MOVIES_OPENER names another opener.")
        } else {
            console.out("Opened \(address)")
        }
    }

    // MARK: Posters on screen

    /// Draws result `number`'s poster when the terminal can: the file saved for it, or saved now
    /// when a poster folder is set.
    func drawPoster(of number: Int) async {
        rows[number - 1].poster = await drawPoster(of: rows[number - 1].item, saved: rows[number - 1].poster)
    }

    /// Draws `item`'s poster when the terminal can: `saved`, or saved now when a poster folder is set.
    /// - Returns: the poster saved for it, if any.
    @discardableResult
    func drawPoster(of item: SearchItem, saved: SavedPoster?) async -> SavedPoster? {
        guard let kind = inlineImages else { return saved }
        var saved = saved
        if saved == nil, let store = posterStore {
            saved = try? await client.poster(for: item, in: store)
        }
        let file = saved?.file
        guard let file else {
            if settings.posters == nil { console.note("(posters DIR to save posters and see them here)") }
            return saved
        }
        guard let data = FileManager.default.contents(atPath: file.path) else { return saved }
        guard let sequence = InlineImages.sequence(for: data, using: kind, columns: min(24, console.width - 4)) else {
            console.note(InlineImages.refusal(for: data, using: kind, saved: presenter.display(file)))
            return saved
        }
        console.writeOut(sequence + "\n")
        return saved
    }
}
