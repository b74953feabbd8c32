import FakeOMDb
import Foundation
import OMDbKit
import Testing
import TestSupport

/// The built `movies` under what a hostile machine does to it (issue 36): a library planted beside
/// it, runs killed mid-write.
@Suite struct HostileConditionsProcessTests {
    static let compiler = ["/usr/bin/cc", "/bin/cc", "/usr/bin/clang"].map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// The fake OMDb's key and address, for a search that sends requests.
    static func online(_ server: FakeOMDbServer) -> [String: String] {
        ["OMDB_API_KEY": FakeOMDbServer.validKey, "OMDB_BASE_URL": server.baseURL.absoluteString]
    }

    // MARK: A library planted beside it

    /// A `libcurl.so.4` put beside `movies` (its RUNPATH has `$ORIGIN` when SwiftPM links it) is
    /// not loaded: its constructor never runs, and the system's libcurl sends the search. Before,
    /// the planted one was loaded first.
    @Test(.enabled(if: compiler != nil, "needs a C compiler to make the planted library"))
    func aLibcurlPlantedBesideMoviesIsNeverLoaded() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        try await withTemporaryFolder { folder in
            let bin = folder.appendingPathComponent("bin"), marker = folder.appendingPathComponent("constructor-ran")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: MoviesProcess.executable, to: bin.appendingPathComponent("movies"))
            let source = folder.appendingPathComponent("planted.c")
            try Data("""
                #include <stdio.h>
                #include <stdlib.h>
                __attribute__((constructor)) static void planted(void) { fclose(fopen(getenv("PLANTED_MARKER"), "w")); }
                """.utf8).write(to: source)
            try #require(commandOutput([try #require(Self.compiler).path, "-shared", "-fPIC", "-o", bin.appendingPathComponent("libcurl.so.4").path, source.path]) != nil)
            let outcome = try await MoviesProcess.run(["search", "toxic"], directory: folder,
                                                      environment: Self.online(server).merging(["PLANTED_MARKER": marker.path]) { $1 },
                                                      executable: bin.appendingPathComponent("movies"))
            #expect(outcome.status == 0 && outcome.stdout.contains("Results for"), "\(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: marker.path))
        }
    }

    // MARK: Runs killed mid-write

    /// What a `save` killed mid-write (kill -9) leaves, `.NAME.OWNER-RANDOM.tmp`, goes with the
    /// next save into that folder, whichever file it writes; a live run's, and a file of the
    /// user's, stay. Before, they stayed for good, `save!` of the same file included.
    @Test func aSaveRemovesWhatKilledSavesLeftInItsFolder() async throws {
        try await withTemporaryFolder { folder in
            let gone = "\(try exitedProcessID())-1", live = PosterOwner.current.tag
            let planted = [".movies.csv.\(gone)-1x2y.tmp", ".other.json.\(gone)-3z4w.tmp", ".movies.csv.\(live)-5v6u.tmp", ".notes.tmp"]
            for name in planted { try Data("half".utf8).write(to: folder.appendingPathComponent(name)) }
            let outcome = try await MoviesProcess.run(["--offline"], lines: ["toxic", "save! movies.csv", "quit"], directory: folder)
            #expect(outcome.status == 0 && outcome.stdout.contains("Saved 10 movies to"), "\(outcome.stdout)\(outcome.stderr)")
            let left = files(in: folder).filter { $0.hasSuffix(".tmp") }
            #expect(left == [".movies.csv.\(live)-5v6u.tmp", ".notes.tmp"])
        }
    }
}
