import FakeOMDb
import Foundation
import OMDbKit
import Testing
import TestSupport

/// One-shots as scripts use them, through the built `movies`: a key checked before the cache
/// answers for it (against the fake OMDb server on 127.0.0.1), picked fields and templates, the
/// offline catalogue listed, and the same rule for every read command without a key.
@Suite struct ScriptingEndToEndTests {
    static func run(_ arguments: [String], server: FakeOMDbServer, in folder: URL, key: String = FakeOMDbServer.validKey,
                    _ extra: [String: String] = [:]) async throws -> MoviesProcess.Outcome {
        try await SpendingEndToEndTests.run(arguments, server: server, in: folder, ["OMDB_API_KEY": key].merging(extra) { _, new in new })
    }

    @Test func aKeyNeverSeenAcceptedIsCheckedByItsFirstRequestPastTheCache() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            #expect(try await Self.run(["search", "toxic"], server: server, in: folder).status == 0)
            #expect(server.apiRequests.count == 11)
            // Every answer is in the cache now, but this key was never accepted: its search goes out, and is refused.
            let wrong = try await Self.run(["search", "toxic"], server: server, in: folder, key: "wrongkey1")
            #expect(wrong.status == 1)
            #expect(wrong.stdout.isEmpty)
            #expect(wrong.stderr.contains("error: OMDb rejected the API key."), "\(wrong.fullStderr)")
            #expect(server.apiRequests.count == 12)
            // The key that was accepted is trusted with the cache: no request at all.
            #expect(try await Self.run(["search", "toxic"], server: server, in: folder).status == 0)
            #expect(server.apiRequests.count == 12)
            // Only a hash of it is kept.
            let state = folder.appendingPathComponent("xdg-state/movies")
            let kept = String(decoding: try Data(contentsOf: state.appendingPathComponent("accepted-keys.txt")), as: UTF8.self)
            #expect(kept.split(separator: "\n").count == 1 && !kept.contains(FakeOMDbServer.validKey) && !kept.contains("wrongkey1"))
            // Forgotten, it costs one request: the search itself, its ten records still from the cache.
            try FileManager.default.removeItem(at: state.appendingPathComponent("accepted-keys.txt"))
            #expect(try await Self.run(["search", "toxic"], server: server, in: folder).status == 0)
            #expect(server.apiRequests.count == 13)
        }
    }
}
