import Foundation
import Testing
import TestSupport

/// Issue 24 at the built tool's prompt on a pseudo-terminal, the screen rendered by pyte: pastes
/// that hold a stray end marker, and the page and row-list commands as a person types them.
@Suite(.serialized, .enabled(if: TerminalDriver.unavailable == nil, "needs python3 with pyte (see .ci/run)"))
struct PromptCommandsTerminalTests {
    static let pasteStart = "\u{1B}[200~", pasteEnd = "\u{1B}[201~"

    /// A paste whose text holds the end marker and a line break (`alien`, marker, `quit`): the
    /// terminal's own end marker comes after it all, so nothing is searched and the tool does not
    /// quit; the pasted text waits on the line. An end marker typed outside a paste is ignored.
    @Test func aStrayEndMarkerInAPasteRunsNothing() async throws {
        try await withTemporaryFolder { folder in
            let paste = Self.pasteStart + "alien" + Self.pasteEnd + Keys.enter + "quit" + Keys.enter + Self.pasteEnd
            let outcome = try await TerminalDriver.run(directory: folder, steps: [
                .wait("movies>"), .send(paste), .send("!"), .wait("movies> alien[201~ quit !"), .snapshot("pasted"),
                .send(Keys.ctrlU + "ab" + Self.pasteEnd + "c"), .wait("movies> abc"), .snapshot("stray"),
                .send(Keys.ctrlU + "quit" + Keys.enter), .exit(),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            #expect(outcome.status == 0)
            #expect(!outcome.shown("pasted").contains("Results for"), "\(outcome.shown("pasted"))")
            #expect(outcome.snapshot("stray").last { !$0.isEmpty } == "movies> abc", "\(outcome.shown("stray"))")
        }
    }

    /// A start marker whose end never comes (a terminal or a program that sends one alone): the
    /// text so far shows on the line at the first pause, and Ctrl-C ends the paste and drops the
    /// line, so the prompt answers again (it took every key as pasted text, Ctrl-C and Enter too).
    @Test func ctrlCEndsAPasteWhoseEndNeverComes() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(["--offline"], directory: folder, steps: [
                .wait("movies>"), .send(Self.pasteStart + "alien" + Keys.enter + "quit"), .wait("movies> alien quit"),
                .send(Keys.ctrlC), .wait("movies> alien quit^C"), .send("quit" + Keys.enter), .exit(),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            #expect(outcome.status == 0)
        }
    }

    /// `help` on a screen of 24 rows shows every command with the line typed still above it
    /// (it was 36 lines at 80 columns); `help save` says all about one.
    @Test(arguments: [50, 80])
    func helpFitsAScreenOfTwentyFourRows(columns: Int) async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(["--offline"], directory: folder, columns: columns, rows: 24, steps: [
                .wait("movies>"), .send(Keys.ctrlL), .send("help" + Keys.enter), .wait("quit, exit"), .waitLine("movies>"), .snapshot("help"),
                .send(Keys.ctrlL), .send("help save" + Keys.enter), .wait("replaces it"), .snapshot("save"),
                .send("quit" + Keys.enter), .exit(),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let screen = outcome.snapshot("help")
            #expect(screen.first == "movies> help" && screen.contains { $0.hasPrefix("  TEXT ") }, "\(outcome.shown("help"))")
            #expect(screen.contains { $0.hasPrefix("  quit, exit ") } && screen.contains("movies>"), "\(outcome.shown("help"))")
            #expect(outcome.snapshot("save").contains { $0.hasPrefix("  save FILE         save the current search's rows") },
                    "\(outcome.shown("save"))")
        }
    }

    /// Tab after `save` completes a folder, then a file save writes inside it (it completed nothing).
    @Test func tabAfterSaveCompletesAPath() async throws {
        try await withTemporaryFolder { folder in
            let shots = folder.appendingPathComponent("shots")
            try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
            for name in ["old.csv", "notes.txt"] { try Data().write(to: shots.appendingPathComponent(name)) }
            let outcome = try await TerminalDriver.run(["--offline"], directory: folder, steps: [
                .wait("movies>"), .send("save sh" + Keys.tab), .wait("movies> save shots/"), .send(Keys.tab),
                .wait("movies> save shots/old.csv"), .send(Keys.ctrlU + "quit" + Keys.enter), .exit(),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
        }
    }

    /// The lines of snapshot `name` between the line typed (`movies> shown`) and the next prompt.
    private func output(_ name: String, typed shown: String? = nil, _ outcome: TerminalDriver.Outcome) -> [String] {
        let lines = outcome.snapshot(name)
        guard let start = lines.firstIndex(of: "movies> " + (shown ?? name)) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.hasPrefix("movies>") }.filter { !$0.isEmpty })
    }

    /// Offline, with no key: `alien` (one page), its page commands at the edges, `show 1-2`,
    /// `poster 1 DIR` (the folder completed with Tab) into the test's folder; then `star` (four
    /// pages) jumped through with `page 3`, `prev`, `next` and `first`, each row numbered by its
    /// place in the search whatever the order; then `catalogue`. Each command runs on a
    /// cleared screen (Ctrl-L), so a snapshot holds that command's output alone.
    @Test func thePageAndRowCommandsAsAPersonUsesThem() async throws {
        try await withTemporaryFolder { folder in
            let shots = folder.appendingPathComponent("shots")
            try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
            // (snapshot, typed, the line as shown, the last text of its output)
            let commands: [(name: String, typed: String, shown: String, last: String)] = [
                ("alien", "alien", "alien", "Showing 5 of 5"),
                ("next", "next", "next", "No more results for \"alien\""),
                ("prev", "prev", "prev", "first page of \"alien\""),
                ("page 2", "page 2", "page 2", "no page 2 of \"alien\""),
                ("show 1-2", "show 1-2", "show 1-2", "https://www.imdb.com/title/tt0103644/"),
                ("poster", "poster 1 sh" + Keys.tab, "poster 1 shots/", "poster saved"),
                ("star", "star", "star", "Showing 10 of 38"),
                // A page away from the end of the pages seen in order names its own rows.
                ("star page 3", "page 3", "page 3", "Showing 21–30 of 38"),
                ("star prev", "prev", "prev", "Showing 11–20 of 38"),
                ("star next", "next", "next", "Showing 30 of 38"),
                ("star first", "first", "first", "Showing 1–10 of 38"),
                ("catalogue", "catalogue", "catalogue", "Type next for the next page"),
                // The listing's rows are numbered: a number alone shows one, n turns the page.
                ("catalogue 3", "3", "3", "IMDb: https://www.imdb.com/title/"),
                ("catalogue n", "n", "n", "Type next for the next page"),
            ]
            var steps: [TerminalDriver.Step] = [.wait("movies>")]
            var previous: String?
            for command in commands {
                // Cleared, and seen to be: the wait that follows is for this command's output only.
                if let previous { steps += [.send(Keys.ctrlL), .waitGone(previous)] }
                steps += [.send(command.typed), .wait("movies> " + command.shown), .send(Keys.enter), .wait(command.last), .snapshot(command.name)]
                previous = command.last
            }
            steps += [.send("quit" + Keys.enter), .exit()]
            let outcome = try await TerminalDriver.run(directory: folder, columns: 100, rows: 40, steps: steps)
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            #expect(outcome.status == 0)

            let alien = output("alien", outcome)
            #expect(alien.first == "Results for \"alien\": page 1 of 1, 5 in all", "\(alien)")
            #expect(rowNumbers(alien) == [1, 2, 3, 4, 5])
            #expect(alien.contains { $0.contains("1. Alien (1979)  movie  tt0078748") })
            #expect(output("next", outcome).count == 1 && output("prev", outcome).count == 1 && output("page 2", outcome).count == 1,
                    "\(outcome.shown("next"))\n\(outcome.shown("prev"))\n\(outcome.shown("page 2"))")

            // Both titles, in the order asked, each with its details.
            let shown = output("show 1-2", outcome)
            let first = try #require(shown.firstIndex { $0.hasPrefix("Alien (1979)  movie  tt0078748") }, "\(shown)")
            let second = try #require(shown.firstIndex { $0.hasPrefix("Alien 3 (1992)  movie  tt0103644") }, "\(shown)")
            #expect(first == 0 && first < second)
            #expect(shown[first..<second].contains { $0.contains("Director: Ridley Scott") })
            #expect(shown[second...].contains { $0.contains("Director: David Fincher") })

            // The one poster asked for, saved into the folder typed, the same bytes as the catalogue's.
            let poster = output("poster", typed: "poster 1 shots/", outcome)
            #expect(poster.count == 1 && poster[0].contains("1. Alien (1979)") && poster[0].contains("shots/Alien (1979) [tt0078748]"), "\(poster)")
            let saved = try FileManager.default.contentsOfDirectory(atPath: shots.path)
            #expect(saved.count == 1 && saved[0].hasPrefix("Alien (1979) [tt0078748]."), "\(saved)")
            let catalogued = MoviesProcess.catalogueFolder.appendingPathComponent("posters/tt0078748.jpg")
            #expect(try Data(contentsOf: shots.appendingPathComponent(saved[0])) == Data(contentsOf: catalogued))

            // star's pages, jumped through: page 3 before page 2 is still 21–30, page 2 after it 11–20.
            for (name, typed, page, rows) in [("star", "star", 1, 1...10), ("star page 3", "page 3", 3, 21...30), ("star prev", "prev", 2, 11...20),
                                              ("star next", "next", 3, 21...30), ("star first", "first", 1, 1...10)] {
                let lines = output(name, typed: typed, outcome)
                #expect(lines.first == "Results for \"star\": page \(page) of 4, 38 in all", "\(name): \(lines)")
                #expect(rowNumbers(lines) == Array(rows), "\(name): \(outcome.shown(name))")
            }

            let catalogue = output("catalogue", outcome)
            #expect(catalogue.first == "The offline catalogue: page 1 of 13, 245 titles", "\(catalogue)")
            let numbers = { (lines: [String]) in lines.compactMap { $0.firstMatch(of: #/^ *(\d+)\. /#).flatMap { Int($0.1) } } }
            #expect(numbers(catalogue) == Array(1...20), "\(catalogue)")
            #expect(catalogue.contains { $0.hasSuffix(". Alien (1979)  movie  tt0078748") }, "\(catalogue)")
            #expect(catalogue.count == 22)
            let third = try #require(catalogue.dropFirst(3).first?.firstMatch(of: #/\. (.*)  \w+  tt\d+$/#)?.1)
            #expect(output("catalogue 3", typed: "3", outcome).first?.hasPrefix(String(third)) == true, "\(outcome.shown("catalogue 3"))")
            let turned = output("catalogue n", typed: "n", outcome)
            #expect(turned.first == "The offline catalogue: page 2 of 13, 245 titles" && numbers(turned) == Array(21...40), "\(turned)")
        }
    }
}
