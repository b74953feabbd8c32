import Foundation
import OMDbKit
import OMDbCatalogue

/// `catalogue [N]`: what the offline catalogue holds, a page at a time, so a search that
/// finds nothing there can be told from a title it does not have; `movies catalogue` lists it whole.
@MainActor
struct CatalogueCommand: SessionPart {
    let context: SessionContext

    /// Titles a page.
    static let pageSize = 20

    func list(page: Int) {
        guard let catalogue = context.offlineCatalogue else {
            console.err("OMDb answers in this session: there is no offline catalogue to list (it answers only with no key and no base URL).")
            return
        }
        let titles = catalogue.titles
        let pages = max(1, (titles.count + Self.pageSize - 1) / Self.pageSize)
        guard page <= pages else {
            console.err("There is no catalogue page \(page): it has \(pages) pages, catalogue 1 to catalogue \(pages).")
            return
        }
        let shown = titles.dropFirst((page - 1) * Self.pageSize).prefix(Self.pageSize)
        console.out(console.style.bold("The offline catalogue: page \(page) of \(pages), \(titles.count) titles"))
        for title in shown { console.out(Self.row(title, style: console.style)) }
        console.out(console.style.dim(page < pages ? "Type catalogue \(page + 1) for the next page." : "That is all of it."))
    }

    /// `movies catalogue`: every title, a line each for people, or as `lines` writes them for a script.
    static func listAll(_ catalogue: Catalogue, lines: LineFormat?, console: Console) {
        let titles = catalogue.titles
        guard let lines else {
            console.out(console.style.bold("The offline catalogue: \(titles.count) titles"))
            for title in titles { console.out(row(title, style: console.style)) }
            return
        }
        for title in titles { console.out(lines.line(output(title))) }
    }

    /// One title of `movies catalogue --json`, its keys named as search's lines name them; null when unknown.
    nonisolated static func output(_ title: Catalogue.Title) -> [String: JSONValue] {
        ["imdbID": .string(title.imdbID), "title": .string(title.title), "year": title.year.map(JSONValue.string) ?? .null, "type": .string(title.type)]
    }

    /// The keys of ``output(_:)``.
    nonisolated static let outputFields = ["imdbID", "title", "year", "type"]

    /// `  Alien (1979)  movie  tt0078748`
    static func row(_ title: Catalogue.Title, style: Style) -> String {
        "  " + safe(title.title) + (title.year.map { " (\(safe($0)))" } ?? "") + "  " + style.dim("\(safe(title.type))  \(safe(title.imdbID))")
    }
}
