import Foundation
import OMDbCurl
import OMDbKit

// live-search [TITLE…]: OMDb's first page of results, each title printed with its plot as its
// record arrives, and the posters saved into ./posters. Needs your key in OMDB_API_KEY;
// OMDB_BASE_URL, when set, sends the requests elsewhere (CI's fake OMDb on 127.0.0.1).
let environment = ProcessInfo.processInfo.environment
guard let key = environment["OMDB_API_KEY"], !key.isEmpty else {
    FileHandle.standardError.write(Data("Set OMDB_API_KEY to your OMDb key (a free one: https://www.omdbapi.com/apikey.aspx).\n".utf8))
    exit(2)
}
var configuration = OMDbClient.Configuration(apiKey: APIKey(key))
if let address = environment["OMDB_BASE_URL"], let url = URL(string: address) { configuration.baseURL = url }

let query = CommandLine.arguments.dropFirst().joined(separator: " ")
do {
    let client = OMDbClient(configuration: configuration, transport: try CurlTransport())
    let page = try await client.search(query.isEmpty ? "star wars" : query).next()
    print("\(page.totalResults) results; page 1 of \(page.lastPage):")
    // One child task per result: each record and each poster comes the moment it is done, so a
    // plot never waits for a poster, and one result's failure never fails the others.
    let posters = PosterStore(folder: URL(fileURLWithPath: "posters"))
    for await update in client.details(for: page.items, posters: posters) {
        switch update.part {
        case .record(.success(let movie)): print("\(movie.title) (\(movie.year?.text ?? "?")): \(movie.plot ?? "no plot")")
        case .record(.failure(let error)): print("\(update.item.title): \(error)")
        case .poster(.success(let poster)): print("  poster: \(poster.file.path)")
        case .poster(.failure(let error)): print("  no poster for \(update.item.title): \(error)")
        }
    }
} catch {
    FileHandle.standardError.write(Data("live-search: \(error)\n".utf8))
    exit(1)
}
