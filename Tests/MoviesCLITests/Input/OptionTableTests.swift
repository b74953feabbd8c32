import Foundation
import Testing
@testable import MoviesCLI
import TestSupport

/// Every output written from the options table says the same as the table: `--help`, the
/// manual page, README's table and the completion scripts.
@Suite struct OptionTableTests {
    static let visible = OptionSpec.visible.map(\.name)

    @Test(arguments: visible)
    func everyOptionIsInTheHelpWithItsPlaceholder(name: String) throws {
        let spec = try #require(OptionSpec.named(name))
        let line = try #require(Manual.helpText.split(separator: "\n").first { $0.hasPrefix("  \(spec.synopsis) ") })
        let variableShown = spec.placeholder == nil || spec.environment.map { Manual.helpText.contains("$\($0)") } ?? true
        #expect(line.contains(spec.help.prefix(20)) && variableShown)
    }

    @Test(arguments: visible)
    func everyOptionIsInTheManualPage(name: String) throws {
        let spec = try #require(OptionSpec.named(name))
        let page = Manual.manPage
        let wanted = ["\\fB\(Manual.roff(spec.name))\\fR"] + [spec.placeholder.map { "\\fB\(Manual.roff(spec.name))\\fR \\fI\($0)\\fR" },
                                                                spec.environment.map { ".B \($0)" }].compactMap { $0 }
        #expect(wanted.filter { !page.contains($0) } == [])
    }

    @Test(arguments: Options.Shell.allCases, visible)
    func everyOptionIsInEveryCompletionScript(shell: Options.Shell, name: String) {
        let script = Completions.script(for: shell)
        let word = shell == .fish ? "-l \(name.dropFirst(2))" : name
        #expect(script.contains(word), "\(shell) does not complete \(name)")
    }

    @Test(arguments: Options.Shell.allCases)
    func completionScriptsOfferTheValuesTheTableAllows(shell: Options.Shell) throws {
        let script = Completions.script(for: shell)
        let values: [String] = OptionSpec.visible.compactMap { spec in
            guard case .values(let values) = spec.completion else { return nil }
            return values.joined(separator: " ")
        }
        #expect((values + CommandSpec.all.map(\.name)).filter { !script.contains($0) } == [], "\(shell)")
    }

    @Test func hiddenRowsStayOutOfWhatPeopleRead() throws {
        let hidden = OptionSpec.all.filter(\.hidden).map(\.name)
        let texts = [Manual.helpText, Manual.manPage, Manual.optionsMarkdown] + Options.Shell.allCases.map(Completions.script)
        #expect(!hidden.isEmpty && hidden.filter { name in texts.contains { $0.contains(name) } } == [])
    }

    @Test func readmeTableIsTheOneTheTableWrites() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "<!-- options: written by `make readme` (movies --help-markdown); a test checks it -->\n"
        let begin = try #require(readme.range(of: marker), "README lost its options marker")
        let end = try #require(readme.range(of: "\n<!-- end of options -->", range: begin.upperBound..<readme.endIndex))
        let section = String(readme[begin.upperBound..<end.lowerBound])
        #expect(section == Manual.optionsMarkdown,
                "README's options table is out of date: run make readme (it writes `movies --help-markdown` there)")
    }

    @Test func rowsHaveOneNameEach() {
        let names = OptionSpec.all.flatMap { [$0.name, $0.short].compactMap { $0 } }
        #expect(Set(names).count == names.count && OptionSpec.all.allSatisfy { $0.name.hasPrefix("--") && !$0.help.isEmpty })
    }

    @Test func roffEscapesDashesBackslashesAndLeadingDots() {
        #expect(["--a\\b", ".x", "'x"].map(Manual.roff) == ["\\-\\-a\\eb", "\\&.x", "\\&'x"])
    }

    @Test func manualPageListsThePromptCommands() {
        let page = Manual.manPage
        #expect(["more, next, n", "show LIST", "quit, exit"].allSatisfy { page.contains(".B \($0)\n") } && page.contains(".SH PROMPT COMMANDS"))
    }

    @Test func manualPageSynopsisHasNoBlankLines() throws {
        let page = Manual.manPage
        let start = try #require(page.range(of: ".SH SYNOPSIS\n"))
        let end = try #require(page.range(of: "\n.SH DESCRIPTION", range: start.upperBound..<page.endIndex))
        let lines = page[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 3 && !lines.contains { $0.trimmingCharacters(in: .whitespaces).isEmpty })
    }
}
