import FakeOMDb
import Foundation
import Testing
import TestSupport

/// The README's "Use the library" program (`Examples/`, a package of its own that depends on this
/// one by path): the README shows its code as it is, and the built program searches and saves
/// posters against the fake OMDb server on 127.0.0.1. `.ci/run` builds it and names it in
/// `MOVIES_EXAMPLE`; without it the run is skipped.
@Suite struct LibraryExampleProcessTests {
    static let source = MoviesProcess.repositoryRoot.appendingPathComponent("Examples/Sources/search-posters/main.swift")
    static let marker = "<!-- example: Examples/Sources/search-posters/main.swift -->\n```swift\n"

    /// The built example: `MOVIES_EXAMPLE` (even when missing: CI names what it built, and a
    /// missing one must fail, not skip), else `Examples/.build/debug/search-posters` when there.
    static let executable: URL? = {
        if let named = ProcessInfo.processInfo.environment["MOVIES_EXAMPLE"], !named.isEmpty { return URL(fileURLWithPath: named) }
        let built = MoviesProcess.repositoryRoot.appendingPathComponent("Examples/.build/debug/search-posters")
        return FileManager.default.isExecutableFile(atPath: built.path) ? built : nil
    }()

    @Test func readmeShowsTheExampleAsItIs() throws {
        let readme = try String(contentsOf: MoviesProcess.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: Self.marker), "README.md has no block marked as the example")
        let end = try #require(readme.range(of: "\n```\n", range: start.upperBound..<readme.endIndex))
        let shown = String(readme[start.upperBound..<end.lowerBound]) + "\n"
        #expect(shown == (try String(contentsOf: Self.source, encoding: .utf8)))
    }

    @Test(.enabled(if: executable != nil, "Examples/ is not built: .ci/run builds it (swift build --package-path Examples)"))
    func exampleSearchesPrintsPlotsAndSavesPosters() async throws {
        let executable = try #require(Self.executable)
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["toxic", "avenger"], directory: folder, environment: [
                "OMDB_API_KEY": FakeOMDbServer.validKey, "OMDB_BASE_URL": server.baseURL.absoluteString,
            ], executable: executable)
            #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
            #expect(outcome.stdout.contains("The Toxic Avenger (1984): "))
            let posters = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("posters").path)
            #expect(posters.count == 4 && posters.contains { $0.hasPrefix("The Toxic Avenger (1984) [tt0090190].") }, "\(posters)")
            #expect(server.apiRequests.allSatisfy { $0.queryItems.contains { $0.name == "apikey" && $0.value == FakeOMDbServer.validKey } })
        }
    }

    @Test(.enabled(if: executable != nil, "Examples/ is not built: .ci/run builds it (swift build --package-path Examples)"))
    func exampleWithoutAKeySaysWhereToGetOne() async throws {
        let executable = try #require(Self.executable)
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run([], directory: folder, executable: executable)
            #expect(outcome.status == 2)
            #expect(outcome.stdout.contains("OMDB_API_KEY"))
        }
    }
}
