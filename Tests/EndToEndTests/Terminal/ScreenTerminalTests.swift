import FakeOMDb
import Foundation
import Testing
import TestSupport

/// What a live page shows on a real pseudo-terminal rendered by pyte (issue 16): rows that keep
/// their identity at 80 columns, a status line that fits, a redraw that survives a narrowing
/// window. One at a time, like ``TerminalProcessTests``.
@Suite(.serialized, .enabled(if: TerminalDriver.unavailable == nil, "needs python3 with pyte (see .ci/run)"))
struct ScreenTerminalTests {
    /// The live rows' title lines (`✓   3. Title…  movie  tt0212879`).
    private func titleLines(_ lines: [String]) -> [String] {
        lines.filter { line in line.first.map { "✓!–".contains($0) || spinner.contains($0) } == true && line.contains(". ") }
    }

    /// At 80 columns every row keeps its year, type and ID whole, however long its title, in the
    /// roomy layout (50 rows) and in the tightest (24 rows: the poster's state on the title line).
    @Test(arguments: [50, 24])
    func eightyColumnsKeepEveryRowsYearTypeAndID(rows: Int) async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(["--offline", "--posters", "p"], directory: folder, columns: 80, rows: rows, steps: [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("✓ plots 10/10"), .snapshot("end"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let titles = titleLines(outcome.snapshot("end"))
            #expect(titles.count == 10, "\(outcome.shown("end"))")
            for line in titles {
                #expect(line.range(of: #"\(\d{4}(–\d{4})?\)  (movie|series)  tt\d{7}\b"#, options: .regularExpression) != nil, "\(line)")
            }
            let long = try #require(titles.first { $0.contains("4. ") })
            #expect(long.contains("The Toxic Avenger Part III: …") || long.contains("Toxie…") || long.contains("… (1989)  movie  tt0098502"), "\(long)")
            #expect(long.contains("(1989)  movie  tt0098502"), "\(long)")
            // The poster's state on each title line: in words beside a whole title, else as its symbol.
            if rows == 24 {
                for line in titles {
                    let words = line.hasSuffix("  · poster saved") || line.hasSuffix("  · no poster")
                    #expect(words ? !line.contains("…") : line.hasSuffix("  ▣") || line.hasSuffix("  □"), "\(line)")
                }
            }
        }
    }

    /// The status line fits: whole parts, and requests only where the key's are counted.
    @Test func theStatusLineSaysTheDaysCountOnlyWhereOneIsKept() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let online = try await TerminalDriver.run(["--base-url", server.baseURL.absoluteString], directory: folder,
                                                      environment: ["OMDB_API_KEY": FakeOMDbServer.validKey], columns: 80, rows: 45, steps: [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("✓ plots 10/10"), .snapshot("end"),
            ])
            #expect(online.ok, "\(online.error ?? "")\n\(online.shown())")
            let status = try #require(online.snapshot("end").first { $0.hasPrefix("✓ plots") })
            #expect(status.range(of: #"^✓ plots 10/10 · requests today: \d+ of 1,000$"#, options: .regularExpression) != nil, "\(status)")

            let offline = try await TerminalDriver.run(["--offline"], directory: folder, columns: 80, rows: 45, steps: [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("✓ plots 10/10"), .snapshot("end"),
            ])
            #expect(offline.ok, "\(offline.error ?? "")\n\(offline.shown())")
            #expect(offline.snapshot("end").contains("✓ plots 10/10"), "\(offline.shown("end"))")
            #expect(!offline.shown("end").contains("request"), "\(offline.shown("end"))")
        }
    }

    /// Narrowed mid-page on a terminal that rewraps long lines: the redraw goes up over every
    /// row the old lines now take, so no piece of the old page is left above the new one.
    @Test func narrowingARewrappingWindowMidPageLeavesNoStaleLines() async throws {
        try await withTemporaryFolder { folder in
            // The records are held until the window is narrowed: the page is still loading then,
            // however slowly this machine runs (a latency was outrun under load).
            let outcome = try await TerminalDriver.runHoldingRecords(["--posters", "p"], directory: folder, rows: 50) { release in [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("plots 0/10"), .resize(columns: 60, rows: 50, reflow: true),
                release, .wait("✓ plots 10/10", timeout: 60), .snapshot("end"),
            ] }.outcome
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let end = outcome.snapshot("end")
            #expect(end.count(where: { $0.contains("Results for") }) == 1, "\(outcome.shown("end"))")
            #expect(rowNumbers(end) == Array(1...10), "each row once, in order:\n\(outcome.shown("end"))")
            #expect(!end.contains { $0.contains("loading") || $0.contains("plots 0/10") }, "\(outcome.shown("end"))")
        }
    }

    /// From Enter to OMDb's answer, one line says what is awaited, with a spinner; the page then
    /// takes its place (and nothing of it is left). Before, the screen stayed still meanwhile.
    @Test func aSearchSaysWhatItAwaitsUntilTheAnswerComes() async throws {
        try await withTemporaryFolder { folder in
            let gate = ServerGate()
            let server = try FakeOMDbServer(catalogue: catalogue, holding: HeldAnswers(until: gate) { request in request.queryItems.contains { $0.name == "s" } })
            defer { server.shutdown() }
            let marker = folder.appendingPathComponent("status-seen")
            async let opened: Void = { try await TerminalDriver.waitForFile(marker); gate.open() }()
            let outcome = try await TerminalDriver.run(["--base-url", server.baseURL.absoluteString], directory: folder,
                                                       environment: ["OMDB_API_KEY": FakeOMDbServer.validKey], columns: 100, rows: 45, steps: [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("Searching OMDb for \"toxic\"…"), .snapshot("waiting"), .touch(marker),
                .wait("✓ plots 10/10"), .snapshot("end"),
            ])
            gate.open()
            try await opened
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let status = try #require(outcome.snapshot("waiting").first { $0.contains("Searching OMDb") })
            #expect(status.first.map(spinner.contains) == true, "\(status)")
            #expect(!outcome.shown("end").contains("Searching"), "\(outcome.shown("end"))")
            #expect(outcome.snapshot("end").count(where: { $0.contains("Results for") }) == 1, "\(outcome.shown("end"))")
        }
    }

    /// A page taller than the screen is printed row by row, in order: while the next row is
    /// awaited, a status line under the rows printed so far turns its spinner and counts.
    /// Before, nothing moved until the first row was done.
    @Test func aPageTallerThanTheScreenShowsItsStatusWhileRowsAreAwaited() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.runHoldingRecords(directory: folder, rows: 14) { release in [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("plots 0/10"), .snapshot("waiting"), release,
                .wait("✓ plots 10/10"), .snapshot("end"),
            ] }.outcome
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let status = try #require(outcome.snapshot("waiting").first { $0.contains("plots 0/10") })
            #expect(status.first.map(spinner.contains) == true, "\(status)")
            let end = outcome.snapshot("end")
            #expect(end.count(where: { $0.contains("plots ") }) == 1, "one status line, the last:\n\(outcome.shown("end"))")
            #expect(rowNumbers(end) == Array(rowNumbers(end).first.map { $0...10 } ?? 1...10), "rows in order:\n\(outcome.shown("end"))")
        }
    }

    /// The first screen's lines break between words at the window's width (before, the terminal
    /// broke them: `…put it in .en` / `v.`), and with a key in .env, `--offline` says the key is
    /// not used instead of asking for one.
    @Test func theFirstScreenBreaksLinesBetweenWordsAndSaysWhatBecomesOfTheKey() async throws {
        try await withTemporaryFolder { folder in
            let noKey = try await TerminalDriver.run([], directory: folder, columns: 100, rows: 20, steps: [.wait("movies>"), .snapshot("start")])
            #expect(noKey.ok, "\(noKey.error ?? "")\n\(noKey.shown())")
            #expect(Array(noKey.snapshot("start").prefix(3)) == [
                "Offline catalogue (no API key): \(catalogue.count) titles. To search OMDb itself, set OMDB_API_KEY or put it in",
                ".env.",
                "Type a title to search, help for the commands.",
            ], "\(noKey.shown("start"))")

            try Data("OMDB_API_KEY=1a2b3c4d\n".utf8).write(to: folder.appendingPathComponent(".env"))
            let withKey = try await TerminalDriver.run(["--offline"], directory: folder, columns: 40, rows: 20, steps: [.wait("movies>"), .snapshot("start")])
            #expect(withKey.ok, "\(withKey.error ?? "")\n\(withKey.shown())")
            #expect(Array(withKey.snapshot("start").prefix(4)) == [
                "Offline catalogue (--offline): \(catalogue.count)",
                "titles; the key in .env is not used.",
                "Type a title to search, help for the",
                "commands.",
            ], "\(withKey.shown("start"))")
        }
    }

    /// From 1 to 12 columns the first screen's styled lines break between words and never inside
    /// their colour codes: before, the hint's reset was cut (ESC, CR LF, `[0m`) and `[0m` was shown.
    @Test func narrowScreensNeverShowAPieceOfAColourCode() async throws {
        try await withTemporaryFolder { folder in
            var shown: [Int: String] = [:]
            for columns in [1, 5, 8, 10, 12] {
                let outcome = try await TerminalDriver.run(["--offline"], directory: folder, columns: columns, rows: 200,
                                                           steps: [.send("quit" + Keys.enter), .exit()])
                // The screen's characters in order, the breaks the terminal made taken out.
                shown[columns] = outcome.ok ? outcome.screen.joined().filter { $0 != " " } : "failed: \(outcome.error ?? "")"
            }
            let pieces = shown.filter { $0.value.contains("[0m") || $0.value.contains("[2m") || !$0.value.contains("helpforthecommands.") }
            #expect(pieces.isEmpty, "\(pieces)")
        }
    }

    /// A row's poster state says `no poster` once when OMDb has none (not `no poster: no poster
    /// (N/A)`), and a plot cut to fit ends after a whole word (not `schemes t…`).
    @Test func posterStatesAndCutPlotsReadAsWords() async throws {
        try await withTemporaryFolder { folder in
            // 40 rows: one plot line a row, so most plots are cut.
            let outcome = try await TerminalDriver.run(["--offline", "--posters", "p"], directory: folder, columns: 100, rows: 40, steps: [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("✓ plots 10/10"), .snapshot("end"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let end = outcome.snapshot("end")
            #expect(end.count(where: { $0 == "       no poster" }) == 3, "\(outcome.shown("end"))")
            #expect(!end.contains { $0.contains("no poster: no poster") }, "\(outcome.shown("end"))")
            let cut = end.filter { $0.hasPrefix("       ") && !$0.hasPrefix("       no poster") && $0.hasSuffix("…") }
            #expect(!cut.isEmpty, "\(outcome.shown("end"))")
            #expect(cut.allSatisfy { $0.hasSuffix(" …") && !$0.hasSuffix("  …") }, "\(cut.joined(separator: "\n"))")
        }
    }
}
