import Foundation
import Testing
@testable import MoviesCLI

/// The history file: where it is, what it keeps, and two writers at once.
@Suite struct HistoryTests {
    @Test func theFileFollowsXDGStateHomeAndCanBeTurnedOff() {
        #expect(History.file(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])?.path == "/s/movies/history")
        #expect(History.file(environment: ["HOME": "/h"])?.path == "/h/.local/state/movies/history")
        #expect(History.file(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"])?.path == "/h/.local/state/movies/history")
        #expect(History.file(environment: ["HOME": "/h", "MOVIES_HISTORY": "off"]) == nil)
        #expect(History.file(environment: ["HOME": "/h", "MOVIES_HISTORY": "/elsewhere/h"])?.path == "/elsewhere/h")
    }

    @Test(arguments: [
        ("alien", "toxic", true),
        ("alien", "alien", false),
        (" secret search", nil, false),
        ("   ", nil, false),
        ("search KEY123", nil, false),
        ("posters out", nil, true),
    ] as [(String, String?, Bool)])
    func linesKeptFollowTheRules(_ line: String, previous: String?, kept: Bool) {
        #expect(History.keeps(line, after: previous, secret: "KEY123") == kept)
    }

    @Test func theFileIsPrivateAndKeepsTheLastThousand() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let history = History(file: folder.appendingPathComponent("state/movies/history"), secret: nil)
        for number in 1...1_005 { history.add("search \(number)") }
        history.add("search 1005")
        let entries = history.load()
        #expect(entries.count == 1_000)
        #expect(entries.first == "search 6" && entries.last == "search 1005")
        let mode = try FileManager.default.attributesOfItem(atPath: history.file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: history.file.deletingLastPathComponent().path)
        #expect(leftovers.filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func twoSessionsWritingAtOnceLoseNothingAndCorruptNothing() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let file = folder.appendingPathComponent("history")
        await withTaskGroup(of: Void.self) { group in
            for writer in ["a", "b"] {
                group.addTask {
                    let history = History(file: file, secret: nil)
                    for number in 1...100 { history.add("\(writer) \(number)") }
                }
            }
        }
        let entries = History(file: file, secret: nil).load()
        #expect(entries.count == 200)
        #expect(Set(entries).count == 200)
        #expect(entries.allSatisfy { $0.split(separator: " ").count == 2 })
    }
}
