import FakeOMDb
import Foundation
import Testing
import TestSupport

/// Issue 24, on a real pseudo-terminal rendered by pyte: `NO_COLOR` takes the colour away and
/// keeps the live page; on a narrow screen a title keeps its columns and the poster's state
/// gives way; `plot full` shows whole plots in the rows.
@Suite(.serialized, .enabled(if: TerminalDriver.unavailable == nil, "needs python3 with pyte (see .ci/run)"))
struct LayoutTerminalTests {
    /// The page while loading and once done, with `environment`, against a server that holds the
    /// records until the loading page has been seen.
    private func livePage(environment: [String: String], in folder: URL) async throws -> TerminalDriver.Outcome {
        try await TerminalDriver.runHoldingRecords(directory: folder, environment: environment) { release in [
            .wait("movies>"), .send("toxic" + Keys.enter), .wait("plots 0/10"), .snapshot("loading"), release,
            .wait("✓ plots 10/10", timeout: 60), .snapshot("end"),
        ] }.outcome
    }

    /// With `NO_COLOR` the page still fills in place (spinners, then ✓, a status line that counts)
    /// and no cell is in colour or bold. Before, `NO_COLOR` printed plain lines instead.
    @Test func noColorKeepsTheLivePageWithoutColour() async throws {
        try await withTemporaryFolder { folder in
            let plain = try await livePage(environment: ["NO_COLOR": "1"], in: folder)
            #expect(plain.ok, "\(plain.error ?? "")\n\(plain.shown())")
            let loading = plain.snapshot("loading")
            #expect(rowNumbers(loading) == Array(1...10), "\(plain.shown("loading"))")
            #expect(loading.count(where: { $0.first.map(spinner.contains) == true && $0.contains(". ") }) == 10, "\(plain.shown("loading"))")
            let end = plain.snapshot("end")
            #expect(rowNumbers(end) == Array(1...10), "each row once, in place:\n\(plain.shown("end"))")
            #expect(end.count(where: { $0.hasPrefix("✓ ") && $0.contains(". ") }) == 10, "\(plain.shown("end"))")
            #expect(end.count(where: { $0.contains("Results for") }) == 1, "\(plain.shown("end"))")
            #expect(plain.styled["loading"] == [] && plain.styled["end"] == [], "styled lines: \(plain.styled)")

            // The same page in colour: the check above sees colour where there is some.
            let coloured = try await livePage(environment: [:], in: folder)
            #expect(coloured.ok, "\(coloured.error ?? "")\n\(coloured.shown())")
            #expect(!(coloured.styled["end"] ?? []).isEmpty, "\(coloured.styled)")
        }
    }

    /// A row whose record failed shows the whole message, wrapped as a plot is, so the advice that
    /// ends it shows at 100 columns (it was one line cut at the screen's edge, with no `…`).
    @Test func aFailedPlotShowsItsAdvice() async throws {
        try await withTemporaryFolder { folder in
            let byID: @Sendable (ServerRequest) -> Bool = { $0.queryItems.contains { $0.name == "i" } }
            let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.always(.serviceUnavailable, where: byID))
            defer { server.shutdown() }
            let outcome = try await TerminalDriver.run(["--base-url", server.baseURL.absoluteString], directory: folder,
                                                       environment: ["OMDB_API_KEY": FakeOMDbServer.validKey], columns: 100, rows: 45, steps: [
                .wait("movies>"), .send("alien" + Keys.enter), .wait("Showing 5 of 5"), .snapshot("end"), .send("quit" + Keys.enter), .exit(),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            #expect(outcome.snapshot("end").count(where: { $0.hasSuffix("try again in a moment.") }) == 5, "\(outcome.shown("end"))")
        }
    }

    /// The title shown on a live row (`✓   3. The Toxic… (1989)  movie  tt…`), and its width.
    private func shownTitle(_ line: String) -> String? {
        line.firstMatch(of: #/\d\. (.*) \(\d{4}(?:–\d{4})?\)  /#).map { String($0.1) }
    }

    /// 60 columns, 24 rows, posters on: the tightest layout (the poster's state on the title line).
    /// Every title keeps 20 columns or all of itself; the poster's state is a symbol where the
    /// words would have cut the title (before: `The Toxic… (1989)  movie  tt0098502  · poster saved`).
    @Test func sixtyColumnsKeepTwentyForEachTitle() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(["--offline", "--posters", "p"], directory: folder, columns: 60, rows: 24, steps: [
                .wait("movies>"), .send("toxic" + Keys.enter), .wait("✓ plots 10/10"), .snapshot("end"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let end = outcome.snapshot("end")
            let titles = end.filter { $0.hasPrefix("✓ ") && $0.contains(". ") }
            #expect(titles.count == 10, "\(outcome.shown("end"))")
            for line in titles {
                #expect(line.count < 60, "\(line)")
                let shown = try #require(shownTitle(line), "\(line)")
                #expect(!shown.hasSuffix("…") || shown.count >= 20, "\(line)")
                #expect(line.range(of: #"\(\d{4}(–\d{4})?\)  (movie|series)  tt\d{7}"#, options: .regularExpression) != nil, "\(line)")
                // The poster's state, on the title line, as words or a symbol.
                #expect(["  ▣", "  □", "  · poster saved", "  · no poster"].contains { line.hasSuffix($0) }, "\(line)")
            }
            // Before: `The Toxic… (1989)  movie  tt0098502  · poster saved`.
            let long = try #require(titles.first { $0.contains("tt0098502") })
            #expect(long.contains("4. The Toxic Avenger Part"), "\(long)")
        }
    }

    /// `plot full`: each row shows its whole plot, on as many lines as it takes. Before, the rows
    /// were cut at two lines whatever the setting.
    @Test func plotFullShowsTheWholePlotInTheRows() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(["--offline"], directory: folder, columns: 80, rows: 60, steps: [
                .wait("movies>"), .send("plot full" + Keys.enter), .send("toxic" + Keys.enter), .wait("✓ plots 10/10"), .snapshot("end"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let end = outcome.snapshot("end")
            let start = try #require(end.firstIndex { $0.contains("1. The Toxic Avenger (1984)") }, "\(outcome.shown("end"))")
            let plot = end[(start + 1)...].prefix { $0.hasPrefix("       ") }.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(plot.hasPrefix("Melvin is the favourite target"), "\(plot)")
            #expect(plot.hasSuffix("mayor."), "the whole plot, not cut:\n\(outcome.shown("end"))")
            #expect(!plot.contains("…"), "\(plot)")
            #expect(end[(start + 1)...].prefix { $0.hasPrefix("       ") }.count > 2, "\(outcome.shown("end"))")
            #expect(rowNumbers(end) == Array(1...10), "\(outcome.shown("end"))")
        }
    }

    /// A page taller than the screen (printed row by row) and a page that fits (drawn live), at
    /// 200 columns where a plot takes one line: no empty line between a plot and its poster's
    /// state (before, each row had one). At 50 columns a saved poster's path cut to fit shows
    /// `…` where it was cut and keeps its end (before: `poster saved: shots/Toxic (2008) [tt045356`).
    @Test func rowsHaveNoEmptyLineAndACutPathSaysSo() async throws {
        try await withTemporaryFolder { folder in
            var pages: [String: [String]] = [:]
            for (name, columns, rows, search) in [("tall", 200, 15, "toxic"), ("live", 200, 30, "alien"), ("narrow", 50, 60, "toxic")] {
                let outcome = try await TerminalDriver.run(["--offline", "--posters", "shots"], directory: folder, columns: columns, rows: rows, steps: [
                    .wait("movies>"), .send(search + Keys.enter), .wait("Showing "), .snapshot("end"),
                ])
                #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
                let end = outcome.snapshot("end")
                let top = end.firstIndex { $0.hasPrefix("✓ ") && $0.contains(". ") } ?? 0
                pages[name] = Array(end[top...].prefix { !$0.hasPrefix("✓ plots") })
            }
            for name in ["tall", "live"] {
                let page = pages[name] ?? []
                #expect(page.count > 10 && !page.contains(""), "\(name):\n\(page.joined(separator: "\n"))")
            }
            let saved = (pages["narrow"] ?? []).filter { $0.contains("poster ") && $0.contains("saved: ") }
            #expect(saved.count >= 5, "\(pages["narrow"] ?? [])")
            for line in saved {
                #expect(line.count < 50 && line.contains(": …") && line.range(of: #"\.(jpg|png|gif|webp)$"#, options: .regularExpression) != nil, "\(line)")
            }
        }
    }
}
