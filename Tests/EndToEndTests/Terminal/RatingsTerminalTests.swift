import Foundation
import Testing
import TestSupport

/// Issue 18: a live row's title line gains its ratings when its record arrives, on a real
/// pseudo-terminal rendered by pyte; on a narrow one they give way before the ID.
@Suite(.serialized, .enabled(if: TerminalDriver.unavailable == nil, "needs python3 with pyte (see .ci/run)"))
struct RatingsTerminalTests {
    private func rowLine(_ lines: [String], _ id: String) -> String? {
        lines.first { $0.contains(id) && $0.contains(". ") }
    }

    @Test func aRowShowsItsRatingsAfterItsID() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(["--offline"], directory: folder, columns: 100, rows: 45, steps: [
                .wait("movies>"), .send("star wars" + Keys.enter), .wait("✓ plots 10/10"), .snapshot("end"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let first = try #require(rowLine(outcome.snapshot("end"), "tt0076759"), "\(outcome.shown("end"))")
            #expect(first.hasPrefix("✓   1. Star Wars: Episode IV - A New Hope (1977)  movie  tt0076759  IMDb 8.6 · RT 93% · MC 90"), "\(first)")
            // A row whose record has no ratings stays as it was.
            let phantom = try #require(rowLine(outcome.snapshot("end"), "tt0120915"))
            #expect(phantom.hasSuffix("(1999)  movie  tt0120915"), "\(phantom)")
        }
    }

    @Test(arguments: [(80, "tt0076759  IMDb 8.6"), (64, "tt0076759  IMDb 8.6"), (50, "tt0076759")])
    func onANarrowScreenTheRatingsGoBeforeTheID(columns: Int, ending: String) async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await TerminalDriver.run(["--offline"], directory: folder, columns: columns, rows: 45, steps: [
                .wait("movies>"), .send("star wars" + Keys.enter), .wait("✓ plots 10/10"), .snapshot("end"),
            ])
            #expect(outcome.ok, "\(outcome.error ?? "")\n\(outcome.shown())")
            let first = try #require(rowLine(outcome.snapshot("end"), "tt0076759"), "\(outcome.shown("end"))")
            #expect(first.hasSuffix("(1977)  movie  " + ending), "\(first)")
            #expect(first.count < columns, "\(first)")
            // At 80 columns the whole title stays: the ratings that would cut it go first.
            if columns == 80 { #expect(first.contains("Star Wars: Episode IV - A New Hope (1977)"), "\(first)") }
        }
    }
}
