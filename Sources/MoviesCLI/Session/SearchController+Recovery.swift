import Foundation
import OMDbKit

/// When OMDb says no to a search: the one request that may still help.
extension SearchController {
    /// One more request when it can help: the exact title for `Too many results.`, the query without
    /// punctuation for `Movie not found!`. How that went; `nil` when it did not try.
    func recover(from error: OMDbError, query: SearchQuery) async -> ExitStatus? {
        switch error.underlying {
        case .tooManyResults:
            return await showExactTitle(query)
        case .notFound:
            guard let plain = Self.withoutPunctuation(query.text) else { return nil }
            console.note("No results for \"\(safe(query.text))\": searching for \"\(safe(plain))\" instead, without the punctuation (one more request).")
            let search = client.search(plain, type: query.type, year: query.year)
            return await load(search, startsNewResults: true) { try await search.next() }
        default:
            return nil
        }
    }

    /// OMDb's match for exactly this title (`t=`), shown as the only row; `nil` when there is none.
    private func showExactTitle(_ query: SearchQuery) async -> ExitStatus? {
        let movie: Movie
        do {
            movie = try await client.movie(exactTitle: query, plot: settings.plot)
        } catch let error as OMDbError where error.isNoResults {
            return nil
        } catch {
            // More to the point than "too many results".
            return report(error)
        }
        console.note("Too many results for \"\(safe(query.text))\" to list: here is OMDb's match for that exact title. To search further, add a word, a type or a year.")
        let item = SearchItem(movie)
        let page = SearchPage(query: query, number: 1, totalResults: 1, items: [item], shownSoFar: 1)
        startNewResults()
        current = nil
        lastPage = page
        rows = [LivePage.Row(item: item, number: 1, record: .success(movie))]
        loadedPages[1] = page
        presenter.pageArrived(page, first: 1, savingPosters: settings.posters != nil, wholePlots: settings.plot == .full)
        presenter.rowUpdated(.at(0, item: item, part: .record(.success(movie))), number: 1)
        // Not when stopped (Ctrl-C): the row says so.
        if let store = posterStore,
           let result = await outcome({ [client] in try await client.poster(for: item, in: store) }) {
            rows[0].poster = result
            presenter.rowUpdated(.at(0, item: item, part: .poster(result)), number: 1)
        }
        await presenter.pageFinished(page, pagesShown: [1])
        await warnIfNearLimit()
        return .success
    }

    /// The query without apostrophes, other punctuation and symbols made spaces (`spider-man: far` →
    /// `spider man far`); `nil` when that changes or leaves nothing.
    nonisolated static func withoutPunctuation(_ text: String) -> String? {
        var result = ""
        for character in text where character != "'" && character != "\u{2019}" {
            result.append(character.isPunctuation || character.isSymbol ? " " : character)
        }
        let plain = result.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return plain.isEmpty || plain == text ? nil : plain
    }
}
