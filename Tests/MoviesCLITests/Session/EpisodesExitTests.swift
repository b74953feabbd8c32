import Foundation
import OMDbKit
import OMDbTestSupport
import Testing
@testable import MoviesCLI

/// `movies episodes` with nothing to list fails (exit 1) with one line saying why, as `show` of a
/// missing title does: a movie, a season past the last, a query that finds no series.
@MainActor
@Suite struct EpisodesExitTests {
    /// Answers every season request with `season`'s JSON and every search with nothing.
    struct SeasonStub: InMemoryTransport {
        let season: Data
        func answer(_ url: URL, timeout: Int) async throws -> HTTPResponse {
            let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            if query.contains(where: { $0.name == "s" }) {
                return StubTransport.json(["Response": "False", "Error": "Series not found!"])
            }
            return HTTPResponse(statusCode: 200, body: season, contentType: "application/json")
        }
    }

    private func run(_ season: [String: Any], target: String = "tt0000001", number: Int, json: Bool) async -> (MoviesCLI.ExitStatus, Capture) {
        let capture = Capture()
        let client = OMDbClient(configuration: .init(apiKey: "stub-key", baseURL: StubTransport.baseURL), transport: SeasonStub(season: try! JSONSerialization.data(withJSONObject: season)))
        let session = Session(client: client, settings: Settings(), console: capture.console(),
                              presenter: TextPresenter(console: capture.console(), currentDirectory: URL(fileURLWithPath: "/")),
                              currentDirectory: URL(fileURLWithPath: "/"))
        let status = await OneShot(session: session)
            .run(episodesOf: target, season: number, lines: json ? .json(fields: nil) : nil)
        return (status, capture)
    }

    @Test(arguments: [true, false])
    func aMovieHasNoSeasons(json: Bool) async {
        let (status, capture) = await run(["Title": "The Toxic Avenger", "Season": "1", "totalSeasons": "N/A", "Episodes": [], "Response": "True"],
                                          number: 1, json: json)
        #expect(status == .failure)
        #expect(capture.out == "")
        #expect(capture.errLines == ["error: OMDb lists no seasons for The Toxic Avenger (tt0000001): episodes takes a series, and this looks like a movie."])
    }

    @Test(arguments: [true, false])
    func aSeasonPastTheLastSaysHowMany(json: Bool) async {
        let (status, capture) = await run(["Title": "Six Feet Under", "Season": "7", "totalSeasons": "6", "Episodes": [], "Response": "True"],
                                          number: 7, json: json)
        #expect(status == .failure)
        #expect(capture.out == "")
        #expect(capture.errLines == ["error: Six Feet Under (tt0000001) has 6 seasons, so there is no season 7: give --season 1 to 6."])
    }

    @Test func seasonNotFoundAndNoSuchSeriesFail() async {
        let (status, capture) = await run(["Response": "False", "Error": "Series or season not found!"], number: 3, json: true)
        #expect(status == .failure)
        #expect(capture.errLines.count == 1)
        let (queryStatus, queryCapture) = await run([:], target: "no such series", number: 1, json: true)
        #expect(queryStatus == .failure)
        #expect(queryCapture.errLines.count == 1)
    }
}
