import Files
import Foundation
import OMDbKit
import TerminalImages

/// `show N`, an IMDb ID or link, and `movies show`: one title's details, its poster drawn where the terminal can.
extension Session {
    /// Result `number`'s full record.
    func show(_ number: Int) async -> ExitStatus {
        guard let row = searchController.row(number) else { return .success }
        do {
            let movie = try await presenter.waiting("Asking \(source) about \(TextPresenter.titleAndYear(row.item))…") {
                try await client.movie(imdbID: row.item.imdbID, plot: .full)
            }
            return await present(movie, as: row.item, known: row.savedPoster, number: number)
        } catch {
            let status = report(error)
            await warnIfNearLimit()
            return status
        }
    }

    /// At the prompt, for an IMDb ID or link: the details, as `show N` gives them; the current search stays.
    func show(imdbID: String) async -> ExitStatus {
        let (found, status) = await lookUp(.title(imdbID), text: imdbID, plot: .full)
        guard let movie = found else { return status }
        let known = searchController.rows.lazy.filter { $0.item.imdbID == imdbID }.compactMap(\.savedPoster).first
        return await present(movie, as: SearchItem(movie), known: known)
    }

    /// `movie`'s details and its poster (`known`, else saved now when a folder is set), drawn where the
    /// terminal can; both noted for `save` under `item`, and the poster kept on row `number`, if any.
    private func present(_ movie: Movie, as item: SearchItem, known: SavedPoster?,
                         number: Int? = nil) async -> ExitStatus {
        let result = await savedPoster(of: SearchItem(movie), known: known)
        let saved = try? result?.get()
        context.exportLog.note(item, movie: movie, poster: saved?.file)
        console.out(Details.lines(for: movie, poster: saved, console: console, display: presenter.display, number: number))
        let status = sayWhyNoPoster(result)
        let drawn = await drawPoster(of: item, saved: saved)
        context.exportLog.note(item, poster: drawn?.file)
        // Found again after the awaits: a page may have come in between.
        if let number, let index = searchController.index(of: number) {
            searchController.rows[index].poster = drawn.map(Result.success)
        }
        await warnIfNearLimit()
        return status
    }

    /// `movies show ID|LINK|TITLE`: the details, or with `lines` one line for a script; with a poster
    /// folder, its poster is saved too. Not found fails, with the reason.
    func showOne(_ target: String, lines: LineFormat?) async -> ExitStatus {
        let (found, lookUpStatus) = await lookUp(IMDbReference(target), text: target, plot: settings.plot)
        guard let movie = found else { return lookUpStatus }
        let item = SearchItem(movie)
        let poster = await savedPoster(of: item, known: nil)
        if poster == nil, posterStore != nil { return report(CancellationError()) }
        if let lines {
            let row = LivePage.Row(item: item, number: 1, record: .success(movie), poster: poster)
            console.out(lines.line(JSONPresenter.output(row)))
            if case .failure(.posterNotWritten)? = poster { return .failure }
            return .success
        }
        console.out(Details.lines(for: movie, poster: try? poster?.get(), console: console, display: presenter.display))
        return sayWhyNoPoster(poster)
    }

    /// Under the details, why the poster was not saved; `.failure` when it could not be written
    /// (an error, said under --quiet too), as a note otherwise.
    private func sayWhyNoPoster(_ poster: Result<SavedPoster, OMDbError>?) -> ExitStatus {
        guard case .failure(let error)? = poster else { return .success }
        let text = error == .posterUnavailable ? "OMDb has no poster for this title." : "No poster saved: " + safe(error.forPerson)
        guard error.isPosterNotWritten else {
            console.note(text)
            return .success
        }
        console.error(text)
        return .failure
    }

    /// The record `reference` names, or without one OMDb's match for the title `text` under the filters; or `nil`
    /// after saying why, with a failure: one title was asked for, and a script must know it did not get it.
    private func lookUp(_ reference: IMDbReference?, text: String,
                        plot: PlotLength) async -> (movie: Movie?, status: ExitStatus) {
        do {
            switch reference {
            case nil:
                let query = SearchQuery(text: text, type: settings.type, year: settings.year)
                return (try await presenter.waiting("Asking \(source) for the title \"\(safe(text))\"…") {
                    try await client.movie(exactTitle: query, plot: plot)
                }, .success)
            case .notATitle(let why)?:
                console.err(why)
                return (nil, .failure)
            case .title(let id)?:
                return (try await presenter.waiting("Asking \(source) about \(id)…") {
                    try await client.movie(imdbID: id, plot: plot)
                }, .success)
            }
        } catch let error as OMDbError where error.isNoResults {
            let who = settings.sendsKey ? "OMDb has" : "The offline catalogue has"
            if case .title(let id)? = reference {
                console.err("\(who) no title with the IMDb ID \(id): check the ID or the link.")
            } else if reference == nil, case .notFound = error.underlying {
                let filters = context.filters
                console.err("\(who) no title that is exactly \"\(safe(text))\"" + (filters.isEmpty ? "" : " (\(filters.joined(separator: ", ")))")
                            + ": movies search \(safe(text)) lists the titles with those words.")
            } else {
                _ = report(error)
            }
            return (nil, .failure)
        } catch {
            return (nil, report(error))
        }
    }

    // MARK: Posters

    /// The poster saved for `item`: `known` (its row's), else saved now into the posters folder, or
    /// why it was not; `nil` without a folder, or when stopped.
    private func savedPoster(of item: SearchItem, known: SavedPoster?) async -> Result<SavedPoster, OMDbError>? {
        if let known { return .success(known) }
        guard let store = posterStore else { return nil }
        return await outcome { [client] in try await client.poster(for: item, in: store) }
    }

    /// Draws `item`'s poster when the terminal can: `saved`, or saved now when a poster folder is set.
    /// - Returns: the poster saved for it, if any.
    private func drawPoster(of item: SearchItem, saved: SavedPoster?) async -> SavedPoster? {
        guard let kind = inlineImages else { return saved }
        var saved = saved
        if saved == nil, let store = posterStore {
            saved = try? await client.poster(for: item, in: store)
        }
        guard let file = saved?.file else {
            if settings.posters == nil { console.note("(posters DIR to save posters and see them here)") }
            return saved
        }
        // Read as every file is (FileTrust): a poster someone else swapped in is not drawn.
        guard let data = (try? AtomicFile(file).contents(upTo: posterStore?.maxBytes ?? PosterStore.defaultMaxBytes)) ?? nil else { return saved }
        switch InlineImages.draw(data, using: kind, columns: min(24, console.width - 4)) {
        case .drawn(let sequence): console.writeOut(sequence + "\n")
        case .refused(let why): console.note("poster not drawn: \(why); saved as \(presenter.display(file))")
        case .cancelled: break   // Ctrl-C: the prompt comes back at once
        }
        return saved
    }
}
