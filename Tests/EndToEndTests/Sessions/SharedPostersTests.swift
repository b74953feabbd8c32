import FakeOMDb
import Foundation
import Testing
import TestSupport

/// Two runs of the built `movies` sharing one posters folder, over the fake OMDb on 127.0.0.1.
@Suite struct SharedPostersFolderProcessTests {
    @Test func twoRunsSharingAPostersFolderBothSaveEveryPosterAndLeaveNoTemporaryFile() async throws {
        try await withTemporaryFolder { folder in
            // The first download of each poster stalls after its first bytes until the second run is
            // done: the first run holds its temporary files open while the second starts, sweeps the
            // folder for leftovers and saves the same posters.
            let firstTime = FaultPlan.firstAttempts(1, ServerResponse(), where: FaultPlan.posters)
            let gate = ServerGate()
            let server = try FakeOMDbServer(catalogue: catalogue) { request in
                guard firstTime(request) != nil, let data = catalogue.posterData(atPath: request.path) else { return nil }
                return ServerResponse(headers: ["Content-Type": "image/jpeg"], body: data, stall: Stall(after: 16, pause: .seconds(60), gate: gate))
            }
            defer { server.shutdown() }
            let posters = folder.appendingPathComponent("posters")
            let arguments = ["search", "toxic", "--base-url", server.baseURL.absoluteString, "--posters", posters.path, "--timeout", "60"]
            let environment = ["OMDB_API_KEY": FakeOMDbServer.validKey]
            let first = try MoviesProcess(arguments, directory: folder, environment: environment)
            // Waits on the event, with the suites' usual 60 s backstop (the gate, the first run's
            // --timeout and the stall as long): with two test runs at once on two busy cores, the
            // first run took more than the 20 s this waited, and the test failed before it began.
            try await waitUntil("the first run's temporary poster files") { files(in: posters).contains { $0.hasPrefix(".movies-partial-") } }
            let second = try await MoviesProcess.run(arguments, directory: folder, environment: environment)
            gate.open()
            let firstOutcome = await first.finish()
            for outcome in [firstOutcome, second] {
                #expect(outcome.status == 0, "\(outcome.stderr)")
                #expect(!outcome.stdout.contains("could not write"))
                // Saved by this run, or found saved by the other one (under its row since issue 24).
                let saved = outcome.stdout.split(separator: "\n").filter { $0.contains(/^ +poster (already )?saved:/) }
                #expect(saved.count == 5, "\(outcome.stdout)")
            }
            #expect(files(in: posters).count == 5)
            #expect(!files(in: posters).contains { $0.hasPrefix(".") })
        }
    }
}
