import Foundation
import Testing
@testable import OMDbKit
@testable import OMDbCatalogue

/// The key is masked whatever its length, and nothing that holds it prints it.
@Suite struct APIKeyTests {
    @Test(arguments: ["q", "k7", "abc", "zq9x", "k3y5z"])
    func shortKeysAreMaskedInServerText(key: String) {
        let text = "Invalid key \(key) (sent as apikey=\(key)); echo:\(key)"
        let masked = APIKey(key).redact(text)
        #expect(!masked.contains(key), "\(masked)")
        #expect(masked.contains("apikey=***"))
    }

    @Test func theParameterNameSurvivesAKeyThatIsPartOfIt() {
        #expect(APIKey("k").redact("https://h/?s=x&apikey=k") == "https://h/?s=x&apikey=***")
    }

    @Test(arguments: ["my key+1", "ké/y&z"])
    func encodedFormsOfTheKeyAreMasked(key: String) throws {
        let apiKey = APIKey(key)
        let encoded = try #require(key.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        #expect(!apiKey.redact("sent \(encoded) and \(key.replacingOccurrences(of: " ", with: "+"))").contains(encoded))
        #expect(apiKey.redact("sent \(encoded)") == "sent ***")
    }

    static let key = "s3cr3t-KEY-9"

    /// No way a value is turned into text shows the key: description, debug description,
    /// interpolation, `dump`, its mirror, and its encoding; decoding reads it.
    @Test func noDescriptionDumpMirrorOrEncodingOfTheKeyShowsIt() throws {
        let key = APIKey(Self.key)
        var dumped = ""
        dump(key, to: &dumped)
        let encoded = String(decoding: try JSONEncoder().encode(["apiKey": key]), as: UTF8.self)
        let texts = [String(describing: key), String(reflecting: key), "\(key)", dumped, encoded]
        #expect(texts.allSatisfy { !$0.contains(Self.key) && $0.contains("***") }, "\(texts)")
        #expect(Mirror(reflecting: key).children.isEmpty)
        #expect(try JSONDecoder().decode([String: APIKey].self, from: Data(#"{"apiKey":" \#(Self.key) "}"#.utf8))["apiKey"] == key)
    }

    @Test func dumpOfAClientThatSearchedShowsNoKey() async throws {
        let client = OMDbClient(configuration: .init(apiKey: APIKey(Self.key), baseURL: CatalogueTransport.baseURL),
                                transport: ClosureTransport { url in
                                    url.query("i") == nil
                                        ? json(#"{"Search":[{"Title":"A","imdbID":"tt1"}],"totalResults":"1","Response":"True"}"#)
                                        : json(#"{"Response":"False","Error":"bad \#(Self.key)"}"#, status: 500)
                                })
        _ = try await client.search("alien").next()
        _ = try? await client.movie(imdbID: "tt1")
        var dumped = ""
        dump(client, to: &dumped)
        let configuration = client.configuration
        dump(configuration, to: &dumped)
        dumped += String(reflecting: client) + String(describing: configuration) + String(reflecting: configuration)
        #expect(!dumped.contains(Self.key), "\(dumped)")
    }
}

/// A URL's user and password are masked like the key (issue 16, finding 8).
@Suite struct URLCredentialRedactionTests {
    @Test(arguments: [
        ("http://alice:S3cr3tPW@127.0.0.1:8080/?s=x&apikey=k", "http://***@127.0.0.1:8080/?s=x&apikey=***"),
        ("The server answered HTTP 503 for https://bob:pa%40ss@proxy.example/omdb/?i=tt1.", "The server answered HTTP 503 for https://***@proxy.example/omdb/?i=tt1."),
        ("https://token@host/", "https://***@host/"),
        ("no credentials: https://host/a@b and mail me@example.com", "no credentials: https://host/a@b and mail me@example.com"),
    ])
    func credentialsInAURLAreMasked(text: String, expected: String) {
        #expect(APIKey("0123abcd").redact(text) == expected)
    }

    @Test func aClientsErrorsNeverShowThePasswordOfItsBaseURL() async throws {
        let base = try #require(URL(string: "http://alice:S3cr3tPW@127.0.0.1:9/"))
        let client = OMDbClient(configuration: .init(apiKey: "0123abcd", baseURL: base), transport: ClosureTransport { _ in
            HTTPResponse(statusCode: 404, body: Data("boom".utf8))
        })
        await #expect { try await client.movie(imdbID: "tt0090190") } throws: { error in
            let text = String(describing: error)
            return text.contains("127.0.0.1") && !text.contains("S3cr3tPW") && !text.contains("alice")
        }
    }
}
