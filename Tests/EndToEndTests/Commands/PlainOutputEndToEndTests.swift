import FakeOMDb
import Foundation
import Synchronization
import Testing
import TestSupport

/// Issue 24: piped output prints each row once, whole (title line, plot, poster state), in rank
/// order, as soon as it and every row above it are done, so two runs read the same whatever
/// order the answers came in. Before, rows came in arrival order, each title two or three times.
@Suite struct PlainOutputEndToEndTests {
    /// A fake OMDb that holds one record (the one `hold` names, until its gate opens); everything
    /// else is answered at once. The held record's poster is on the server itself, as the others' are.
    private final class HoldingServer: Sendable {
        private final class State: Sendable {
            let hold = Mutex<(id: String, gate: ServerGate)?>(nil)
            let base = Mutex<URL?>(nil)
        }
        private let state: State
        let server: FakeOMDbServer

        init() throws {
            let state = State()
            self.state = state
            server = try FakeOMDbServer(catalogue: catalogue) { request in
                guard let (id, gate) = state.hold.withLock({ $0 }), request.queryItems.contains(where: { $0.name == "i" && $0.value == id }),
                      let posterBase = state.base.withLock({ $0 }) else { return nil }
                let answer = catalogue.answer(request.queryItems, posterBase: posterBase)
                return ServerResponse(status: answer.statusCode, headers: ["Content-Type": "application/json"], body: answer.body,
                                      stall: Stall(after: 0, pause: .seconds(60), gate: gate))
            }
            state.base.withLock { $0 = server.baseURL }
        }

        /// From now on the record of `id` is held until `gate` opens.
        func hold(_ id: String, until gate: ServerGate) { state.hold.withLock { $0 = (id, gate) } }

        var recordRequests: Int { server.apiRequests.filter { $0.queryItems.contains { $0.name == "i" } }.count }
    }

    /// `movies search toxic --posters p`, piped, with the record of `held` answered last: the gate
    /// opens once every record has been asked for and every other one answered (the held one,
    /// its answer begun, is not counted in flight). A long `--timeout`: the held answer must
    /// not be given up on and asked for again, however late a loaded machine opens the gate.
    /// - Returns: the outcome, and stdout as it was when the gate opened.
    private func search(holding held: String, on holding: HoldingServer, in folder: URL) async throws -> (outcome: MoviesProcess.Outcome, beforeGate: String) {
        let gate = ServerGate()
        defer { gate.open() }
        holding.hold(held, until: gate)
        let server = holding.server
        let asked = holding.recordRequests
        let movies = try MoviesProcess(["search", "toxic", "--posters", "p", "--timeout", "600", "--base-url", server.baseURL.absoluteString], directory: folder,
                                       environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
        do {
            try await waitUntil("every record but \(held)'s to be answered") {
                holding.recordRequests == asked + 10 && server.requestsInFlight == 0
            }
        } catch {
            Issue.record("\(error): \(server.requests.map { "\($0.method) \($0.target)" }), \(server.requestsInFlight) in flight\n\(movies.stdoutSoFar)\n\(movies.stderrSoFar)")
            throw error
        }
        let beforeGate = movies.stdoutSoFar
        gate.open()
        return (await movies.finish(), beforeGate)
    }

    /// The rows' title lines (`  3. Title (1984)  movie  tt…`), in the order printed.
    private func printedRows(_ stdout: String) -> [Int] {
        stdout.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: #/\s*(\d+)\. .* \(\d{4}(–\d{4})?\)  (movie|series)  tt\d{7}.*/#).flatMap { Int($0.1) }
        }
    }

    @Test func rowsArrivingBeforeTheFirstArePrintedInRankOrderEachOnce() async throws {
        try await withTemporaryFolder { folder in
            let holding = try HoldingServer()
            defer { holding.server.shutdown() }
            let (outcome, beforeGate) = try await search(holding: "tt0090190", on: holding, in: folder)
            // Rows 2 to 10 were in, row 1 not: nothing but the heading was printed.
            #expect(beforeGate == "" || beforeGate == "Results for \"toxic\": page 1 of 1, 10 in all\n", "\(beforeGate)")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let out = outcome.stdout
            #expect(printedRows(out) == Array(1...10), "\(out)")
            // Each title once, its plot and poster state under it, before the next row.
            #expect(out.components(separatedBy: "The Toxic Avenger (1984)  movie").count == 2, "\(out)")
            let first = try #require(out.range(of: "  1. The Toxic Avenger (1984)  movie  tt0090190"))
            let second = try #require(out.range(of: "\n  2. "))
            let block = out[first.upperBound..<second.lowerBound]
            #expect(block.contains("\n     A bullied health-club janitor"), "\(block)")
            #expect(block.hasSuffix("\n     poster saved: p/The Toxic Avenger (1984) [tt0090190].png"), "\(block)")
            #expect(!out.contains("\u{1B}"))
            #expect(out.hasSuffix("Showing 10 of 10: that is all.\n"), "\(out)")
        }
    }

    @Test func twoRunsPrintTheSameWhateverTheArrivalOrder() async throws {
        try await withTemporaryFolder { folder in
            let one = folder.appendingPathComponent("one", isDirectory: true)
            let two = folder.appendingPathComponent("two", isDirectory: true)
            try FileManager.default.createDirectory(at: one, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: two, withIntermediateDirectories: true)
            // The first row answered last, then the last row answered last (one server: the
            // messages that name its address read the same).
            let holding = try HoldingServer()
            defer { holding.server.shutdown() }
            let firstLast = try await search(holding: "tt0090190", on: holding, in: one).outcome
            let lastRow = try #require(firstLast.stdout.split(separator: "\n").first { $0.hasPrefix(" 10. ") }?
                .firstMatch(of: /tt\d{7}/).map { String($0.output) })
            let lastLast = try await search(holding: lastRow, on: holding, in: two).outcome
            #expect(firstLast.status == 0 && lastLast.status == 0)
            #expect(printedRows(firstLast.stdout) == Array(1...10), "\(firstLast.stdout)")
            #expect(firstLast.stdout == lastLast.stdout)
        }
    }
}
