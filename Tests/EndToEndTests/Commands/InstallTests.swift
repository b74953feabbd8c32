import Foundation
import Testing
import TestSupport

extension Tag {
    /// Tests that take seconds: `swift test --skip slow`-style filters can leave them out.
    @Tag static var slow: Self
}

/// `make install` into a fresh prefix, the installed `movies` run from elsewhere with no key
/// and no source tree to lean on, then `make uninstall`. Installs the binary the test run already
/// built (`BIN=`: the debug build, or CI's), since an optimised build would cost minutes on two cores.
@Suite(.tags(.slow)) struct InstallTests {
    static let makeTool = ["/usr/bin/make", "/bin/make"].map(URL.init(fileURLWithPath:))
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    func make(_ target: String, prefix: URL) async throws -> MoviesProcess.Outcome {
        try await MoviesProcess.run(["-s", "-C", repositoryRoot.path, target, "PREFIX=\(prefix.path)",
                                     "BIN=\(MoviesProcess.executable.path)"],
                                    directory: prefix, executable: try #require(Self.makeTool))
    }

    /// Every path under `folder`, relative, sorted.
    func tree(_ folder: URL) -> [String] {
        let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return paths.sorted()
    }

    @Test(.enabled(if: makeTool != nil, "make is not installed"))
    func installedMoviesAnswersOfflineFromAnywhereAndUninstallLeavesThePrefixAsItWas() async throws {
        try await withTemporaryFolder { folder in
            let prefix = folder.appendingPathComponent("prefix")
            // A prefix that already holds something of its own, which must survive.
            try FileManager.default.createDirectory(at: prefix.appendingPathComponent("share/man"), withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: prefix.appendingPathComponent("share/man/keep.txt"))
            let before = tree(prefix)

            let install = try await make("install", prefix: prefix)
            #expect(install.status == 0, "make install failed: \(install.stderr)")
            for path in ["bin/movies", "share/movies/catalogue.json", "share/movies/episodes.json", "share/man/man1/movies.1", "share/bash-completion/completions/movies",
                         "share/zsh/site-functions/_movies", "share/fish/vendor_completions.d/movies.fish"] {
                #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path), "\(path) not installed")
            }
            #expect(tree(prefix).count(where: { $0.hasPrefix("share/movies/posters/") }) == files(in: MoviesProcess.catalogueFolder.appendingPathComponent("posters")).count)

            // The manual page reads cleanly, without a troff warning.
            let man = URL(fileURLWithPath: "/usr/bin/man")
            if FileManager.default.isExecutableFile(atPath: man.path) {
                let page = try await MoviesProcess.run(["--warnings", "-l", prefix.appendingPathComponent("share/man/man1/movies.1").path],
                                                       directory: folder, executable: man)
                #expect(page.status == 0 && page.stderr.isEmpty, "man: \(page.stderr)")
                #expect(page.stdout.contains("PROMPT COMMANDS") && page.stdout.contains("OMDB_API_KEY"))
            }   // else man is not installed: the page is not rendered (the rest of the test still runs)

            // Elsewhere, no key, no MOVIES_CATALOGUE: the installed catalogue answers.
            let elsewhere = folder.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            let installed = prefix.appendingPathComponent("bin/movies")
            let session = try await MoviesProcess.run([], lines: ["alien", "quit"], directory: elsewhere,
                                                      environment: ["MOVIES_CATALOGUE": ""], executable: installed)
            #expect(session.status == 0)
            #expect(session.stderr.contains("Offline catalogue (no API key): \(catalogue.count) titles"), "\(session.stderr)")
            #expect(session.stdout.contains("Alien (1979)"))
            // The offline seasons are installed too (a hostile pass found `episodes --offline` said
            // "OMDb has no season 2" once installed: episodes.json was left out).
            let episodes = try await MoviesProcess.run(["episodes", "breaking", "bad", "--season", "2", "--offline"], directory: elsewhere,
                                                       environment: ["MOVIES_CATALOGUE": ""], executable: installed)
            #expect(episodes.status == 0, "\(episodes.stderr)")
            #expect(episodes.stdout.contains("Breaking Bad, season 2 of 5") && episodes.stdout.contains("Grilled"), "\(episodes.stdout)")
            // And it is the installed catalogue that answers, not the source tree's.
            let installedCatalogue = prefix.appendingPathComponent("share/movies/catalogue.json")
            let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: installedCatalogue)) as? [Any] ?? []
            try JSONSerialization.data(withJSONObject: Array(entries.prefix(3))).write(to: installedCatalogue)
            let trimmed = try await MoviesProcess.run([], lines: ["quit"], directory: elsewhere,
                                                      environment: ["MOVIES_CATALOGUE": ""], executable: installed)
            #expect(trimmed.stderr.contains("Offline catalogue (no API key): 3 titles"), "\(trimmed.stderr)")
            // Without it, no other copy is taken (the build's resource bundle, which SwiftPM's
            // Bundle.module would find by its path): one line says how to get it back.
            try FileManager.default.removeItem(at: installedCatalogue)
            let missing = try await MoviesProcess.run(["search", "alien"], directory: elsewhere,
                                                      environment: ["MOVIES_CATALOGUE": ""], executable: installed)
            #expect(missing.status != 0 && missing.stdout.isEmpty, "\(missing.stdout)")
            #expect(missing.stderr.contains("was not found beside movies (../share/movies): reinstall with make install"), "\(missing.stderr)")

            let uninstall = try await make("uninstall", prefix: prefix)
            #expect(uninstall.status == 0, "make uninstall failed: \(uninstall.stderr)")
            #expect(tree(prefix) == before)
        }
    }
}
