import Foundation
import OMDbKit

/// `poster LIST [DIR]`: the posters of the rows picked (`2,4-5`), saved into DIR, else the posters
/// folder, else the working folder.
extension Session {
    /// Saves the posters of rows `list`, one line a row; `.failure` when a poster could not be written.
    func savePosters(_ list: RowList, into folder: String?) async -> ExitStatus {
        guard let numbers = searchController.numbers(list) else { return .success }
        let url = folder.map { Settings.posterFolder($0, relativeTo: context.currentDirectory, home: settings.home) }
            ?? settings.posters ?? context.currentDirectory
        if let problem = Self.posterFolderProblem(url) {
            console.error("Cannot save posters in \"\(safe(folder ?? url.path))\": \(problem). Name another folder: poster \(numbers.map(String.init).joined(separator: ",")) DIR")
            return .failure
        }
        do throws(OMDbError) {
            try PosterStore.openFolder(url)
        } catch {
            console.error("Cannot save posters in \"\(safe(url.path))\": \(Self.folderReason(error)).")
            return .failure
        }
        // The session's store when it is that folder: it already holds the folder's index.
        let store = posterStore.flatMap { $0.folder == url.standardizedFileURL ? $0 : nil }
            ?? PosterStore(folder: url.standardizedFileURL, width: settings.posterWidth)
        var status = ExitStatus.success
        for number in numbers where !Task.isCancelled {
            guard let index = searchController.index(of: number) else { continue }
            let row = searchController.rows[index]
            var item = row.item
            // Listed without its poster's address (an episode, a catalogue title): its record has it.
            if item.posterURL == nil {
                if let movie = row.movie { item = SearchItem(movie) } else if let movie = try? await client.movie(imdbID: item.imdbID) { item = SearchItem(movie) }
            }
            let label = TextPresenter.numberLabel(number) + " " + TextPresenter.titleAndYear(item) + ": "
            do {
                let saved = try await presenter.waiting("Saving the poster of \(TextPresenter.titleAndYear(item))…") {
                    try await client.poster(for: item, in: store)
                }
                searchController.rows[index].poster = .success(saved)
                console.out(label + (saved.wasAlreadyThere ? "poster already saved: " : "poster saved: ") + presenter.display(saved.file))
            } catch let error as OMDbError {
                console.out(label + "no poster saved: " + safe(error.forPerson))
                if error.isPosterNotWritten { status = .failure }
            } catch {
                break
            }
        }
        if Task.isCancelled { console.note("Stopped: the posters saved before Ctrl-C are kept.") }
        return status
    }

    /// Why the folder was not made, in words.
    static func folderReason(_ error: OMDbError) -> String {
        if case .posterNotWritten(_, let reason) = error { return safe(reason) }
        return safe(error.forPerson)
    }
}
