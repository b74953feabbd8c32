import Foundation
import Testing
@testable import MoviesCLI
@testable import LineEditing
import TestSupport

/// The history file: where it is, what it keeps, and two writers at once.
@Suite struct HistoryTests {
    @Test func theFileFollowsXDGStateHomeAndCanBeTurnedOff() {
        let environments: [[String: String]] = [["XDG_STATE_HOME": "/s", "HOME": "/h"], ["HOME": "/h"], ["XDG_STATE_HOME": "relative", "HOME": "/h"],
                                                ["HOME": "/h", "MOVIES_HISTORY": "off"], ["HOME": "/h", "MOVIES_HISTORY": "/elsewhere/h"]]
        #expect(environments.map { HistoryFile.url(environment: $0)?.path }
            == ["/s/movies/history", "/h/.local/state/movies/history", "/h/.local/state/movies/history", nil, "/elsewhere/h"])
    }

    @Test(arguments: [
        ("alien", "toxic", true),
        ("alien", "alien", false),
        (" secret search", nil, false),
        ("   ", nil, false),
        ("search KEY123", nil, false),
        ("posters out", nil, true),
        (String(repeating: "a", count: 500), nil, true),
        (String(repeating: "a", count: 501), nil, false),
    ] as [(String, String?, Bool)])
    func linesKeptFollowTheRules(_ line: String, previous: String?, kept: Bool) {
        #expect(History.keeps(line, after: previous, secret: "KEY123") == kept)
    }

    @Test func theFileIsPrivateAndKeepsTheLastThousand() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let history = History(file: folder.appendingPathComponent("state/movies/history"), secret: nil)
        // The file the first addition made, filled past the limit at once (a thousand additions
        // would rewrite it a thousand times); the next addition keeps the last thousand.
        history.add("search 1")
        let full = (1...1_004).map { "search \($0)" }.joined(separator: "\n") + "\n"
        try Data(full.utf8).write(to: history.file)
        history.add("search 1005")
        history.add("search 1005")
        let entries = history.load()
        #expect(entries == (6...1_005).map { "search \($0)" })
        // The file itself is cut, not only what is read back from it; it is private; nothing is left beside it.
        #expect(try String(contentsOf: history.file, encoding: .utf8).split(separator: "\n") == entries.map { Substring($0) })
        let mode = try FileManager.default.attributesOfItem(atPath: history.file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600 && files(in: history.file.deletingLastPathComponent()).filter { $0.hasSuffix(".tmp") } == [])
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
        // A 4 GB hole, then about 12 MB of lines: reading and splitting all of it took seconds,
        // before every prompt line. Read from its end, the process's peak memory hardly moves.
        let text = String(repeating: "search filler line\n", count: 600_000) + (599_001...600_000).map { "search number \($0)\n" }.joined()
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil) && truncate(file.path, 4 << 30) == 0)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        let history = History(file: file, secret: nil)
        let before = peakResidentBytes()
        let entries = history.load()
        #expect(peakResidentBytes() - before < 256 << 20, "the whole file was read")
        #expect(entries == (599_001...600_000).map { "search number \($0)" })
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
        let expected = ["a", "b"].flatMap { writer in (1...100).map { "\(writer) \($0)" } }
        #expect(entries.sorted() == expected.sorted())
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// History at things that are not regular files: a FIFO, a symlink, a planted temporary name.
@Suite struct HistoryFileKindTests {
    /// A FIFO hung the start with no prompt: loading waited for a writer that never came.
    @Test func aFIFOIsNoHistoryAndNeverHangsTheStart() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let fifo = folder.appendingPathComponent("history")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let history = History(file: fifo, secret: nil)
        #expect(HistoryFile.problem(of: history) == "History is off for this session: \(fifo.path): it is a FIFO, not a file. Set MOVIES_HISTORY to a file, or to off to keep none.")
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = history.load()
            history.add("alien")
            done.signal()
        }
        let finished = done.wait(timeout: .now() + 3) == .success
        if !finished {
            // Let the blocked reader go, so the test process can end.
            let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        #expect(finished, "loading history from a FIFO blocked")
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
    }

    /// As root, MOVIES_HISTORY=/dev/null replaced the device with a 0600 file of the session's lines.
    @Test func aDeviceIsNoHistory() {
        #expect(HistoryFile.problem(of: History(file: URL(fileURLWithPath: "/dev/null"), secret: nil))?.contains("it is a device, not a file") == true)
    }

    /// Dotfiles keep the history elsewhere: the link stays, its target gets the lines.
    @Test func aSymlinkedHistoryIsWrittenThroughToItsTarget() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let target = folder.appendingPathComponent("dotfiles-history")
        try Data("alien\n".utf8).write(to: target)
        let link = folder.appendingPathComponent("history")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let history = History(file: link, secret: nil)
        #expect(history.problem == nil)
        history.add("toxic")
        #expect(try [FileManager.default.destinationOfSymbolicLink(atPath: link.path), String(contentsOf: target, encoding: .utf8)]
            == [target.path, "alien\ntoxic\n"])
        #expect(history.load() == ["alien", "toxic"])
    }

    /// The temporary file was `.history.PID.tmp`, opened with O_CREAT|O_TRUNC: a symlink planted
    /// there had its target overwritten with the session's lines.
    @Test func aSymlinkPlantedAtTheOldTemporaryNameIsNotFollowed() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let victim = folder.appendingPathComponent("victim")
        try Data("precious".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(".history.\(getpid()).tmp"), withDestinationURL: victim)
        let history = History(file: folder.appendingPathComponent("history"), secret: nil)
        history.add("alien")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious" && history.load() == ["alien"])
    }

    /// A state folder made by someone else with mode 0777 was used silently (as root here: chown).
    @Test(.enabled(if: geteuid() == 0)) func aFolderOthersOwnAndCanWriteInTurnsHistoryOff() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let shared = folder.appendingPathComponent("movies")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        #expect(chmod(shared.path, 0o777) == 0 && chown(shared.path, 65_534, 65_534) == 0)
        let history = History(file: shared.appendingPathComponent("history"), secret: nil)
        #expect(HistoryFile.problem(of: history)?.contains("can be written by others and belongs to someone else (user 65534)") == true)
        history.add("alien")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: shared.path)) ?? []).isEmpty)
    }
}
