import Foundation
import OMDbKit
import OMDbCatalogue

/// `catalogue [N]`: what the offline catalogue holds, a page at a time, so a search that
/// finds nothing there can be told from a title it does not have.
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
        for title in shown {
            console.out("  " + safe(title.title) + (title.year.map { " (\(safe($0)))" } ?? "") + "  " + console.style.dim("\(safe(title.type))  \(safe(title.imdbID))"))
        }
        console.out(console.style.dim(page < pages ? "Type catalogue \(page + 1) for the next page." : "That is all of it."))
    }
}
