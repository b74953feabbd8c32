import Foundation
import OMDbKit
import Testing
import TestSupport

/// The built `movies` under what a hostile machine does to it (issue 36): runs killed mid-write.
@Suite struct HostileConditionsProcessTests {
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
