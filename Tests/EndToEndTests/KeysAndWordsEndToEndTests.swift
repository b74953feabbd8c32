import FakeOMDb
import Foundation
import OMDbKit
import Testing

/// What the built tool says about keys, URLs and files (issue 16): started as a process, each
/// test with its own folder, against the fake OMDb server when it needs the network.
@Suite struct KeysAndWordsEndToEndTests {
    /// A key shorter than OMDb's 8 characters is refused like a missing one: one line, status 2,
    /// no request sent. Offline, where no key is sent, it is not asked about.
    @Test(arguments: [["search", "alien", "--api-key", "k"], ["--api-key", "abc1234"]])
    func aKeyShorterThanOMDbsIsRefusedBeforeAnyRequest(arguments: [String]) async throws {
        try await withWorkingFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(arguments + ["--base-url", server.baseURL.absoluteString], lines: ["alien", "quit"], directory: folder)
            #expect(outcome.status == 2)
            let errors = outcome.fullStderr.split(separator: "\n").filter { !$0.hasPrefix(MoviesProcess.Outcome.fakeServerNotice) }
            #expect(errors.count == 1, "\(outcome.fullStderr)")
            #expect(errors.first?.contains("OMDb's keys are 8") == true, "\(outcome.fullStderr)")
            #expect(server.apiRequests.isEmpty)

            let offline = try await MoviesProcess.run(["search", "alien", "--offline", "--api-key", "k"], directory: folder)
            #expect(offline.status == 0, "\(offline.fullStderr)")
        }
    }

    /// A password in `--base-url` is masked in every message, like the key.
    @Test func aPasswordInTheBaseURLIsNeverShown() async throws {
        try await withWorkingFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.always(.failure(404)))
            defer { server.shutdown() }
            let base = server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "http://alice:S3cr3tPW@")
            let outcome = try await MoviesProcess.run(["search", "toxic", "--base-url", base], directory: folder,
                                                      environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
            #expect(outcome.fullStderr.contains("http://***@127.0.0.1"), "\(outcome.fullStderr)")
            #expect(!(outcome.stdout + outcome.fullStderr).contains("S3cr3tPW"))
        }
    }
}

/// `--pages N` as a person reads it (issue 16, finding 11).
@Suite struct PagesHintEndToEndTests {
    /// The way to more results is said once, after the last page, not under page 1 while page 2 follows.
    @Test func theHintComesOnceAfterTheLastPage() async throws {
        try await withWorkingFolder { folder in
            let catalogue = try Catalogue.synthetic(titles: 80, in: folder.appendingPathComponent("catalogue"))
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "bench", "--pages", "3"] + server.arguments, directory: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let hints = outcome.stdout.split(separator: "\n").filter { $0.contains("--pages") }
            #expect(hints == ["Showing 30 of 80. Use --pages 4 to see more."], "\(outcome.stdout)")
        }
    }

    /// The quota spent on page 1: said once, and the pages after it are not loaded.
    @Test func aQuotaSpentMidwayIsSaidOnceAndStopsThePagesNotStarted() async throws {
        try await withWorkingFolder { folder in
            let catalogue = try Catalogue.synthetic(titles: 80, in: folder.appendingPathComponent("catalogue"))
            let server = try FakeOMDbServer(catalogue: catalogue, fault: { request in
                request.recordID.map { $0 >= "tt0100005" } == true ? ServerResponse.limitReached : nil
            })
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "bench", "--pages", "3"] + server.arguments, directory: folder)
            #expect(outcome.status == 1)
            let said = (outcome.stdout + outcome.fullStderr).components(separatedBy: "daily request limit").count - 1
            #expect(said == 1, "\(outcome.stdout)\n\(outcome.fullStderr)")
            #expect(!outcome.stdout.contains("page 3 of"), "\(outcome.stdout)")
        }
    }
}
