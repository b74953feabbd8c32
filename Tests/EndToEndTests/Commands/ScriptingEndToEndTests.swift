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

    /// gh's way: only the keys named, one line from a template, and nothing on stderr with -q
    /// (not even the note every run against another host begins with).
    @Test func fieldsAndTemplatesWriteOnlyWhatIsAskedAndQuietKeepsStderrEmpty() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let picked = try await Self.run(["search", "toxic", "--json=title,year", "-q"], server: server, in: folder)
            #expect(picked.status == 0 && picked.fullStderr.isEmpty, "\(picked.fullStderr)")
            let objects = try picked.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(objects.count == 10 && objects.allSatisfy { Set($0.keys) == ["title", "year"] })
            #expect(objects.first?["title"] as? String == "The Toxic Avenger")
            let lines = try await Self.run(["search", "toxic", "--format", #"{imdbID}\t{title} ({year})"#, "--quiet"], server: server, in: folder)
            #expect(lines.status == 0 && lines.fullStderr.isEmpty)
            let rows = lines.stdout.split(separator: "\n")
            #expect(rows.count == 10 && rows.allSatisfy { $0.wholeMatch(of: /tt[0-9]+\t.+ \([0-9]{4}.*\)/) != nil }, "\(lines.stdout)")
            #expect(rows.first == "tt0090190\tThe Toxic Avenger (1984)")
            let shown = try await Self.run(["show", "tt0090190", "--json", "--fields", "title,runtimeMinutes"], server: server, in: folder)
            #expect(shown.stdout == #"{"runtimeMinutes":82,"title":"The Toxic Avenger"}"# + "\n")
            let episodes = try await Self.run(["episodes", "tt0098936", "--format", "{season}.{episode} {title}"], server: server, in: folder)
            #expect(episodes.stdout.hasPrefix("1.0 Pilot\n1.1 "), "\(episodes.stdout)")
            // Without -q the note is there, as before.
            #expect(try await Self.run(["show", "tt0090190", "--json=title"], server: server, in: folder).fullStderr.hasPrefix("Note: OMDb requests go to 127.0.0.1"))
        }
    }

    @Test func aFieldTheCommandHasNotIsAUsageErrorBeforeAnyRequest() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            for arguments in [["search", "toxic", "--json=title,yeer"], ["show", "tt0090190", "--format", "{title} {page}"],
                              ["episodes", "tt0098936", "--json", "--fields", "plot"], ["search", "toxic", "--fields", "title"]] {
                let outcome = try await Self.run(arguments, server: server, in: folder)
                #expect(outcome.status == 2 && outcome.stdout.isEmpty && outcome.stderr.hasPrefix("error: "), "\(arguments): \(outcome.stderr)")
            }
            let unknown = try await Self.run(["search", "toxic", "--json=title,yeer"], server: server, in: folder)
            #expect(unknown.stderr.contains(#"unknown field "yeer" for --json: movies search has actors, awards,"#) && unknown.stderr.contains(" year\n"))
            #expect(server.apiRequests.isEmpty)
        }
    }

    /// `movies catalogue` lists the offline catalogue, key or no key, and sends nothing.
    @Test func theCatalogueIsListedAsAOneShot() async throws {
        try await withTemporaryFolder { folder in
            let text = try await MoviesProcess.run(["catalogue"], directory: folder)
            #expect(text.status == 0 && text.fullStderr.isEmpty)
            let rows = text.stdout.split(separator: "\n")
            #expect(rows.first == "The offline catalogue: 245 titles" && rows.count == 246)
            #expect(rows.contains("  Star Wars: Episode IV - A New Hope (1977)  movie  tt0076759"))
            let json = try await MoviesProcess.run(["catalogue", "--json"], directory: folder)
            let objects = try json.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]) }
            #expect(objects.count == 245 && objects.allSatisfy { Set($0.keys) == ["imdbID", "title", "year", "type"] })
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let lines = try await Self.run(["catalogue", "--format", "{imdbID} {type}"], server: server, in: folder)
            #expect(lines.status == 0 && lines.fullStderr.isEmpty && lines.stdout.split(separator: "\n").count == 245)
            #expect(lines.stdout.contains("tt0076759 movie\n") && server.requests.isEmpty)
        }
    }

    /// --quiet leaves out notes, never the reason for a failure: a poster that cannot be written fails `show`.
    @Test func quietStillSaysWhyACommandFailed() async throws {
        try await withTemporaryFolder { folder in
            // A folder where the poster's file would go.
            let posters = folder.appendingPathComponent("p")
            try FileManager.default.createDirectory(at: posters.appendingPathComponent("Star Wars: Episode IV - A New Hope (1977) [tt0076759].jpg"),
                                                    withIntermediateDirectories: true)
            let outcome = try await MoviesProcess.run(["show", "tt0076759", "--offline", "--posters", "p", "-q"], directory: folder)
            #expect(outcome.status == 1)
            #expect(outcome.fullStderr.hasPrefix("error: No poster saved: ") && outcome.fullStderr.split(separator: "\n").count == 1, "\(outcome.fullStderr)")
        }
    }
}
