import Foundation
import Files
import OMDbTestSupport
import Testing
import TestSupport
@testable import OMDbCatalogue

/// The offline catalogue found beside the binary steers every answer: one someone else planted is refused (issue 21).
@Suite struct CataloguePlantedTests {
    @Test func aCatalogueSomeoneElseOwnsIsNotRead() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("catalogue.json")
            try Data(#"[{"imdbID":"tt0000001","Title":"Planted","Year":"2000","Type":"movie"}]"#.utf8).write(to: file)
            _ = try Catalogue(folder: folder)
            OtherUser.give(file, to: stranger)
            #expect(throws: AtomicFile.Problem.self) { try Catalogue(folder: folder) }
        }
    }
}
