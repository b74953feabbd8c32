import FakeOMDb
import Foundation
import Testing
import TestSupport

/// Keys as a terminal sends them.
enum Keys {
    static let enter = "\r", tab = "\t", left = "\u{1B}[D", up = "\u{1B}[A"
    static let ctrlC = "\u{03}", ctrlD = "\u{04}", ctrlL = "\u{0C}", ctrlR = "\u{12}", ctrlU = "\u{15}", ctrlZ = "\u{1A}"
}

/// The spinner and the other markers a live row can show.
let spinner = Set("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

/// The numbers of the live rows on a screen (`✓   3. Title…`), in order, with repeats.
func rowNumbers(_ lines: [String]) -> [Int] {
    lines.compactMap { line in
        guard let marker = line.first, marker == "✓" || marker == "!" || marker == "–" || spinner.contains(marker) else { return nil }
        let words = line.dropFirst().split(separator: " ", maxSplits: 1)
        guard let first = words.first, first.hasSuffix(".") else { return nil }
        return Int(first.dropLast())
    }
}

/// The built `movies` on a pseudo-terminal, keys sent and the rendered screen asserted.
/// Skipped, saying why, when python3 or pyte (installed by `.ci/run`) is missing. One at a
/// time: each runs python3 and movies, and two cores are shared with every other suite.
@Suite(.serialized, .enabled(if: TerminalDriver.unavailable == nil, "needs python3 with pyte (see .ci/run)"))
struct TerminalProcessTests {
    @Test func editingInTheMiddleOfALineSearchesForWhatIsShown() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(directory: folder, steps: [
                .wait("movies>"), .send("toxc" + Keys.left + "i"), .wait("movies> toxic"), .send(Keys.enter),
                .wait("Results for \"toxic\""), .wait("Showing 10 of 10"), .snapshot("end"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            #expect(!outcome.shown("end").contains("[D"))
        }
    }

    @Test func aLineLongerThanTheTerminalWrapsAndStillEdits() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(directory: folder, columns: 30, rows: 12, steps: [
                .wait("movies>"), .send("a very long title that wraps around"), .wait("wraps around"),
                .send("\u{01}Z\u{05}!"), .wait("around!"), .snapshot("edited"), .send(Keys.ctrlU), .waitGone("wraps"), .snapshot("cleared"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let edited = outcome.snapshot("edited")
            let row = try #require(edited.firstIndex { $0.hasPrefix("movies> ") }, "\(outcome.shown("edited"))")
            #expect(edited[row] == "movies> Za very long title tha")
            #expect(edited[row + 1] == "t wraps around!")
            #expect(outcome.snapshot("cleared")[row] == "movies>")
            #expect(outcome.snapshot("cleared")[row + 1] == "")
        }
    }

    /// The width is read at every use: after the window narrows, `show` wraps at the new width
    /// (a plot wrapped at the old one would be cut by the terminal, mid-word and unindented).
    @Test func showWrapsAtTheWidthTheWindowHasNow() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(directory: folder, columns: 100, rows: 40, steps: [
                .wait("movies>"), .resize(columns: 44, rows: 40), .send("alien" + Keys.enter), .wait("Showing 5 of 5"),
                .send(Keys.ctrlL + "show 1" + Keys.enter), .wait("IMDb:"), .snapshot("shown"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let shown = outcome.snapshot("shown")
            let plot = try #require(shown.firstIndex { $0.hasPrefix("  Plot:") })
            let end = try #require(shown.firstIndex { $0.contains("IMDb:") })
            let body = shown[(plot + 1)..<end].prefix { !$0.contains(":") }
            #expect(body.count >= 3 && body.allSatisfy { $0.hasPrefix("    ") }, "\(outcome.shown("shown"))")
        }
    }

    /// `show N` names the saved poster on a colour terminal (the live page) as in plain lines:
    /// the live presenter once dropped the line.
    @Test(arguments: [[:], ["NO_COLOR": "1"]])
    func showNamesTheSavedPosterOnEveryKindOfTerminal(environment: [String: String]) async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(["--posters", "pp"], directory: folder, environment: environment, rows: 40, steps: [
                .wait("movies>"), .send("toxic avenger" + Keys.enter), .wait("Showing 4 of 4"),
                .send(Keys.ctrlL + "show 1" + Keys.enter), .wait("IMDb:"), .snapshot("shown"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            #expect(outcome.snapshot("shown").contains("  Poster: pp/The Toxic Avenger (1984) [tt0090190].png"), "\(outcome.shown("shown"))")
        }
    }

    @Test func historyIsRecalledInTheNextRunAndKeptPrivate() async throws {
        try await withTemporaryFolder { folder in
            let first = try await TerminalDriver.run(directory: folder, steps: [
                .wait("movies>"), .send("alien" + Keys.enter), .wait("Results for \"alien\""), .wait("movies>"),
                .send(" not kept" + Keys.enter), .wait("\"not kept\""), .send("quit" + Keys.enter), .exit(),
            ])
            #expect(first.ok, "\(first.error ?? "")\n\(first.shown())")
            let file = folder.appendingPathComponent("state/movies/history")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text == "alien\nquit\n")
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)

            let second = try await TerminalDriver.run(directory: folder, steps: [
                .wait("movies>"), .send(Keys.up + Keys.up), .wait("movies> alien"), .snapshot("recalled"),
            ])
            #expect(second.ok, "\(second.error ?? "")\n\(second.shown())")
        }
    }

    /// `save` over a file asks on a line of its own, prompted by the question (an answer typed at
    /// `movies>` looked like a command), and the answers stay out of history, saved or recalled.
    @Test func theReplaceQuestionIsItsOwnLineAndItsAnswersStayOutOfHistory() async throws {
        try await withTemporaryFolder { folder in
            try Data("old".utf8).write(to: folder.appendingPathComponent("out.json"))
            let question = "out.json exists. Replace it? (y/N)"
            // Each step clears the screen and waits for that first: text still shown from a step
            // before would satisfy a wait at once, and keys sent then arrive while a command runs.
            let outcome = try await TerminalDriver.run(directory: folder, steps: [
                .wait("movies>"), .send("toxic avenger" + Keys.enter), .wait("Showing 4 of 4"),
                .send(Keys.ctrlL), .waitGone("Showing 4 of 4"), .send("save out.json" + Keys.enter), .wait(question),
                // Nothing to recall here: Up leaves the answer empty.
                .send(Keys.up + "yes man" + Keys.enter), .wait("so nothing was saved"),
                .send(Keys.ctrlL), .waitGone("so nothing was saved"), .send("save out.json" + Keys.enter), .wait(question),
                .send(Keys.ctrlC), .wait(question + " ^C"), .wait("so nothing was saved"),
                .send(Keys.ctrlL), .waitGone("so nothing was saved"), .send("save out.json" + Keys.enter), .wait(question),
                .send("y" + Keys.enter), .wait("Saved 4 movies"), .snapshot("answered"),
                .send(Keys.ctrlL), .waitGone("Saved 4 movies"), .send(Keys.up), .wait("movies> save out.json"), .snapshot("recalled"),
                .send(Keys.ctrlU + "quit" + Keys.enter), .exit(),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let answered = outcome.snapshot("answered").filter { !$0.isEmpty }
            #expect(answered.contains(question + " y"), "\(outcome.shown("answered"))")
            #expect(!answered.contains { $0.hasPrefix("movies> y") }, "\(outcome.shown("answered"))")
            #expect(outcome.snapshot("recalled").filter { !$0.isEmpty } == ["movies> save out.json"], "\(outcome.shown("recalled"))")
            let history = try String(contentsOf: folder.appendingPathComponent("state/movies/history"), encoding: .utf8)
            #expect(history == "toxic avenger\nsave out.json\nquit\n")
        }
    }

    @Test func ctrlRFindsAnEarlierLineAndEnterRunsIt() async throws {
        try await withTemporaryFolder { folder in
            let state = folder.appendingPathComponent("state/movies")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            try "star wars\ntoxic\nalien\n".write(to: state.appendingPathComponent("history"), atomically: true, encoding: .utf8)
            let outcome = try await TerminalDriver.run(directory: folder, steps: [
                .wait("movies>"), .send(Keys.ctrlR + "sta"), .wait("(reverse-i-search)'sta': star wars"),
                .send(Keys.enter), .wait("Results for \"star wars\""),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
        }
    }

    @Test func tabCompletesCommandsValuesAndFolders() async throws {
        try await withTemporaryFolder { folder in
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("shots-here"), withIntermediateDirectories: true)
            let outcome = try await TerminalDriver.run(directory: folder, steps: [
                .wait("movies>"), .send("ty" + Keys.tab), .wait("movies> type"), .send("mo" + Keys.tab), .wait("movies> type movie"),
                .send(Keys.enter), .wait("Next searches: movies only."),
                .send("posters sh" + Keys.tab), .wait("movies> posters shots-here/"), .send(Keys.enter),
                .wait("Posters will be saved in"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
        }
    }

}

/// The built `movies` on a pseudo-terminal, as ``TerminalProcessTests``: the live page, filled in
/// place, laid out again on a resize, cut short by Ctrl-C. A suite of its own (one at a time
/// within it, beside the other terminal suites): in one suite with the prompt's editing tests,
/// its twelve tests one after the other were the last to end in CI's run (39 s).
@Suite(.serialized, .enabled(if: TerminalDriver.unavailable == nil, "needs python3 with pyte (see .ci/run)"))
struct TerminalLivePageTests {
    /// The records are held until the loading page has been seen: with a fixed latency instead
    /// (700 ms), a driver slowed by a loaded machine saw the page only once every plot was in.
    @Test func livePageFillsInPlaceWithOneLinePerTitle() async throws {
        try await withTemporaryFolder { folder in
            let (outcome, _) = try await TerminalDriver.runHoldingRecords(["--posters", "p"], directory: folder, rows: 50) { release in [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("Results for \"toxic\""), .wait("plots 0/10"), .snapshot("early"),
                release, .wait("✓ plots 10/10 · posters 10/10", timeout: 60), .snapshot("end"),
            ] }
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let early = outcome.snapshot("early")
            let rows = early.filter { $0.contains(" tt") }
            #expect(rows.count == 10 && rows.allSatisfy { $0.first.map(spinner.contains) ?? false }, "\(outcome.shown("early"))")
            #expect(early.contains { $0.contains("plots 0/10") })

            let end = outcome.snapshot("end")
            #expect(rowNumbers(end) == Array(1...10), "each row once, in order:\n\(outcome.shown("end"))")
            #expect(end.count(where: { ($0.hasPrefix("✓") || $0.hasPrefix("!")) && $0.contains(" tt") }) == 10)
            #expect(end.count(where: { $0.contains("poster saved: ") || $0.contains("no poster") }) == 10)
            #expect(end.count(where: { $0.contains("Results for") }) == 1)
            #expect(end.contains { $0.contains("A bullied health-club janitor") })
            #expect(!end.contains { $0.contains("loading") })
        }
    }

    @Test func aResizeMidPageLaysTheRowsOutAgainAtTheNewWidth() async throws {
        try await withTemporaryFolder { folder in
            // The records are held until the window is narrowed, so the rows fill in at the new width.
            let (outcome, _) = try await TerminalDriver.runHoldingRecords(directory: folder) { release in [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("plots 0/10"), .resize(columns: 64, rows: 45),
                release, .wait("✓ plots 10/10", timeout: 60), .snapshot("end"),
            ] }
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let end = outcome.snapshot("end")
            #expect(rowNumbers(end) == Array(1...10), "each row once, in order:\n\(outcome.shown("end"))")
            #expect(end.count(where: { $0.contains("Results for") }) == 1, "\(outcome.shown("end"))")
            // Plots wrapped at the new width (64 columns): full words, nothing cut at the old one (80).
            #expect(end.contains("       A bullied health-club janitor falls into a vat of toxic"), "\(outcome.shown("end"))")
            #expect(end.contains("       waste and emerges as a hulking, mop-wielding hero who …"), "\(outcome.shown("end"))")
        }
    }

    @Test func aNarrowScreenGetsTheHeadingOnceNotOncePerRedraw() async throws {
        try await withTemporaryFolder { folder in
            // The records are held until the page has been drawn three times (its third spinner frame).
            // 36 columns: the status line ("⠋ plots 0/10 · requests today: 11 of 1,000") is wider.
            let (outcome, _) = try await TerminalDriver.runHoldingRecords(directory: folder, columns: 36) { release in [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("⠹ plots 0/10"), release,
                .wait("✓ plots 10/10", timeout: 60), .snapshot("end"),
            ] }
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let end = outcome.snapshot("end")
            #expect(end.count(where: { $0.contains("Results for") }) == 1, "\(outcome.shown("end"))")
            #expect(rowNumbers(end) == Array(1...10), "each row once, in order:\n\(outcome.shown("end"))")
        }
    }

    @Test func ctrlCMidPageKeepsWhatArrivedAndGivesAPromptOnAFreshLine() async throws {
        try await withTemporaryFolder { folder in
            // The records are held until the test ends: the page stays live for whatever it does.
            let (outcome, _) = try await TerminalDriver.runHoldingRecords(directory: folder) { _ in [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("plots 0/10", timeout: 20), .send(Keys.ctrlC),
                .wait("Stopped before any of the 10 rows"), .waitLine("movies>"), .snapshot("end"),
            ] }
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let end = outcome.snapshot("end").filter { !$0.isEmpty }
            #expect(end.count(where: { $0.contains("(stopped)") }) == 10, "\(outcome.shown("end"))")
            #expect(!end.contains { $0.contains(where: spinner.contains) })
            #expect(end.last == "movies>")
        }
    }
}

/// The built `movies` on a pseudo-terminal, as ``TerminalProcessTests``: Ctrl-C and the lines typed
/// ahead, and every way out leaving the terminal as found. A suite of its own (one at a time within
/// it, beside the other terminal suites): one suite held these and ``TerminalStopTests``, and its
/// tests, one after the other, were the last to end in CI's run (47 s, against 11 s for the next).
@Suite(.serialized, .enabled(if: TerminalDriver.unavailable == nil, "needs python3 with pyte (see .ci/run)"))
struct TerminalInterruptTests {
    /// Lines pasted where paste is not bracketed each run as a command. Ctrl-C stops the one
    /// running and drops every line typed ahead: none of them is searched, and `quit` typed next
    /// does not wait behind them (it waited behind a minute of searches here).
    @Test func ctrlCDropsTheLinesTypedAhead() async throws {
        try await withTemporaryFolder { folder in
            // The records are held until the test ends: the page stays live for whatever it does.
            let pasted = ["toxic"] + (2...20).map { "pasted \($0)" }
            let (outcome, server) = try await TerminalDriver.runHoldingRecords(directory: folder) { _ in [
                .wait("movies>"), .send(pasted.joined(separator: Keys.enter) + Keys.enter), .wait("plots 0/10", timeout: 20),
                .send(Keys.ctrlC), .wait("Stopped before any of the 10 rows"), .wait("movies>"), .send("quit" + Keys.enter), .exit(timeout: 20),
            ] }
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            #expect(outcome.status == 0)
            let searched = server.requests.compactMap { $0.queryItems.first { $0.name == "s" }?.value }
            #expect(!searched.contains { $0.hasPrefix("pasted") }, "lines typed ahead were searched: \(searched)")
        }
    }

    /// A Ctrl-C that comes as a key (typed while the prompt reads, behind lines pasted at once)
    /// drops the lines before it too: it was read only after all of them had run.
    @Test func aCtrlCTypedBehindPastedLinesDropsThem() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue, latency: .milliseconds(200))
            defer { server.shutdown() }
            let pasted = ["toxic"] + (2...20).map { "pasted \($0)" }
            let outcome = try await TerminalDriver.run(["--base-url", server.baseURL.absoluteString], directory: folder,
                                                       environment: ["OMDB_API_KEY": FakeOMDbServer.validKey], rows: 45, steps: [
                .wait("movies>"), .send(pasted.joined(separator: Keys.enter) + Keys.enter + Keys.ctrlC),
                .wait("movies> ^C", timeout: 20), .send("quit" + Keys.enter), .exit(timeout: 20),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let searched = server.requests.compactMap { $0.queryItems.first { $0.name == "s" }?.value }
            #expect(!searched.contains { $0.hasPrefix("pasted") }, "lines typed ahead were searched: \(searched)")
        }
    }

    /// The same on a terminal without the line editor (`TERM=dumb`): lines typed ahead were read
    /// ahead into the tool, so Ctrl-C, which empties only the terminal's queue, did not drop them.
    @Test func ctrlCDropsTheLinesTypedAheadWithoutTheEditor() async throws {
        try await withTemporaryFolder { folder in
            // The records are held until the test ends: the page stays live for whatever it does.
            let pasted = ["toxic"] + (2...20).map { "pasted \($0)" }
            let (outcome, server) = try await TerminalDriver.runHoldingRecords(directory: folder, environment: ["TERM": "dumb"]) { _ in [
                .wait("movies>"), .send(pasted.joined(separator: "\n") + "\n"), .wait("Results for \"toxic\"", timeout: 20),
                .send(Keys.ctrlC), .wait("Stopped before any of the 10 rows"), .send("quit\n"), .exit(timeout: 20),
            ] }
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            #expect(outcome.status == 0)
            let searched = server.requests.compactMap { $0.queryItems.first { $0.name == "s" }?.value }
            #expect(!searched.contains { $0.hasPrefix("pasted") }, "lines typed ahead were searched: \(searched)")
        }
    }

    /// Every way out leaves the terminal's settings exactly as they were (`stty -g`).
    @Test(arguments: ["quit", "ctrl-d", "TERM", "HUP"])
    func terminalSettingsAreRestoredOnEveryWayOut(_ way: String) async throws {
        try await withTemporaryFolder { folder in
            let leave: [TerminalDriver.Step] = switch way {
            case "quit": [.send(Keys.ctrlU + "quit" + Keys.enter)]
            case "ctrl-d": [.send(Keys.ctrlU + Keys.ctrlD)]
            default: [.signal(way)]
            }
            let outcome = try await TerminalDriver.run(directory: folder, steps: [
                .wait("movies>"), .send("star"), .wait("movies> star"), .stty("editing")] + leave + [.exit(), .stty("after"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            #expect(outcome.stty["before"] != nil && outcome.stty["after"] == outcome.stty["before"])
            #expect(outcome.stty["editing"] != outcome.stty["before"], "raw mode while typing")
            let expected = ["quit": 0, "ctrl-d": 0, "TERM": 143, "HUP": 129][way]
            #expect(outcome.status == expected)
        }
    }

}

/// The built `movies` on a pseudo-terminal: Ctrl-Z, SIGTERM and SIGHUP mid-page, and TERM=dumb.
/// Split from ``TerminalInterruptTests`` (see there).
@Suite(.serialized, .enabled(if: TerminalDriver.unavailable == nil, "needs python3 with pyte (see .ci/run)"))
struct TerminalStopTests {
    /// Ctrl-Z gives the terminal back as found while stopped; `fg` (SIGCONT) brings raw mode back.
    @Test func ctrlZRestoresTheTerminalAndContinuingEditsAgain() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(directory: folder, steps: [
                .wait("movies>"), .send("tox"), .wait("movies> tox"), .send(Keys.ctrlZ), .stopped(), .stty("stopped"),
                // The line drawn again says the mode is set back: keys sent before could be echoed by
                // the terminal itself, and satisfy the wait below.
                .signal("CONT"), .wait("movies> tox", times: 2), .stty("continued"), .send("ic"), .wait("movies> toxic"),
                .send(Keys.enter), .wait("Results for \"toxic\""),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            #expect(outcome.stty["stopped"] == outcome.stty["before"])
            #expect(outcome.stty["continued"] != outcome.stty["before"], "raw mode again after fg")
        }
    }

    /// Stopped by someone else (`kill -STOP`) under a shell with job control, then continued in the
    /// background (`kill -CONT`): the prompt stops again rather than set modes and draw under the
    /// shell, and `fg` brings it back drawn and editing (a shell sends no SIGCONT to a running job).
    @Test func aJobContinuedInTheBackgroundWaitsForFg() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(program: ["bash", "--norc", "--noprofile", "-i"], directory: folder,
                                                       environment: ["PS1": "shell$ "], steps: [
                .wait("shell$"), .send(MoviesProcess.executable.path + Keys.enter), .wait("movies>"), .send("tox"),
                .wait("movies> tox"), .signal("STOP", job: true), .wait("Stopped"), .signal("CONT", job: true),
                // bash's table must say stopped before fg (it sends no SIGCONT to a job it thinks runs):
                // at its next prompt it says so.
                .stopped(job: true), .send(Keys.enter), .wait("Stopped", times: 2),
                .send("fg" + Keys.enter), .wait("movies> tox", times: 2), .send("ic"),
                .wait("movies> toxic"), .send(Keys.enter), .wait("Results for \"toxic\""),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
        }
    }

    /// Ctrl-Z while a page is still filling in: stopped with the terminal as found (echo on, cursor
    /// shown); `fg` (SIGCONT) and the page goes on filling in place, then the prompt edits again.
    @Test func ctrlZMidPageRestoresTheTerminalAndThePageGoesOn() async throws {
        try await withTemporaryFolder { folder in
            // The records are held until the process has been stopped and continued.
            let (outcome, _) = try await TerminalDriver.runHoldingRecords(directory: folder) { release in [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("plots 0/10", timeout: 20), .stty("page"),
                .send(Keys.ctrlZ), .stopped(), .stty("stopped"),
                .signal("CONT"), release, .wait("Showing 10 of 10", timeout: 60), .snapshot("end"),
                .send("alien"), .wait("movies> alien"), .stty("editing"),
            ] }
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            #expect(outcome.stty["page"] != outcome.stty["before"], "no echo while the page draws")
            #expect(outcome.stty["stopped"] == outcome.stty["before"], "the terminal as found while stopped")
            #expect(outcome.stty["editing"] != outcome.stty["before"], "raw mode again at the prompt")
            let end = outcome.snapshot("end")
            #expect(end.contains { $0.contains("1. The Toxic Avenger (1984)") })
            #expect(end.count(where: { $0.contains("Results for \"toxic\"") }) == 1, "the page is drawn once, in place")
        }
    }

    /// SIGTERM or SIGHUP while a live page is drawing: settings back as found, cursor shown.
    @Test(arguments: ["TERM", "HUP"])
    func aSignalMidPageLeavesTheTerminalAsFound(_ signal: String) async throws {
        try await withTemporaryFolder { folder in
            // The records are held until the test ends: the page stays live for whatever it does.
            let (outcome, _) = try await TerminalDriver.runHoldingRecords(directory: folder) { _ in [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("plots 0/10", timeout: 20), .stty("page"),
                .signal(signal), .exit(), .stty("after"),
            ] }
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            #expect(outcome.stty["page"] != outcome.stty["before"], "no echo while the page draws")
            #expect(outcome.stty["after"] == outcome.stty["before"])
            #expect(!outcome.cursorHidden)
            #expect(outcome.status == (signal == "TERM" ? 143 : 129))
        }
    }

    /// `TERM=dumb` takes no cursor codes: plain lines, each row once. (`NO_COLOR` keeps the live
    /// page since issue 24: LayoutTerminalTests.)
    @Test func withTermDumbThePageIsPlainLines() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(directory: folder, environment: ["TERM": "dumb"], rows: 50, steps: [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("Showing 10 of 10"), .snapshot("end"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let end = outcome.snapshot("end")
            #expect(end.count(where: { $0.hasPrefix("  1. The Toxic Avenger (1984)  movie  tt0090190") }) == 1, "\(outcome.shown("end"))")
            #expect(!end.contains { $0.hasPrefix("✓") })
        }
    }
}
