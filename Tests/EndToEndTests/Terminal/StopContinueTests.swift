import FakeOMDb
import Foundation
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-Z and `fg` (SIGSTOP, SIGCONT) while a page is on its way: the time the process was
/// stopped is not charged to the request's deadline, so the page that came meanwhile is read, not
/// asked for again. (Starts `movies` and a fake server.)
@Suite struct StopContinueTests {
    @Test func aStopLongerThanTheTimeoutFailsNoRequest() async throws {
        try await withTemporaryFolder { folder in
            let child = Mutex<pid_t>(0)
            let stopped = Latch()
            // The search stops the process from the server's own thread (a test's task may run a
            // second later on a loaded machine), once the transport sleeps on it, as it does while
            // it waits on a server. Then its headers go out, and its body waits for the gate.
            let gate = ServerGate()
            let held = HeldAnswers(until: gate) { request in request.queryItems.contains { $0.name == "s" } }
            let server = try FakeOMDbServer(catalogue: catalogue, holding: held) { request in
                guard request.queryItems.contains(where: { $0.name == "s" }), !stopped.isOpen else { return nil }
                let until = ContinuousClock.now + .seconds(30)
                while ContinuousClock.now < until, !Self.transportSleeps(child.withLock { $0 }) { usleep(1_000) }
                // Never kill(0, …): that would stop the test's own process group.
                if case let pid = child.withLock({ $0 }), pid > 0 { kill(pid, SIGSTOP) }
                stopped.open()
                return nil
            }
            defer { server.shutdown() }
            let process = try MoviesProcess(["search", "toxic", "--timeout", "2", "--base-url", server.baseURL.absoluteString],
                                            directory: folder, environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
            let pid = process.process.processIdentifier
            child.withLock { $0 = pid }
            try await stopped.wait(for: "the process to be stopped")
            // Stopped for longer than the request's whole deadline (a wait, not a measure: what is
            // checked is what was asked for, and how it ended).
            try await Task.sleep(for: .milliseconds(2_500))
            // The whole page is written while the process cannot read it.
            gate.open()
            try await waitUntil("the page to be written") { server.answersWritten == 1 }
            kill(pid, SIGCONT)
            let outcome = await process.finish()
            let api = server.apiRequests.map(\.target)
            #expect(outcome.status == 0 && Set(api).count == api.count, "\(outcome.stderr)\n\(api)")
        }
    }

    /// The state letter of a process or thread (`R`, `S`, `T`…) from its `stat` in /proc.
    static func state(of folder: String) -> String? {
        guard let stat = try? String(contentsOfFile: folder + "/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        return stat[end...].split(separator: " ").dropFirst().first.map(String.init)
    }

    /// The transport's thread of `pid` (`movies.curl`) is asleep in `epoll_wait`.
    static func transportSleeps(_ pid: pid_t) -> Bool {
        guard pid > 0 else { return false }
        let tasks = "/proc/\(pid)/task"
        for task in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            let folder = "\(tasks)/\(task)"
            guard (try? String(contentsOfFile: folder + "/comm", encoding: .utf8))?.hasPrefix("movies.curl") == true else { continue }
            let wchan = (try? String(contentsOfFile: folder + "/wchan", encoding: .utf8)) ?? ""
            return wchan.contains("epoll") || (wchan == "0" && state(of: folder) == "S")
        }
        return false
    }
}
