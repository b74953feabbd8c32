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

/// Ctrl-Z and `fg` (SIGSTOP, SIGCONT) in the middle of a page: the answers that came while the
/// process was stopped are read, not asked for again. A deadline is charged with the time the
/// transport ran, not with the wall clock's.
@Suite struct StopContinueTests {
    @Test func answersThatArriveWhileStoppedAreReadNotAskedForAgain() async throws {
        try await withTemporaryFolder { folder in
            let child = Mutex<pid_t>(0)
            let stopped = Latch()
            // The first record asked for stops the process, from the server's own thread (so it
            // does not wait for the test's task, which a loaded machine may run seconds later),
            // then every answer goes out while the process cannot read it.
            let server = try FakeOMDbServer(catalogue: catalogue) { request in
                guard request.target.contains("i=tt") else { return nil }
                // Set right after the spawn; a search's round trip came before this request.
                let until = ContinuousClock.now + .seconds(30)
                while child.withLock({ $0 }) == 0, ContinuousClock.now < until { usleep(1_000) }
                let pid = child.withLock { $0 }
                if pid > 0, !stopped.isOpen {
                    kill(pid, SIGSTOP)
                    stopped.open()
                }
                return nil
            }
            defer { server.shutdown() }
            let process = try MoviesProcess(["search", "toxic", "--timeout", "2", "--base-url", server.baseURL.absoluteString],
                                            directory: folder, environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
            child.withLock { $0 = process.process.processIdentifier }
            try await stopped.wait(for: "the process to be stopped")
            // Every answer written to its socket while the process cannot read it.
            let clock = ContinuousClock()
            let written = clock.now + .seconds(30)
            while server.requestsInFlight > 0, clock.now < written { try await Task.sleep(for: .milliseconds(20)) }
            // Stopped for longer than the 2 s each try may take (a wait, not a measure: what is
            // checked is what was asked for).
            try await Task.sleep(for: .seconds(4))
            kill(process.process.processIdentifier, SIGCONT)
            let outcome = await process.finish()
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let api = server.apiRequests.map(\.target)
            #expect(Set(api).count == api.count, "asked again after the stop: \(api)")
            let searchAndTenRecords: Int = 1 + 10   // summed outside #expect: slow to type-check inside
            #expect(api.count == searchAndTenRecords)
            #expect(!outcome.stderr.contains("within"))
        }
    }
}
