import Foundation
import OMDbKit
import TerminalImages
import Testing
@testable import MoviesCLI

/// `episodes`, `save`, `open`, `posters DIR WIDTH`, and the options and variables that go with them.
@Suite struct MoreCommandTests {
    @Test(arguments: [
        ("episodes 3", Command.episodes(3, season: nil)),
        ("Episodes 3 2", .episodes(3, season: 2)),
        ("episodes 3 0", .episodes(3, season: 0)),
        ("save movies.json", .save("movies.json", force: false)),
        ("save \"my movies.csv\"", .save("my movies.csv", force: false)),
        ("save! movies.md", .save("movies.md", force: true)),
        ("save movies.md --force", .save("movies.md", force: true)),
        ("open 4", .open(4)),
        ("posters shots 600", .posters("shots", width: .pixels(600))),
        ("posters \"my shots\" original", .posters("my shots", width: .original)),
        ("posters 600", .posters("600")),
        ("posters shots 450", .posters("shots 450")),
    ])
    func lineIsParsedAs(line: String, command: Command) {
        #expect(Command(parsing: line) == command)
    }

    @Test(arguments: [
        ("episodes", "episodes takes a result number"),
        ("episodes x", "search episodes x"),
        ("episodes 3 x", "season number"),
        ("save", "save needs a file"),
        ("open", "open takes a result number"),
        ("open me", "search open me"),
    ])
    func misusedCommandSaysHow(line: String, hint: String) {
        guard case .invalid(let text) = Command(parsing: line) else { Issue.record("\(line) parsed as a command"); return }
        #expect(text.contains(hint), "\(text)")
    }

    @Test func helpNamesTheNewCommands() {
        let help = PromptCommand.all.compactMap(\.words.first).compactMap { PromptHelp.detail($0, width: 300) }.joined(separator: "\n")
        for word in ["episodes LIST", "save FILE", "save! FILE", "--force", "open LIST", "posters DIR W", "original"] {
            #expect(help.contains(word), "help lacks \(word)")
        }
    }

    @Test func episodesOneShotIsParsed() throws {
        #expect(try Options.parse(["episodes", "tt0903747"]).mode == .episodes(target: "tt0903747", season: 1, lines: nil))
        #expect(try Options.parse(["episodes", "twin", "peaks", "--season", "2", "--json"]).mode == .episodes(target: "twin peaks", season: 2, lines: .json(fields: nil)))
        #expect(throws: UsageError.self) { try Options.parse(["episodes"]) }
        #expect(throws: UsageError.self) { try Options.parse(["search", "x", "--season", "2"]) }
        #expect(throws: UsageError.self) { try Options.parse(["episodes", "x", "--season", "two"]) }
    }

    @Test func posterWidthAndInlineImagesComeFromOptionsThenEnvironment() throws {
        let here = URL(fileURLWithPath: "/tmp")
        var settings = try Settings.resolve(try Options.parse(["--poster-width", "1000", "--inline-images", "kitty"]),
                                            environment: ["MOVIES_POSTER_WIDTH": "600", "MOVIES_INLINE_IMAGES": "off"], dotEnv: [:], currentDirectory: here)
        #expect(settings.posterWidth == .pixels(1000))
        #expect(settings.inlineImages == .kitty)
        settings = try Settings.resolve(Options(), environment: ["MOVIES_POSTER_WIDTH": "original", "MOVIES_INLINE_IMAGES": "off"], dotEnv: [:], currentDirectory: here)
        #expect(settings.posterWidth == .original)
        #expect(settings.inlineImages == .off)
        settings = try Settings.resolve(Options(), environment: [:], dotEnv: [:], currentDirectory: here)
        #expect(settings.posterWidth == .standard)
        #expect(settings.inlineImages == .auto)
        #expect(throws: UsageError.self) { try Options.parse(["--poster-width", "450"]) }
        #expect(throws: UsageError.self) {
            try Settings.resolve(Options(), environment: ["MOVIES_INLINE_IMAGES": "sixel"], dotEnv: [:], currentDirectory: here)
        }
    }
}
