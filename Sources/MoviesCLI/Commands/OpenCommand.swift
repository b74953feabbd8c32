import Foundation
import OMDbKit

/// `open N`: result N's IMDb page in the browser, or its address when nothing can open it.
@MainActor
struct OpenCommand: SessionPart {
    let context: SessionContext
    let searchController: SearchController
    let opener: Opener

    /// Opens result `number`'s IMDb page, or prints its address when there is no opener.
    func open(_ number: Int) async {
        guard let row = searchController.row(number, for: "open") else { return }
        let address = "https://www.imdb.com/title/\(row.item.imdbID)/"
        if let failure = await opener.open(address) {
            console.out(address)
            console.note("Not opened (\(failure)): the address is above. MOVIES_OPENER names another opener.")
        } else {
            console.out("Opened \(address)")
        }
    }
}
