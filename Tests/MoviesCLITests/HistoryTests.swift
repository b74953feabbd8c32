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

    @Test func aDamagedFileNeverReplaysControlCharactersOnTheScreen() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let file = folder.appendingPathComponent("history")
        // CRLF line ends (edited on Windows), an escape sequence that clears the screen, a bell,
        // a NUL and bytes that are not UTF-8.
        let bytes: [UInt8] = Array("good one\r\nbad \u{1B}[2J\u{1B}[31mred\u{07}bell\u{00}nul".utf8) + [0xFF, 0xFE] + Array(" end\nlast\r\n".utf8)
        try Data(bytes).write(to: file)
        let entries = History(file: file, secret: nil).load()
        #expect(entries == ["good one", "last"])
    }

    @Test func aHugeFileIsReadFromItsEndAndQuickly() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let file = folder.appendingPathComponent("history")
        // About 12 MB: reading and splitting all of it took seconds, before every prompt line.
        let text = String(repeating: "search filler line\n", count: 600_000) + (599_001...600_000).map { "search number \($0)\n" }.joined()
        try Data(text.utf8).write(to: file)
        let history = History(file: file, secret: nil)
        let started = ContinuousClock.now
        let entries = history.load()
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(entries.count == 1_000)
        #expect(entries.first == "search number 599001" && entries.last == "search number 600000")
        history.add("alien")
        #expect(history.load().suffix(2) == ["search number 600000", "alien"])
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
