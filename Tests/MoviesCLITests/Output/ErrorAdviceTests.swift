import Foundation
import OMDbCatalogue
import OMDbKit
import TestSupport
import Testing
@testable import MoviesCLI

/// The tool's advice for a person, added to the library's errors in one place (issue 23).
@Suite struct ErrorAdviceTests {
    @Test(arguments: [
        (OMDbError.timedOut(url: "http://127.0.0.1/", seconds: 10, tries: 3), "No complete answer from 127.0.0.1 within 10 s, on each of 3 tries. Try again, or raise --timeout."),
        (.timedOut(url: "http://127.0.0.1/", seconds: 10, tries: 1), "No complete answer from 127.0.0.1 within 10 s. Try again, or raise --timeout."),
        (.invalidAPIKey, "OMDb rejected the API key. A new key needs activating from OMDb's e-mail, and OMDb's CDN may refuse it for a while after that. Check OMDB_API_KEY (or --api-key)."),
        (.missingAPIKey, "OMDb received no API key. Set OMDB_API_KEY (or --api-key)."),
        (.unreachable(url: "http://127.0.0.1/", reason: "refused"), "The connection to 127.0.0.1 failed (refused). Check the network or --base-url."),
        (.dataUnavailable, "OMDb could not get the data for this title."),
    ])
    func forPersonAddsWhatToDoWithThisTool(error: OMDbError, message: String) {
        #expect(error.forPerson == message)
    }

    /// OMDb's "no" served from the disk cache says so, since when, and how to ask again (issue 21):
    /// a title added to OMDb within the hour is otherwise "not found" with no way to tell why.
    @Test func anErrorFromTheCacheSaysSoAndHowToAskAgain() async throws {
        try await withTemporaryFolder { folder in
            let kept = Date(timeIntervalSince1970: 1_800_000_000)
            let catalogue = try Catalogue(folder: try #require(Catalogue.defaultFolder()))
            var configuration = OMDbClient.Configuration(apiKey: CatalogueTransport.apiKey, baseURL: CatalogueTransport.baseURL)
            configuration.cache = DiskCache(folder: folder, now: { kept })
            func message() async -> String? {
                let client = OMDbClient(configuration: configuration, transport: CatalogueTransport(catalogue: catalogue))
                do { _ = try await client.search("qqqzzzxx").next() } catch let error as OMDbError { return error.forPerson } catch {}
                return nil
            }
            let fresh = try #require(await message())
            #expect(fresh == OMDbError.notFound(query: "qqqzzzxx").forPerson)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            #expect(await message() == "No results for \"qqqzzzxx\". Check the spelling, or try fewer words or another year"
                    + " (OMDb's answer kept in the cache since \(formatter.string(from: kept))). Run movies cache clear to ask OMDb again.")
        }
    }
}
