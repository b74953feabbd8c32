import Foundation
import Testing
import TestSupport

/// MoviesCLI is the tool, not a library: it shows `main` what `main` uses (run the tool, exit
/// with its status) and nothing else. The library for programs of your own is OMDbKit.
@Suite struct PublicSurfaceTests {
    private static let sources = repositoryRoot.appendingPathComponent("Sources/MoviesCLI")

    @Test func theToolShowsMainOnlyWhatMainUses() throws {
        let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 40)
        var declared: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("public ") || code.contains(" public ") && !code.hasPrefix("//") {
                    declared.append("\(file.deletingPathExtension().lastPathComponent): \(code.prefix { $0 != "{" && $0 != "(" && $0 != ":" && $0 != "=" }.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(declared.sorted() == [
            "ExitStatus: public enum ExitStatus",
            "ExitStatus: public var code",
            "Movies: public static func run",
            "Movies: public enum Movies",
            "Runtime: public final class Runtime",
            "Runtime: public func exit",
            "Runtime: public init",
        ].sorted())
    }
}
