import Foundation
import OMDbKit
import OMDbCurl

// search-posters TITLE…: the first page of OMDb's results for TITLE, each with its plot,
// and their posters saved into ./posters.
let environment = ProcessInfo.processInfo.environment
guard let apiKey = environment["OMDB_API_KEY"], !apiKey.isEmpty else {
    print("Set OMDB_API_KEY to your OMDb key (https://www.omdbapi.com/apikey.aspx).")
    exit(2)
}
var configuration = OMDbClient.Configuration(apiKey: apiKey)
if let address = environment["OMDB_BASE_URL"], let baseURL = URL(string: address) {
    configuration.baseURL = baseURL
}
let client = OMDbClient(configuration: configuration, transport: try CurlTransport())
let posters = PosterStore(folder: URL(fileURLWithPath: "posters"))

let query = CommandLine.arguments.dropFirst().joined(separator: " ")
do {
    let page = try await client.search(query.isEmpty ? "star wars" : query).next()
    print("\(page.totalResults) results; page 1:")
    for await update in client.details(for: page.items, posters: posters) {
        switch update.part {
        case .record(.success(let movie)):
            print("\(movie.title) (\(movie.year?.text ?? "?")): \(movie.plot ?? "no plot")")
        case .record(.failure(let error)):
            print("\(update.item.title): \(error)")
        case .poster(.success(let poster)):
            print("  poster: \(poster.file.path)")
        case .poster(.failure(let error)):
            print("  no poster for \(update.item.title): \(error)")
        }
    }
} catch {
    print("Search failed: \(error)")
    exit(1)
}
