import Foundation
import OMDbKit
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import MoviesCLI
import TestSupport

/// `save FILE`: JSON, CSV and Markdown parsed back, and an existing file never replaced silently.
@MainActor
@Suite struct ExportTests {
    /// Titles that break naive writers: commas, quotes, pipes, a line break in a plot.
    static let stub = StubTransport(
        searchRows: [
            ["Title": "Me, Myself & \"Irene\"", "Year": "2000", "imdbID": "tt0183505", "Type": "movie", "Poster": "N/A"],
            ["Title": "Pipe | Dream", "Year": "1999", "imdbID": "tt0000002", "Type": "movie", "Poster": "N/A"],
            ["Title": "Plain", "Year": "2001", "imdbID": "tt0000003", "Type": "movie", "Poster": "N/A"],
        ],
        records: [
            "tt0183505": ["imdbID": "tt0183505", "Title": "Me, Myself & \"Irene\"", "Year": "2000", "Type": "movie",
                          "Plot": "A cop with \"two\" minds,\nand a road trip.", "Director": "Farrelly, Farrelly"],
            "tt0000002": ["imdbID": "tt0000002", "Title": "Pipe | Dream", "Year": "1999", "Type": "movie", "Plot": "Pipes."],
        ])

    private func session(_ capture: Capture, in folder: URL, interactive: Bool = false) async -> Session {
        var console = capture.console()
        console.isInteractive = interactive
        let session = Session(client: Self.stub.client(), settings: Settings(), console: console,
                              presenter: TextPresenter(console: capture.console(), currentDirectory: folder), currentDirectory: folder)
        await session.handle(.search("anything"))
        capture.clear()
        return session
    }

    @Test func jsonHasEveryMovieShownWithItsPlot() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        await session(capture, in: folder).handle(.save("out.json", force: false))
        #expect(capture.out == "Saved 3 movies to \(folder.appendingPathComponent("out.json").path).\n")
        let data = try Data(contentsOf: folder.appendingPathComponent("out.json"))
        let objects = try #require(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(objects.map { JSONPresenterTests.values($0, ["imdbID", "rank", "title", "plot"]) } == [
            ["tt0183505", "1", "Me, Myself & \"Irene\"", "A cop with \"two\" minds,\nand a road trip."],
            ["tt0000002", "2", "Pipe | Dream", "Pipes."], ["tt0000003", "3", "Plain", "null"],
        ])
        // Every field of a search --json line, page and rank included (issue 23).
        #expect(objects.allSatisfy { Set($0.keys) == Set(JSONPresenterTests.recordKeys + ["imdbID", "title", "year", "type", "plot", "poster", "page", "rank"]) })
    }

    /// Into a folder that does not exist: said in the words typed, not with the temporary
    /// file's name (`nothere/.x.json.3fq….tmp`), and nothing is written.
    @Test func savingIntoAMissingFolderNamesTheFolderAsTyped() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        let session = await session(capture, in: folder)
        let status = await session.handle(.save("nothere/x.json", force: false))
        #expect(capture.said == Said(err: "error: Nothing was saved: there is no folder nothere. Create it first, or give save another path.\n"))
        #expect(status == ExitStatus.failure && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("nothere").path))
    }

    @Test func csvQuotesCommasQuotesAndLineBreaks() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        await session(capture, in: folder).handle(.save("out.csv", force: false))
        let text = try String(contentsOf: folder.appendingPathComponent("out.csv"), encoding: .utf8)
        let records = parseCSV(text)
        try #require(records.count == 4 && records.allSatisfy { $0.count == ExportFormat.columns.count })
        #expect(records[0] == ExportFormat.columns.map(\.rawValue))
        #expect([records[1][1], records[1][7], records[1][9]] == ["Me, Myself & \"Irene\"", "Farrelly, Farrelly", "A cop with \"two\" minds,\nand a road trip."])
        #expect(text.contains("\"Me, Myself & \"\"Irene\"\"\"") && text.hasSuffix("\r\n"))
    }

    @Test func markdownIsATableWithPipesEscaped() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        await session(capture, in: folder).handle(.save("out.md", force: false))
        let lines = try String(contentsOf: folder.appendingPathComponent("out.md"), encoding: .utf8).split(separator: "\n").map(String.init)
        // A header, its rule and three rows.
        let cells = lines.map(markdownCells)
        try #require(lines.count == 5 && cells.allSatisfy { $0.count == ExportFormat.columns.count })
        #expect(lines[1].allSatisfy { "| -".contains($0) })
        #expect([cells[3][1], cells[2][9]] == ["Pipe | Dream", "A cop with \"two\" minds, and a road trip."])
    }

    @Test func existingFileIsNotReplacedWithoutBeingAsked() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let file = folder.appendingPathComponent("out.json")
        try Data("keep me".utf8).write(to: file)
        let capture = Capture()
        // Over a pipe the next line is no answer: nothing is asked.
        var asked: [String] = []
        let piped = await session(capture, in: folder)
        piped.ask = { question in asked.append(question); return "y" }
        await piped.handle(.save("out.json", force: false))
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep me" && asked.isEmpty
            && capture.err == "out.json exists, so nothing was saved: save! out.json (or save out.json --force) replaces it.\n")
        // At a terminal the person is asked: no keeps it, yes replaces it.
        let session = await session(capture, in: folder, interactive: true)
        session.ask = { question in asked.append(question); return "n" }
        await session.handle(.save("out.json", force: false))
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep me")
        session.ask = { question in asked.append(question); return " Yes" }
        await session.handle(.save("out.json", force: false))
        #expect(asked == ["out.json exists. Replace it? (y/N) ", "out.json exists. Replace it? (y/N) "])
        let replacedWhenAsked = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) is [Any]
        try Data("keep me".utf8).write(to: file)
        session.ask = nil
        await session.handle(.save("out.json", force: true))
        #expect(try replacedWhenAsked && JSONSerialization.jsonObject(with: Data(contentsOf: file)) is [Any])
        #expect(files(folder) == ["out.json"], "a temporary file was left")
    }

    @Test func unknownExtensionAndNothingShownAreRefused() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        let empty = Session(client: Self.stub.client(), settings: Settings(), console: capture.console(),
                            presenter: TextPresenter(console: capture.console(), currentDirectory: folder), currentDirectory: folder)
        await empty.handle(.save("out.json", force: false))
        #expect(capture.err == "Nothing to save yet: search for a title first.\n")
        capture.clear()
        await session(capture, in: folder).handle(.save("out.txt", force: false))
        #expect(capture.err.contains("save writes .json, .csv or .md files") && files(folder).isEmpty)
    }

    /// `save` over a symlink writes through to its target; over a FIFO it refuses, and never hangs.
    @Test func saveWritesThroughASymlinkAndRefusesWhatIsNotAFile() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let target = folder.appendingPathComponent("real.json")
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.json"), withDestinationURL: target)
        #expect(mkfifo(folder.appendingPathComponent("fifo.json").path, 0o600) == 0)
        let capture = Capture()
        let session = await session(capture, in: folder)
        await session.handle(.save("link.json", force: true))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("link.json").path) == target.path
            && JSONSerialization.jsonObject(with: Data(contentsOf: target)) is [Any])
        capture.clear()
        await session.handle(.save("fifo.json", force: true))
        #expect(capture.err == "fifo.json is not a file (it is a FIFO, not a file), so nothing was saved: give save the name of a file.\n")
        var info = stat()
        #expect(lstat(folder.appendingPathComponent("fifo.json").path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(files(folder) == ["fifo.json", "link.json", "real.json"])
    }

    /// A name longer than the file system takes says to shorten it, not to check the folder.
    @Test func aNameTooLongSaysToShortenIt() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        await session(capture, in: folder).handle(.save(String(repeating: "x", count: 300) + ".md", force: true))
        #expect(capture.err.hasSuffix("File name too long. Give save a shorter name.\n") && files(folder).isEmpty, "\(capture.err)")
    }

    private func files(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}

/// The cells of a Markdown table row, unescaped (`\\|` is a pipe inside a cell), trimmed.
func markdownCells(_ line: String) -> [String] {
    var cells: [String] = []
    var cell = ""
    var escaped = false
    for character in line {
        if escaped { cell.append(character); escaped = false }
        else if character == "\\" { escaped = true }
        else if character == "|" { cells.append(cell.trimmingCharacters(in: .whitespaces)); cell = "" }
        else { cell.append(character) }
    }
    return Array(cells.dropFirst())   // before the first pipe: nothing
}

/// A small RFC 4180 reader: quoted fields, doubled quotes, CRLF between records.
func parseCSV(_ text: String) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var quoted = false
    var characters = Array(text)[...]
    while let character = characters.popFirst() {
        if quoted {
            if character == "\"" {
                if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false }
            } else {
                field.append(character)
            }
        } else if character == "\"" {
            quoted = true
        } else if character == "," {
            record.append(field); field = ""
        } else if character == "\r\n" || character == "\n" {
            record.append(field); field = ""
            records.append(record); record = []
        } else {
            field.append(character)
        }
    }
    return records
}
