import Foundation
import OMDbCatalogue
import OMDbKit

// offline-catalogue [TITLE…]: searches the catalogue that ships with the library (245 titles) with
// no key and no network, from any folder: SwiftPM copies it beside the program as a resource.
let query = CommandLine.arguments.dropFirst().joined(separator: " ")
do {
    let client = OMDbClient(configuration: CatalogueTransport.configuration, transport: try CatalogueTransport())
    let page = try await client.search(query.isEmpty ? "alien" : query).next()
    print("\(page.totalResults) titles match \"\(page.query.text)\":")
    for await update in client.details(for: page.items) {   // each record as it comes, typed
        guard case .record(.success(let movie)) = update.part else { continue }
        let rating = movie.imdbRating.map { "\($0)/10" } ?? "not rated"
        print("\(movie.title), released \(movie.released?.description ?? "?"), \(movie.genres.joined(separator: "/")), \(rating)")
    }
} catch {
    FileHandle.standardError.write(Data("offline-catalogue: \(error)\n".utf8))
    exit(1)
}
