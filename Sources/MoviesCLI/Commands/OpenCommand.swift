import Foundation
import OMDbKit

/// `open N`: result N's IMDb page in the browser, or its address when nothing can open it.
extension Session {
    /// More pages than this at once are asked about first.
    static let opensWithoutAsking = 5

    /// Whether `count` pages may be opened: up to ``opensWithoutAsking`` (or any, with no opener), else when
    /// ``ask`` answers yes; a refusal is said.
    func mayOpen(_ count: Int) async -> Bool {
        guard count > Self.opensWithoutAsking, opener.executable != nil else { return true }
        let answer = await ask?("Open \(count) pages in the browser? (y/N) ")?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
            console.err("Nothing opened: answer y to open \(count) pages, or open fewer at a time (open 1-\(Self.opensWithoutAsking)).")
            return false
        }
        return true
    }

    /// Opens result `number`'s IMDb page, or prints its address when there is no opener.
    func open(_ number: Int) async {
        guard let row = searchController.row(number) else { return }
        let address = "https://www.imdb.com/title/\(row.item.imdbID)/"
        if let failure = await opener.open(address) {
            console.out(address)
            console.note("Not opened (\(failure)): the address is above. MOVIES_OPENER names another opener.")
        } else {
            console.out("Opened \(address)")
        }
    }
}
