import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 21: a cache or state folder of one's own that others could write in is tightened to
/// 0700, and one line says so, once (it was tightened without a word).
@Suite struct TightenedFolderEndToEndTests {
    @Test func aFolderOfOnesOwnOpenToOthersIsTightenedAndToldOnce() async throws {
        try await withTemporaryFolder { folder in
            let environment = SpendingEndToEndTests.environment(folder)
            let cache = folder.appendingPathComponent("xdg-cache/movies")
            let state = folder.appendingPathComponent("xdg-state/movies")
            for made in [cache, state] {
                try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
                #expect(chmod(made.path, 0o777) == 0)
            }
            let first = try await MoviesProcess.run(["quota"], directory: folder, environment: environment)
            #expect(first.status == 0)
            #expect(first.stderr.split(separator: "\n").sorted() == [
                "Note: \(cache.path) was open to other users; it is now 0700.",
                "Note: \(state.path) was open to other users; it is now 0700.",
            ])
            for made in [cache, state] {
                var info = stat()
                #expect(stat(made.path, &info) == 0 && info.st_mode & 0o777 == 0o700)
            }
            let second = try await MoviesProcess.run(["quota"], directory: folder, environment: environment)
            #expect(second.stderr.isEmpty, "\(second.stderr)")
        }
    }
}
