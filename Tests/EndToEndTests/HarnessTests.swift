import Foundation
import Testing
import TestSupport

/// The harness the end-to-end tests share.
@Suite struct HarnessTests {
    /// A line typed after the tool has exited goes nowhere; the SIGPIPE of that write once killed
    /// the whole test run (every suite lost) when a loaded machine let a tool exit first.
    @Test func typingToAToolThatHasExitedLeavesTheTestRunAlive() async throws {
        try await withTemporaryFolder { folder in
            let movies = try MoviesProcess(["--version"], directory: folder)
            try await movies.exited.wait(for: "movies --version to exit")
            movies.send("alien")
            movies.send("quit")
            let outcome = await movies.finish()
            #expect(outcome.status == 0)
        }
    }
}
