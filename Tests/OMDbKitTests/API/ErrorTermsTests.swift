import OMDbKit
import Testing

/// The library's errors say what happened in its own terms: no program's options, variables or
/// commands (issue 23). The `movies` tool adds its advice in one place (MoviesCLI's `forPerson`).
@Suite struct ErrorTermsTests {
    static let everyKind: [OMDbError] = [
        .noMorePages(query: "q", shown: 10, total: 10), .notFound(query: "q"), .seasonNotFound(imdbID: "tt0000001", season: 7),
        .tooManyResults(query: "q"), .incorrectIMDbID("tt1"), .dataUnavailable, .malformedRequest, .invalidAPIKey, .missingAPIKey,
        .quotaExhausted, .server(message: "m", status: 500), .httpStatus(503, url: "http://127.0.0.1/"),
        .timedOut(url: "http://127.0.0.1/", seconds: 10, tries: 3), .unreachable(url: "http://127.0.0.1/", reason: "refused"),
        .answerTooLarge(url: "http://127.0.0.1/", limit: 4_000_000), .invalidResponse(url: "http://127.0.0.1/", reason: "r"),
        .posterUnavailable, .posterNotAnImage(url: "http://127.0.0.1/p", contentType: nil), .posterTooLarge(bytes: 2, limit: 1),
        .posterNotWritten(path: "p", reason: "r"), .posterDownloadFailed(url: "http://127.0.0.1/p", reason: "r"),
    ]

    @Test(arguments: everyKind)
    func descriptionNamesNoOptionOrVariable(error: OMDbError) {
        for word in ["--", "OMDB_", ".env", "show N"] {
            #expect(!error.description.contains(word), "\(error.description)")
        }
    }
}
