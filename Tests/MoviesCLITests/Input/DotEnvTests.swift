import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import MoviesCLI
import TestSupport

@Suite struct DotEnvTests {
    @Test func readsPairsSkippingCommentsAndBlankLinesWithExportAndCRLFLaterLinesWinning() {
        let comments = """
        # a comment
          # an indented comment

        KEY=value
        \t
        #OTHER=hidden
        """
        let texts = ["A=1\nB=two words\n", comments, "export OMDB_API_KEY=abc123\nexport   SPACED = x",
                     "# comment\r\nA=1\r\nB=\"two\"\r\n\r\nC=3 # c\r\n", "A=1\nA=2"]
        let expected: [[String: String]] = [["A": "1", "B": "two words"], ["KEY": "value"], ["OMDB_API_KEY": "abc123", "SPACED": "x"],
                                            ["A": "1", "B": "two", "C": "3"], ["A": "2"]]
        #expect(texts.map { DotEnv.read(Data($0.utf8)).values } == expected)
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
        #expect(DotEnv.read(Data(line.utf8)).values == ["KEY": value])
    }

    @Test(arguments: ["just some text", "=value", "BAD KEY=x", "KEY-1=x", "KEY.NAME=x", "export", "\"KEY\"=x", "1KEY=x", "KÉ=x"])
    func skipsMalformedLine(line: String) {
        #expect(DotEnv.read(Data((line + "\nGOOD=1").utf8)).values == ["GOOD": "1"])
    }

    @Test func loadsTheFileInTheFolderAndNoFileIsNoVariables() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let before = DotEnv.read(from: folder).values
        try Data("OMDB_API_KEY=fromfile\n".utf8).write(to: folder.appendingPathComponent(".env"))
        #expect([before, DotEnv.read(from: folder).values] == [[:], ["OMDB_API_KEY": "fromfile"]])
    }

    // MARK: What dotenv users expect (each quirk the issue found is a row)

    @Test(arguments: [
        ("\u{FEFF}OMDB_API_KEY=abc", "abc"),                     // a UTF-8 byte order mark does not cost line 1
        ("export\tOMDB_API_KEY=abc", "abc"),                     // export, then a tab
        ("export \t  OMDB_API_KEY=abc", "abc"),                  // export, then any blanks
        ("\texport OMDB_API_KEY=abc", "abc"),                    // indented
        ("OMDB_API_KEY='a\\nb $HOME \"c\"'", "a\\nb $HOME \"c\""), // single quotes are literal
        ("OMDB_API_KEY=\"a\\\"b\"", "a\"b"),                      // \" inside double quotes
        ("OMDB_API_KEY=\"a\\\\b\"", "a\\b"),                     // \\ inside double quotes
        ("OMDB_API_KEY=\"a\\nb\"", "a\nb"),                       // \n inside double quotes
        ("OMDB_API_KEY=\"a\\tb\\q\"", "a\tb\\q"),                // \t; an unknown escape is kept
        ("OMDB_API_KEY=\"a#b\" # note", "a#b"),
        ("OMDB_API_KEY=abc\r", "abc"),                            // CR LF
        ("OMDB_API_KEY=  abc  \t", "abc"),                        // values trimmed
        ("OMDB_API_KEY=abc\t# tab comment", "abc"),
        ("OMDB_API_KEY=it's", "it's"),                            // a quote inside a bare value is text
        ("export=1\nOMDB_API_KEY=abc", "abc"),                    // a variable named export is a variable
    ] as [(Typed, Typed)])
    func readsTheWayDotenvDoes(text: Typed, key: Typed) {
        let parsed = DotEnv.read(Data(text.text.utf8))
        #expect(parsed.values["OMDB_API_KEY"] == key.text && parsed.notices.isEmpty)
    }

    /// A line that cannot be read is skipped with a warning naming its line, never its text.
    @Test(arguments: [
        ("OMDB_API_KEY=\"abc", "its quote is not closed"),
        ("OMDB_API_KEY='abc", "its quote is not closed"),
        ("OMDB_API_KEY=\"abc\\\"", "its quote is not closed"),
        ("OMDB_API_KEY=\"abc\"def", "there is text after the closing quote"),
        ("OMDB_API_KEY abc", "it has no \"=\""),
        ("OMDB API KEY=abc", "the name before \"=\" is not a variable name (letters, digits, _)"),
    ])
    func unreadableLinesAreWarnedAboutByNumberAndSkipped(line: String, reason: String) {
        let parsed = DotEnv.read(Data("# settings\r\nGOOD=1\r\n\(line)\r\nLATER=2\r\n".utf8))
        #expect(parsed.values == ["GOOD": "1", "LATER": "2"] && parsed.notices == [".env line 3 skipped: \(reason)."])
        #expect(!parsed.notices.joined().contains("abc"))
    }

    @Test func aLineThatIsNotUTF8IsWarnedAboutAndTheRestIsRead() {
        var bytes = Data("\u{FEFF}A=1\n".utf8)
        bytes += Data([0x42, 0x3D, 0xFF, 0xFE, 0x0A])
        bytes += Data("C=3".utf8)
        let parsed = DotEnv.read(bytes)
        #expect(parsed.values == ["A": "1", "C": "3"] && parsed.notices == [".env line 2 skipped: it is not UTF-8 text."])
    }

    @Test func warningsComeBackFromTheFileInTheFolder() throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        try Data("OK=1\nBROKEN=\"sekrit\n".utf8).write(to: folder.appendingPathComponent(".env"))
        let parsed = DotEnv.read(from: folder)
        #expect(parsed.values == ["OK": "1"] && parsed.notices == [".env line 2 skipped: its quote is not closed."])
    }

    /// Issue 21, finding 2: a `.env` someone else owns, or others can change, or in a folder anyone
    /// can write in, steers nothing (base URL, key, posters folder, cache, limit), and one line says why.
    @Test func aDotEnvOthersCouldHavePlantedIsNotUsed() throws {
        guard let stranger = OtherUser.uid() else { return }
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let file = folder.appendingPathComponent(".env")
        try Data("OMDB_BASE_URL=http://127.0.0.1:9/\nMOVIES_POSTERS=/root/.ssh\n".utf8).write(to: file)
        OtherUser.give(file, to: stranger)
        var read = [DotEnv.read(from: folder)]
        // Ours, but others can change it.
        OtherUser.give(file, to: geteuid())
        var modes = [chmod(file.path, 0o666)]
        read.append(DotEnv.read(from: folder))
        // Ours, in a folder anyone can write in and that is not sticky.
        modes += [chmod(file.path, 0o600), chmod(folder.path, 0o777)]
        read.append(DotEnv.read(from: folder))
        modes.append(chmod(folder.path, 0o755))
        #expect(modes == [0, 0, 0, 0])
        #expect(read.map(\.values) == [[:], [:], [:]])
        #expect(read.map(\.notices) == [["Not using \(file.path): it belongs to someone else (user \(stranger)); remove it, or use a file of your own."],
                                        ["Not using \(file.path): others can change it; chmod go-w \(file.path)."],
                                        ["Not using \(folder.path): others can write in it; chmod go-w \(folder.path)."]])
        #expect(DotEnv.read(from: folder).values["MOVIES_POSTERS"] == "/root/.ssh")
    }
}

extension DotEnvTests {
    /// Issue 21: a `.env` in a folder of one's own that lies inside a folder anyone can write in
    /// (not sticky) steers nothing: that folder could be swapped, `.env` and all.
    @Test func aDotEnvInsideAFolderAnyoneCanWriteInIsNotUsed() throws {
        let root = try makeTemporaryFolder()
        defer { removeFolder(root) }
        let open = root.appendingPathComponent("open")
        let project = open.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Data("OMDB_BASE_URL=http://127.0.0.1:9/\n".utf8).write(to: project.appendingPathComponent(".env"))
        let open777 = chmod(open.path, 0o777)
        let parsed = DotEnv.read(from: project)
        let open1777 = chmod(open.path, 0o1777)
        #expect([open777, open1777] == [0, 0] && parsed.values.isEmpty)
        #expect(parsed.notices == ["Not using \(project.path): anyone can write in the folder above it, \(open.path), and so swap it; chmod o-w \(open.path), or use a folder elsewhere."])
        #expect(DotEnv.read(from: project).values["OMDB_BASE_URL"] == "http://127.0.0.1:9/")
    }
}
