import Foundation
import Testing
@testable import OMDbKit

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
        _ = try await client.search("alien")
        _ = try? await client.movie(imdbID: "tt1")
        var dumped = ""
        dump(client, to: &dumped)
        let configuration = client.configuration
        dump(configuration, to: &dumped)
        dumped += String(reflecting: client) + String(describing: configuration) + String(reflecting: configuration)
        #expect(!dumped.contains(Self.key), "\(dumped)")
    }
}
