import Foundation
import OMDbCatalogue
import OMDbKit

// two-searches [A] [B]: two searches at once over one client, each paged from a task of its own,
// then the titles of both first pages. A search is its caller's: paging or cancelling one never
// touches the other, while the client shares what they have in common (connections, the caches,
// one request for a page both ask for). A live client (live-search) is shared the same way; the
// offline catalogue keeps this one runnable with no key.
let words = Array(CommandLine.arguments.dropFirst())
let queries = (words.first ?? "star", words.dropFirst().first ?? "alien")
do {
    let client = OMDbClient(configuration: CatalogueTransport.configuration, transport: try CatalogueTransport())
    async let first = client.search(queries.0).next()   // each `async let` is a child task
    async let second = client.search(queries.1).next()
    for page in try await [first, second] {
        print("\(page.query.text): \(page.items.map(\.title).joined(separator: ", "))")
    }
} catch {
    FileHandle.standardError.write(Data("two-searches: \(error)\n".utf8))
    exit(1)
}
