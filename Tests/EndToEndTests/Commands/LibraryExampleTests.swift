import FakeOMDb
import Foundation
import OMDbCatalogue
import OMDbKit
import Testing
import TestSupport

/// The library's example programs (`Examples/`, a package of its own that depends on this one by
/// path): README.md and docs/library.md show their code as it is, and each built program is run as
/// a user would run it, from a folder of its own. `.ci/run` builds them and names their folder in
/// `MOVIES_EXAMPLES`; without it, and with no `Examples/.build`, the runs are skipped.
@Suite struct LibraryExamplesProcessTests {
    static let examples = ["live-search", "offline-catalogue", "two-searches"]
    static let notBuilt: Comment = "Examples/ is not built: .ci/run builds it (swift build --package-path Examples)"

    /// The built examples' folder: `MOVIES_EXAMPLES` (even when missing: CI names what it built,
    /// and a missing program must fail, not skip), else `Examples/.build/debug` when built there.
    static let built: URL? = {
        if let named = ProcessInfo.processInfo.environment["MOVIES_EXAMPLES"], !named.isEmpty { return URL(fileURLWithPath: named) }
        let debug = repositoryRoot.appendingPathComponent("Examples/.build/debug")
        return examples.allSatisfy { FileManager.default.isExecutableFile(atPath: debug.appendingPathComponent($0).path) } ? debug : nil
    }()

    static func executable(_ name: String) throws -> URL { try #require(built).appendingPathComponent(name) }

    /// What `marker` introduces in `text`: the fenced block after it, or `nil` when `text` has no such marker.
    static func block(after marker: String, in text: String) -> String? {
        guard let start = text.range(of: marker + "\n```swift\n"),
              let end = text.range(of: "\n```\n", range: start.upperBound..<text.endIndex) else { return nil }
        return String(text[start.upperBound..<end.lowerBound]) + "\n"
    }

    /// The package and each program are shown, where they are shown, exactly as they are.
    @Test(arguments: ["Package.swift"] + examples.map { "Sources/\($0)/main.swift" })
    func theDocumentationShowsTheExampleAsItIs(file: String) throws {
        let source = try String(contentsOf: repositoryRoot.appendingPathComponent("Examples/\(file)"), encoding: .utf8)
        var shown: [String] = []
        for document in ["README.md", "docs/library.md"] {
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent(document), encoding: .utf8)
            if let block = Self.block(after: "<!-- example: Examples/\(file) -->", in: text) { shown.append(block) }
        }
        #expect(!shown.isEmpty, "neither README.md nor docs/library.md shows Examples/\(file)")
        #expect(shown.allSatisfy { $0 == source }, "a copy of Examples/\(file) differs from the file")
    }

    @Test(.enabled(if: built != nil, notBuilt))
    func liveSearchPrintsPlotsAndSavesPosters() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["toxic", "avenger"], directory: folder, environment: [
                "OMDB_API_KEY": FakeOMDbServer.validKey, "OMDB_BASE_URL": server.baseURL.absoluteString,
            ], executable: try Self.executable("live-search"))
            #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix("4 results; page 1 of 1:\n"), "\(outcome.stdout)")
            #expect(outcome.stdout.contains("The Toxic Avenger (1984): A bullied health-club janitor"), "\(outcome.stdout)")
            let posters = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("posters").path)
            #expect(posters.count == 4 && posters.contains { $0.hasPrefix("The Toxic Avenger (1984) [tt0090190].") }, "\(posters)")
            #expect(server.apiRequests.allSatisfy { $0.queryItems.contains { $0.name == "apikey" && $0.value == FakeOMDbServer.validKey } })
        }
    }

    @Test(.enabled(if: built != nil, notBuilt))
    func liveSearchWithoutAKeySaysWhereToGetOne() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run([], directory: folder, executable: try Self.executable("live-search"))
            #expect([outcome.status, outcome.stdout, outcome.stderr] as [AnyHashable]
                    == [2, "", "Set OMDB_API_KEY to your OMDb key (a free one: https://www.omdbapi.com/apikey.aspx).\n"])
        }
    }

    /// No key, no network, no path: the catalogue shipped with the library answers, from a folder
    /// that holds nothing (the library never reads `MOVIES_CATALOGUE`, the tool's variable).
    @Test(.enabled(if: built != nil, notBuilt))
    func offlineCatalogueAnswersFromAnyFolderWithNoKey() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(["alien"], directory: folder, environment: ["MOVIES_CATALOGUE": ""],
                                                      executable: try Self.executable("offline-catalogue"))
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let lines = outcome.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "5 titles match \"alien\":" && lines.count == 6, "\(outcome.stdout)")
            #expect(lines.contains("Alien, released 1979-06-22, Horror/Sci-Fi, 8.5/10"), "\(outcome.stdout)")
        }
    }

    /// Copied elsewhere without the resource bundle its build put beside it, the program says
    /// what is missing, in one line, and does not crash.
    @Test(.enabled(if: built != nil, notBuilt))
    func offlineCatalogueWithoutItsResourceBundleSaysSo() async throws {
        try await withTemporaryFolder { folder in
            let copy = folder.appendingPathComponent("offline-catalogue")
            try copyExecutable(try Self.executable("offline-catalogue"), to: copy)
            let outcome = try await MoviesProcess.run([], directory: folder, executable: copy)
            #expect(outcome.status == 1 && outcome.stdout.isEmpty, "\(outcome.stdout)")
            #expect(outcome.stderr == "offline-catalogue: \(folder.path): the offline catalogue's resource bundle (…_OMDbCatalogue.resources, "
                    + ".bundle on macOS) is not beside the program: copy it from the build folder (swift build --show-bin-path) with it\n")
        }
    }

    /// Both first pages, each from its own task over one client, are the pages a search alone gets.
    @Test(.enabled(if: built != nil, notBuilt))
    func twoSearchesPrintBothFirstPages() async throws {
        let client = OMDbClient(configuration: CatalogueTransport.configuration, transport: CatalogueTransport(catalogue: catalogue))
        var expected = ""
        for query in ["star", "alien"] {
            expected += "\(query): " + (try await client.search(query).next()).items.map(\.title).joined(separator: ", ") + "\n"
        }
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(["star", "alien"], directory: folder, executable: try Self.executable("two-searches"))
            #expect([outcome.status, outcome.stdout, outcome.stderr] as [AnyHashable] == [0, expected, ""])
        }
    }
}
