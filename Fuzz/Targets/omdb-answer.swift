import Foundation
@testable import OMDbKit

/// OMDb's answers as the client decodes them: a search page, a title, a season.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOMDbAnswer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let response = HTTPResponse(statusCode: 200, body: Data(bytes: data, count: size), headers: ["content-type": "application/json"])
    let url = "https://www.omdbapi.com/?apikey=KEY&s=alien"
    _ = try? OMDbDecoding.searchPage(response, query: SearchQuery(text: "alien"), url: url)
    _ = try? OMDbDecoding.decode(Movie.self, response, query: "tt0078748", url: url)
    _ = try? OMDbDecoding.season(response, imdbID: "tt0944947", number: 1, url: url)
    return 0
}
