import Foundation
import Testing
@testable import OMDbKit

@Suite struct RequestTests {
    let base = URL(string: "https://www.omdbapi.com/")!

    @Test(arguments: ["tom & jerry", "Amélie", "千と千尋", "C++", "50/50", "a=b#c", "100% love"])
    func searchTextArrivesIntact(text: String) throws {
        let url = OMDbRequest.search(SearchQuery(text: text), page: 1).url(base: base, key: APIKey("k"))
        // What a server decodes from the query string must be the text itself.
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.first { $0.name == "s" }?.value == text)
        #expect(items.count == 3)
        #expect(!url.absoluteString.contains(" "))
    }

    @Test func ampersandIsEncodedNotASeparator() {
        let url = OMDbRequest.search(SearchQuery(text: "tom & jerry"), page: 1).url(base: base, key: APIKey("k"))
        #expect(url.absoluteString.contains("s=tom%20%26%20jerry"))
    }

    @Test func plusIsEncodedSoItIsNotReadAsASpace() {
        let url = OMDbRequest.search(SearchQuery(text: "C++"), page: 1).url(base: base, key: APIKey("k"))
        #expect(url.absoluteString.contains("s=C%2B%2B"))
    }

    @Test func filtersAndPageAreSent() {
        let url = OMDbRequest.search(SearchQuery(text: "alien", type: .series, year: 1986), page: 3).url(base: base, key: APIKey("k"))
        #expect(url.query("type") == "series")
        #expect(url.query("y") == "1986")
        #expect(url.query("page") == "3")
        #expect(url.query("apikey") == "k")
        #expect(url.host == "www.omdbapi.com")
    }

    @Test func noFilterMeansNoParameter() {
        let url = OMDbRequest.search(SearchQuery(text: "alien"), page: 1).url(base: base, key: APIKey("k"))
        #expect(url.query("type") == nil)
        #expect(url.query("y") == nil)
    }

    @Test(arguments: PlotLength.allCases)
    func titleLookupAsksForThePlotLength(plot: PlotLength) {
        let url = OMDbRequest.title(imdbID: "tt0090190", plot: plot).url(base: base, key: APIKey("k"))
        #expect(url.query("i") == "tt0090190")
        #expect(url.query("plot") == plot.rawValue)
        #expect(url.query("s") == nil)
    }

    @Test func baseURLWithAPathAndQueryIsKept() {
        let url = OMDbRequest.title(imdbID: "tt1", plot: .short).url(base: URL(string: "http://127.0.0.1:8080/omdb/?r=json")!, key: APIKey("k"))
        #expect(url.absoluteString.hasPrefix("http://127.0.0.1:8080/omdb/?"))
        #expect(url.query("r") == "json")
        #expect(url.query("i") == "tt1")
    }
}

@Suite struct RedactionTests {
    static let key = "abc12345"

    @Test func apiKeyParameterIsMasked() {
        let text = "Could not connect to https://www.omdbapi.com/?s=x&apikey=abc12345&page=1"
        #expect(APIKey(Self.key).redact(text) == "Could not connect to https://www.omdbapi.com/?s=x&apikey=***&page=1")
    }

    @Test func anyKeyValueIsMaskedEvenAnUnknownOne() {
        #expect(APIKey("zzz").redact("u?apikey=somethingelse") == "u?apikey=***")
        #expect(APIKey("zzz").redact("u?APIKEY=q&x=1") == "u?APIKEY=***&x=1")
    }

    @Test func bareKeyIsMaskedAnywhere() {
        #expect(APIKey(Self.key).redact("the key abc12345 leaked") == "the key *** leaked")
    }

    /// Every case, built the way the client builds them, from a URL that carries the key.
    static let everyError: [OMDbError] = {
        let shown = APIKey(key).redact("https://www.omdbapi.com/?s=x&apikey=\(key)")
        return [
            .noMorePages(query: "x", shown: 1, total: 1), .notFound(query: "x"), .tooManyResults(query: "x"),
            .incorrectIMDbID("x"), .dataUnavailable, .malformedRequest, .invalidAPIKey, .missingAPIKey, .quotaExhausted,
            .server(message: "m", status: 500), .httpStatus(500, url: shown), .timedOut(url: shown, seconds: 1, tries: 3),
            .unreachable(url: shown, reason: APIKey(key).redact("URLError -1004 at https://www.omdbapi.com/?apikey=\(key)")),
            .invalidResponse(url: shown, reason: "r"), .posterUnavailable, .posterNotAnImage(url: shown, contentType: "text/html"),
            .posterTooLarge(bytes: 2, limit: 1), .posterNotWritten(path: "/p", reason: "r"),
            .answerTooLarge(url: shown, limit: 4_000_000), .posterDownloadFailed(url: shown, reason: "r"),
        ]
    }()

    @Test(arguments: everyError)
    func noErrorDescriptionContainsTheKey(error: OMDbError) {
        #expect(!error.description.contains(Self.key))
        #expect(!String(describing: error).contains(Self.key))
        #expect(!String(reflecting: error).contains(Self.key))
        #expect(error.localizedDescription.contains(Self.key) == false)
    }

    @Test func failingTransportMessagesAreRedactedByTheClient() async {
        let client = OMDbClient(configuration: .init(apiKey: APIKey(Self.key)), transport: ClosureTransport { url in
            throw TransportError.unreachable(reason: "could not connect to \(url.absoluteString)")
        })
        await #expect {
            try await client.search("alien").next()
        } throws: { error in
            let text = "\(error) \(String(reflecting: error)) \((error as? OMDbError)?.description ?? "")"
            return error is OMDbError && !text.contains(Self.key) && text.contains("apikey=***")
        }
    }
}
