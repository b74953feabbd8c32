import OMDbKit
import Testing
@testable import MoviesCLI

/// The tool's advice for a person, added to the library's errors in one place (issue 23).
@Suite struct ErrorAdviceTests {
    @Test(arguments: [
        (OMDbError.timedOut(url: "http://127.0.0.1/", seconds: 10), "No complete answer from 127.0.0.1 within 10 s. Try again, or raise --timeout."),
        (.invalidAPIKey, "OMDb rejected the API key. A new key needs activating from OMDb's e-mail, and OMDb's CDN may refuse it for a while after that. Check OMDB_API_KEY (or --api-key)."),
        (.missingAPIKey, "OMDb received no API key. Set OMDB_API_KEY (or --api-key)."),
        (.unreachable(url: "http://127.0.0.1/", reason: "refused"), "The connection to 127.0.0.1 failed (refused). Check the network or --base-url."),
        (.dataUnavailable, "OMDb could not get the data for this title."),
    ])
    func forPersonAddsWhatToDoWithThisTool(error: OMDbError, message: String) {
        #expect(error.forPerson == message)
    }
}
