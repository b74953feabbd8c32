import Foundation
import Testing
@testable import OMDbKit
@testable import OMDbCatalogue

/// The key is masked whatever its length, and nothing that holds it prints it.
@Suite struct RedactorTests {
    @Test(arguments: ["q", "k7", "abc", "zq9x", "k3y5z"])
    func shortKeysAreMaskedInServerText(key: String) {
        let redactor = Redactor(apiKey: key)
        let text = "Invalid key \(key) (sent as apikey=\(key)); echo:\(key)"
        let masked = redactor.redact(text)
        #expect(!masked.contains(key), "\(masked)")
        #expect(masked.contains("apikey=***"))
    }

    @Test func theParameterNameSurvivesAKeyThatIsPartOfIt() {
        #expect(Redactor(apiKey: "k").redact("https://h/?s=x&apikey=k") == "https://h/?s=x&apikey=***")
    }

    @Test(arguments: ["my key+1", "ké/y&z"])
    func encodedFormsOfTheKeyAreMasked(key: String) throws {
        let redactor = Redactor(apiKey: key)
        let encoded = try #require(key.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        #expect(!redactor.redact("sent \(encoded) and \(key.replacingOccurrences(of: " ", with: "+"))").contains(encoded))
        #expect(redactor.redact("sent \(encoded)") == "sent ***")
    }

    static let key = "s3cr3t-KEY-9"

    @Test func noDescriptionDumpOrMirrorOfTheRedactorShowsTheKey() {
        let redactor = Redactor(apiKey: Self.key)
        var dumped = ""
        dump(redactor, to: &dumped)
        let texts = [String(describing: redactor), String(reflecting: redactor), "\(redactor)", dumped,
                     Mirror(reflecting: redactor).children.map { "\($0.label ?? ""): \($0.value)" }.joined()]
        for text in texts {
            #expect(!text.contains(Self.key), "\(text)")
            #expect(text.contains("***"), "\(text)")
        }
    }

    @Test func dumpOfAClientThatSearchedShowsNoKey() async throws {
        let client = OMDbClient(configuration: .init(apiKey: Self.key, baseURL: CatalogueTransport.baseURL),
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
        #expect(Redactor(apiKey: "0123abcd").redact(text) == expected)
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
