import Foundation
import Testing
@testable import MoviesCLI
import TestSupport

/// The prompt's commands come from one table (``PromptCommand/all``): every word of it is in
/// `help` (each command's name in the list, every word in `help WORD`), the manual page, README's table of prompt commands and Tab's completions.
@Suite struct PromptCommandTableTests {
    /// The words of `text` as a reader picks them out: letters, digits and `!` (`save!`).
    static func words(_ text: some StringProtocol) -> Set<String> {
        Set(text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "!") }.map(String.init))
    }

    /// The manual page's PROMPT COMMANDS section, roff escapes undone.
    static var manualSection: String {
        let page = Manual.manPage
        guard let start = page.range(of: ".SH PROMPT COMMANDS"), let end = page.range(of: ".SH ENVIRONMENT") else { return "" }
        return String(page[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "\\-", with: "-")
    }

    /// The first column of README's "Prompt commands" table.
    static func readmeCommands() throws -> String {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "### Prompt commands"))
        let table = readme[start.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return table.dropFirst(2).map { $0.split(separator: "|").first.map(String.init) ?? "" }.joined(separator: "\n")
    }

    @Test(arguments: Command.words.sorted())
    func everyCommandWordIsInHelpTheManualTheReadmeAndTab(word: String) throws {
        let entry = try #require(PromptCommand.named(word))
        #expect(Self.words(entry.usage + " " + entry.help).contains(word), "its own entry in help does not name \(word)")
        #expect(Self.words(PromptHelp.detail(word, width: 80) ?? "").contains(word), "help \(word) does not name \(word)")
        #expect(Self.words(PromptHelp.overview(width: 80)).contains(entry.words[0]), "help does not name \(entry.words[0])")
        #expect(Self.words(Self.manualSection).contains(word), "the manual's PROMPT COMMANDS do not name \(word)")
        #expect(Self.words(try Self.readmeCommands()).contains(word), "README's prompt commands do not name \(word)")
        // Tab after its first two letters offers it, and the word alone is no search.
        let choices = CommandCompletion.complete(String(word.prefix(2)), folders: { _ in [] }).choices
        #expect(choices.contains(word + " "), "Tab after \(word.prefix(2)) offers \(choices)")
        #expect(Command(parsing: word) != .search(word))
    }

    /// Each entry is in the manual page, under the usage `help` shows, with its whole description.
    @Test func theManualListsEveryEntryAsHelpDoes() {
        for entry in PromptCommand.all {
            #expect(Self.manualSection.contains(".B \(entry.usage)\n\(entry.help)\n"), "\(entry.usage)")
        }
    }

    /// A usage longer than the column would run into its description.
    @Test func usagesFitTheHelpColumn() {
        for entry in PromptCommand.all {
            #expect(entry.usage.count <= PromptHelp.column - 3, "\(entry.usage)")
        }
    }

    /// Tab offers each command's values, and folders after `posters` and after `poster LIST`.
    @Test func tabOffersEachCommandsValuesAndFolders() {
        let folders: (String) -> [String] = { $0 == "" ? ["other", "shots"] : [] }
        for entry in PromptCommand.all {
            guard case .values(let values) = entry.argument, let word = entry.words.first else { continue }
            for value in values {
                let choices = CommandCompletion.complete("\(word) \(value.prefix(2))", folders: folders).choices
                #expect(choices.contains(value + " "), "\(word) \(value.prefix(2)): \(choices)")
            }
        }
        #expect(CommandCompletion.complete("posters sh", folders: folders).choices == ["shots/"])
        #expect(CommandCompletion.complete("poster 1-3 sh", folders: folders).choices == ["shots/"])
        #expect(CommandCompletion.complete("poster 2 5 sh", folders: folders).choices == ["shots/"])
        #expect(CommandCompletion.complete("poster 1,3 ", folders: folders).choices == ["other/", "shots/"])
        // No folder before the rows, nor a second folder after one.
        #expect(CommandCompletion.complete("poster sh", folders: folders).choices == [])
        #expect(CommandCompletion.complete("poster 1 shots/ sh", folders: folders).choices == [])
        #expect(CommandCompletion.complete("cata", folders: folders).choices == ["catalog ", "catalogue "])
    }
}
