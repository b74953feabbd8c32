import Foundation
import Testing
@testable import MoviesCLI

@Suite struct DotEnvTests {
    @Test func readsPlainPairs() {
        #expect(DotEnv.parse("A=1\nB=two words\n") == ["A": "1", "B": "two words"])
    }

    @Test func skipsCommentsAndBlankLines() {
        let text = """
        # a comment
          # an indented comment

        KEY=value
        \t
        #OTHER=hidden
        """
        #expect(DotEnv.parse(text) == ["KEY": "value"])
    }

    @Test func acceptsExport() {
        #expect(DotEnv.parse("export OMDB_API_KEY=abc123\nexport   SPACED = x") == ["OMDB_API_KEY": "abc123", "SPACED": "x"])
    }

    @Test(arguments: [
        ("KEY=\"double quoted\"", "double quoted"),
        ("KEY='single quoted'", "single quoted"),
        ("KEY=\"has # hash\"", "has # hash"),
        ("KEY='has # hash'", "has # hash"),
        ("KEY=\"  kept spaces  \"", "  kept spaces  "),
        ("KEY=\"quoted\" # trailing comment", "quoted"),
        ("KEY=value # inline comment", "value"),
        ("KEY=value    # inline comment", "value"),
        ("KEY=a#b", "a#b"),
        ("KEY=a=b=c", "a=b=c"),
        ("KEY=https://x.test/?a=1&b=2", "https://x.test/?a=1&b=2"),
        ("KEY = spaced value ", "spaced value"),
        ("KEY=", ""),
        ("KEY=\"\"", ""),
    ])
    func readsValue(line: String, value: String) {
        #expect(DotEnv.parse(line) == ["KEY": value])
    }

    @Test(arguments: ["just some text", "=value", "BAD KEY=x", "KEY-1=x", "KEY.NAME=x", "export", "\"KEY\"=x"])
    func skipsMalformedLine(line: String) {
        #expect(DotEnv.parse(line + "\nGOOD=1") == ["GOOD": "1"])
    }

    @Test func handlesCRLFLineEnds() {
        let text = "# comment\r\nA=1\r\nB=\"two\"\r\n\r\nC=3 # c\r\n"
        #expect(DotEnv.parse(text) == ["A": "1", "B": "two", "C": "3"])
    }

    @Test func laterLinesWin() {
        #expect(DotEnv.parse("A=1\nA=2") == ["A": "2"])
    }

    @Test func loadsTheFileInTheFolder() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        try Data("OMDB_API_KEY=fromfile\n".utf8).write(to: folder.appendingPathComponent(".env"))
        #expect(DotEnv.load(from: folder) == ["OMDB_API_KEY": "fromfile"])
    }

    @Test func noFileIsNoVariables() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        #expect(DotEnv.load(from: folder) == [:])
    }
}
