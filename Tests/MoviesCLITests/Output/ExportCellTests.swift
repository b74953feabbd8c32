import Foundation
import OMDbKit
import Testing
@testable import MoviesCLI
import TestSupport

/// `save`'s CSV and Markdown cannot be turned into weapons: no cell a spreadsheet runs as a
/// formula, no HTML and no link a Markdown viewer acts on, whatever OMDb's text holds.
@MainActor
@Suite struct ExportCellTests {
    /// OWASP's CSV-injection cases, and the same after control characters are dropped.
    @Test(arguments: [
        ("=HYPERLINK(\"http://x.invalid\",\"click\")", "\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\"click\"\")\""),
        ("+cmd|' /C calc'!A0", "\"'+cmd|' /C calc'!A0\""),
        ("-2+3", "\"'-2+3\""),
        ("@SUM(1,1)", "\"'@SUM(1,1)\""),
        ("\r=1+1", "\"'\r=1+1\""),
        ("\u{1}=1+1", "\"'=1+1\""),
        ("\t=1+1", "\"'=1+1\""),
        ("\n@x", "\"'\n@x\""),
    ] as [(Typed, Typed)])
    func csvNeutralisesFormulas(title: Typed, cell: Typed) {
        #expect(ExportCell.csv(title.text) == cell.text)
    }

    @Test(arguments: ["Plain", "8.6", "Me, Myself & Irene", "A=B", "1-2"])
    func csvLeavesOrdinaryTextAsItWas(text: String) {
        #expect(!ExportCell.csv(text).contains("'"))
    }

    @Test func markdownWritesHTMLAsTextAndNoLinks() {
        #expect(ExportCell.markdown("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;")
        #expect(ExportCell.markdown("<img src=x onerror=alert(1)>") == "&lt;img src=x onerror=alert(1)&gt;")
        #expect(ExportCell.markdown("[x](javascript:alert(1))") == "\\[x\\](javascript:alert(1))")
        #expect(ExportCell.markdown("<javascript:alert(1)>") == "&lt;javascript:alert(1)&gt;")
        #expect(ExportCell.markdown("Tom & Jerry | `x`") == "Tom &amp; Jerry \\| \\`x\\`")
    }

    /// Through `save`: a hostile title reaches neither file as it came.
    @Test func savedFilesCarryNoFormulaHTMLOrLink() async throws {
        let stub = StubTransport(
            searchRows: [["Title": "\r=1+1", "Year": "2000", "imdbID": "tt0000001", "Type": "movie", "Poster": "N/A"],
                         ["Title": "[x](javascript:alert(1))", "Year": "2000", "imdbID": "tt0000002", "Type": "movie", "Poster": "N/A"]],
            records: ["tt0000001": ["imdbID": "tt0000001", "Title": "\r=1+1", "Year": "2000", "Type": "movie", "Plot": "@SUM(1,1)"],
                      "tt0000002": ["imdbID": "tt0000002", "Title": "[x](javascript:alert(1))", "Year": "2000", "Type": "movie",
                                    "Plot": "<img src=x onerror=alert(1)>"]])
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let capture = Capture()
        let session = Session(client: stub.client(), settings: Settings(), console: capture.console(),
                              presenter: TextPresenter(console: capture.console(), currentDirectory: folder), currentDirectory: folder)
        await session.handle(.search("anything"))
        await session.handle(.save("out.csv", force: false))
        await session.handle(.save("out.md", force: false))
        let records = parseCSV(try String(contentsOf: folder.appendingPathComponent("out.csv"), encoding: .utf8))
        #expect(records[1][1] == "'=1+1")
        #expect(records[1][9] == "'@SUM(1,1)")
        let markdown = try String(contentsOf: folder.appendingPathComponent("out.md"), encoding: .utf8)
        #expect(!markdown.contains("<img"))
        #expect(markdown.contains("\\[x\\](javascript:alert(1))"))
        #expect(!markdown.contains("[x]("))
    }
}
