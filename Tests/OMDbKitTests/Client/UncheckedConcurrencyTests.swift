import Foundation
import Testing
import TestSupport

/// The product code is checked by the compiler for data races, whole: no state is declared safe
/// by hand. Thread-confined state is confined by a type only its thread reaches (the curl engine's
/// `EngineLoop`, the line reader's `Reading`), shared state is behind a lock or an actor.
@Suite struct UncheckedConcurrencyTests {
    private static let sources = repositoryRoot.appendingPathComponent("Sources")

    @Test func noProductCodeOptsOutOfTheCompilersChecks() throws {
        let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 50)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("nonisolated(unsafe)") || line.contains("@unchecked Sendable") {
                found.append("\(file.path.dropFirst(Self.sources.path.count + 1)):\(number + 1)")
            }
        }
        #expect(found.isEmpty, "declared safe by hand: \(found.joined(separator: ", "))")
    }
}
