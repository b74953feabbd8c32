import FakeOMDb
import Foundation
import OMDbCatalogue
import OMDbKit
import Synchronization
import Testing
import TestSupport

/// The daily limit as the built `movies` keeps it: no request past it, whatever the path, and
/// the pages shown up to it in order.
@Suite struct DailyLimitEndToEndTests {
    /// `--pages` with 25 requests left: 25 requests sent, not one more; the ranks that got their
    /// record printed 1…22 in order, rank 1 among them although it answered last (after the limit
    /// was met on page 3); one line on stderr; the count reads the limit.
    @Test func pagesStopAtTheDailyLimitWithRanksInOrder() async throws {
        try await withTemporaryFolder { folder in
            let catalogue = try Catalogue.synthetic(titles: 60, in: folder.appendingPathComponent("catalogue"))
            // Rank 1's record is held until every other request allowed has arrived.
            let othersArrived = Latch()
            let seen = Mutex(0)
            let server = try FakeOMDbServer(catalogue: catalogue) { request in
                guard FaultPlan.api(request), request.method != "HEAD" else { return nil }
                if seen.withLock({ $0 += 1; return $0 }) >= 25 { othersArrived.open() }
                if request.queryItems.contains(where: { $0.name == "i" && $0.value == "tt0100001" }) { othersArrived.wait(timeout: .seconds(30)) }
                return nil
            }
            defer { server.shutdown() }
            // Four pages' rows load at once (a window of 80 requests): page 3 meets the limit while rank 1 waits.
            let outcome = try await SpendingEndToEndTests.run(["search", "bench", "--pages", "6", "--json", "--daily-limit", "25",
                                                              "--concurrency", "60"], server: server, in: folder)
            #expect(server.apiRequests.count == 25, "\(server.apiRequests.map(\.target))")
            #expect(!othersArrived.timedOut)
            let ranks = outcome.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["rank"] as? Int
            }
            #expect(ranks == Array(1...22))
            #expect(outcome.status == 1)
            let stderr = outcome.stderr.split(separator: "\n")
            #expect(stderr.count(where: { $0.contains("Stopped at the key's daily limit, 25 requests") }) == 1, "\(outcome.stderr)")
            #expect(stderr.count == 2, "the limit, and the day's 90 % warning: \(outcome.stderr)")
            let quota = try await SpendingEndToEndTests.run(["quota", "--daily-limit", "25"], server: server, in: folder)
            #expect(quota.stdout.hasPrefix("requests today: 25 of 25 (UTC day)"), "\(quota.stdout)")
        }
    }

    /// A state folder that cannot be written (a read-only disk): the day's count is kept in memory
    /// and holds the limit. From 900 of 1,000, a run that would send 132 requests sends 100, says
    /// once that the count is not kept, and fails; from 995, each run sends at most 5.
    @Test(.enabled(if: ReadOnlyFolder.available, "needs bind mounts (root with CAP_SYS_ADMIN), as CI has"))
    func aCountThatCannotBeWrittenStillHoldsTheLimit() async throws {
        try await withTemporaryFolder { folder in
            let catalogue = try Catalogue.synthetic(titles: 130, in: folder.appendingPathComponent("catalogue"))
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let ledger = QuotaLedger(folder: folder.appendingPathComponent("xdg-state/movies"), apiKey: APIKey(FakeOMDbServer.validKey))
            let day = Date().ISO8601Format(.iso8601.year().month().day())
            try FileManager.default.createDirectory(at: ledger.folder, withIntermediateDirectories: true)
            try Data("\(day) 900 0\n".utf8).write(to: ledger.file)
            let run = { (pages: String) in
                try await SpendingEndToEndTests.run(["search", "bench", "--pages", pages, "--no-cache", "--json"], server: server, in: folder)
            }
            let sent = try await ReadOnlyFolder.with(ledger.folder) { () -> [Int] in
                let first = try await run("12")
                #expect(first.status == 1 && first.stderr.components(separatedBy: "cannot be written").count == 2, "\(first.stderr)")
                return [server.apiRequests.count]
            }
            try Data("\(day) 995 0\n".utf8).write(to: ledger.file)
            let later = try await ReadOnlyFolder.with(ledger.folder) { () -> [Int] in
                var sent: [Int] = []
                for _ in 0..<2 {
                    let before = server.apiRequests.count
                    let outcome = try await run("2")
                    #expect(outcome.status == 1, "\(outcome.stderr)")
                    sent.append(server.apiRequests.count - before)
                }
                return sent
            }
            #expect(sent + later == [100, 5, 5])
        }
    }

    /// At the limit, a new search is not sent at all: the same line, and no request.
    @Test func aSearchAtTheLimitSendsNothing() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let first = try await SpendingEndToEndTests.run(["search", "toxic", "--daily-limit", "11"], server: server, in: folder)
            #expect(first.status == 0)
            #expect(server.apiRequests.count == 11)
            let second = try await SpendingEndToEndTests.run(["search", "alien", "--daily-limit", "11"], server: server, in: folder)
            #expect(second.status == 1)
            #expect(second.stderr.contains("Stopped at the key's daily limit, 11 requests"), "\(second.stderr)")
            #expect(server.apiRequests.count == 11)
        }
    }

    /// Every command that asks OMDb keeps to the day's count: at the limit, none sends a request.
    /// Before, `movies episodes` was given no count at all (nor the disk cache) and asked anyway.
    @Test(arguments: [["search", "alien"], ["show", "tt0098936"], ["episodes", "tt0098936"]])
    func aCommandAtTheLimitSendsNothing(command: [String]) async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let ledger = QuotaLedger(folder: folder.appendingPathComponent("xdg-state/movies"), apiKey: APIKey(FakeOMDbServer.validKey))
            try FileManager.default.createDirectory(at: ledger.folder, withIntermediateDirectories: true)
            try Data("\(Date().ISO8601Format(.iso8601.year().month().day())) 5 0\n".utf8).write(to: ledger.file)
            let outcome = try await SpendingEndToEndTests.run(command + ["--daily-limit", "5"], server: server, in: folder)
            #expect(outcome.status == 1 && outcome.stderr.contains("Stopped at the key's daily limit, 5 requests"), "\(outcome.stderr)")
            #expect(server.apiRequests.isEmpty, "\(server.apiRequests.map(\.target))")
        }
    }

    /// Page 1 takes the day's last places, and page 2's search is refused: stdout holds the JSON
    /// lines of page 1 and nothing else. Before, it ended with `Use --pages 2 to see more.`, plain
    /// text on the JSON lines' stdout, and advice that no run could follow today (hostile pass,
    /// stop 32).
    @Test func aSearchRefusedAtTheLimitLeavesOnlyJSONOnStdout() async throws {
        try await withTemporaryFolder { folder in
            let catalogue = try Catalogue.synthetic(titles: 60, in: folder.appendingPathComponent("catalogue"))
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await SpendingEndToEndTests.run(["search", "bench", "--pages", "3", "--json", "--daily-limit", "11"], server: server, in: folder)
            let lines = outcome.stdout.split(separator: "\n")
            #expect(lines.count == 10, "\(outcome.stdout)")
            #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil }, "\(outcome.stdout)")
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains("Stopped at the key's daily limit, 11 requests"), "\(outcome.stderr)")
            #expect(server.apiRequests.count == 11)
        }
    }
}
