import Foundation
import OMDbKit

/// `open N`: result N's IMDb page in the browser, or its address when nothing can open it.
extension Session {
    /// More pages than this at once are asked about first.
    static let opensWithoutAsking = 5

    /// Opens the IMDb pages of rows `list`, or prints their addresses when there is no opener. More than
    /// ``opensWithoutAsking`` with an opener only when ``ask`` answers yes; a refusal is said.
    func open(_ list: RowList) async {
        guard let numbers = searchController.numbers(list) else { return }
        if numbers.count > Self.opensWithoutAsking, opener.executable != nil {
            let (count, most) = (numbers.count, Self.opensWithoutAsking)
            guard await answersYes("Open \(count) pages in the browser? (y/N) ") else {
                console.err("Nothing opened: answer y to open \(count) pages, or open fewer at a time (open 1-\(most)).")
                return
            }
        }
        for number in numbers where !Task.isCancelled {
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
}
