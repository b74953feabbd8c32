import Foundation
import OMDbKit
import OMDbCatalogue

/// `catalogue [N]`: the offline catalogue a page at a time (`movies catalogue`: whole). At the prompt
/// its rows, numbered by their places in it, take a search's place for `show N`, `next` and the rest.
extension Session {
    static let cataloguePageSize = 20

    func listCatalogue(page: Int) {
        guard let catalogue = context.offlineCatalogue else {
            console.err("OMDb answers in this session: there is no offline catalogue to list (it answers only with no key and no base URL).")
            return
        }
        let titles = catalogue.titles
        let pages = max(1, (titles.count + Self.cataloguePageSize - 1) / Self.cataloguePageSize)
        guard page >= 1 else {
            console.err("This is the first page of the catalogue: type next for the page after it.")
            return
        }
        guard page <= pages else {
            console.err("There is no catalogue page \(page): it has \(pages) pages, catalogue 1 to catalogue \(pages).")
            return
        }
        let first = (page - 1) * Self.cataloguePageSize + 1
        let items = titles.dropFirst(first - 1).prefix(Self.cataloguePageSize).map(Self.item)
        searchController.startNewResults()
        searchController.insert(items.enumerated().map { LivePage.Row(item: $0.element, number: first + $0.offset) })
        searchController.cataloguePage = page
        // Rows as a search's (`  21. Alien (1979)  movie  tt0078748`), under a heading, over what to type next.
        console.out([console.style.bold("The offline catalogue: page \(page) of \(pages), \(titles.count) titles")]
            + items.enumerated().map { TextPresenter.rowLine($0.element, number: first + $0.offset, style: console.style) }
            + [console.style.dim(page < pages ? "Type next for the next page, show N for a title." : "That is all of it; show N for a title.")])
    }

    /// A title as a row's item, without a poster address (its record has it).
    static func item(_ title: Catalogue.Title) -> SearchItem {
        SearchItem(imdbID: title.imdbID, title: title.title, year: title.year.map(ReleaseYear.init), type: MediaType(omdb: title.type), posterURL: nil)
    }

    /// `movies catalogue`: every title, a line each, for people or as `lines` writes them.
    static func listAll(_ catalogue: Catalogue, lines: LineFormat?, console: Console) {
        let titles = catalogue.titles
        guard let lines else {
            console.out(console.style.bold("The offline catalogue: \(titles.count) titles"))
            for title in titles { console.out(row(title, style: console.style)) }
            return
        }
        for title in titles { console.out(lines.line(output(title))) }
    }

    /// One title of `movies catalogue --json`, its keys named as search's lines name them
    /// (``LineFormat/catalogueFields``); null when unknown.
    nonisolated static func output(_ title: Catalogue.Title) -> [String: JSONValue] {
        ["imdbID": .string(title.imdbID), "title": .string(title.title), "year": title.year.map(JSONValue.string) ?? .null, "type": .string(title.type)]
    }

    /// `  Alien (1979)  movie  tt0078748`
    static func row(_ title: Catalogue.Title, style: Style) -> String {
        "  " + safe(title.title) + (title.year.map { " (\(safe($0)))" } ?? "") + "  " + style.dim("\(safe(title.type))  \(safe(title.imdbID))")
    }
}
