#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The cases of `--network tls`, on the same `movies` runs as the plain bench: first row and
/// complete keep their meaning (a `Results for` line, then the exit or the `Showing` line).
extension Workbench {
    /// The second search at the prompt: titles that share nothing with ``query``'s.
    static let secondQuery = "sequel"
    /// A person reading the page before typing again.
    static let readingPause: Duration = .seconds(1)

    /// `movies` against the lab, its state (where a transport may remember hosts) in `state`.
    private func spawn(_ lab: TLSLab, trust: LabTrust, state: URL, _ arguments: [String], posters: URL) throws -> Child {
        let (executable, wrapped) = trust.command(movies, arguments + common(baseURL: lab.apiURL, key: lab.ready.key, posters: posters, concurrency: nil))
        let environment = environment(adding: trust.environment.merging(["XDG_STATE_HOME": state.path,
                                                                          "XDG_CACHE_HOME": state.appendingPathComponent("cache").path]) { $1 })
        return try Child(executable, wrapped, environment: environment, stderrFile: root.appendingPathComponent("stderr.log").path)
    }

    /// The lab's late events (a close, a handshake's last flight) land within R.
    private func settle() { usleep(UInt32(latency.milliseconds * 1000)) }

    /// `movies search bench`, start to exit: a first-ever run when `state` is empty, a returning
    /// user's when it holds what an earlier run left.
    func labOneShot(_ lab: TLSLab, trust: LabTrust, state: URL) throws -> Measurement {
        try lab.reset()
        let posters = freshFolder("posters")
        defer { try? FileManager.default.removeItem(at: posters) }
        let child = try spawn(lab, trust: trust, state: state, ["search", Self.query], posters: posters)
        let first = child.waitForLine { $0.hasPrefix("Results for") }
        let exit = child.finish()
        guard exit.status == 0, let first else { throw BenchError("movies search failed in the lab (status \(exit.status)): see \(root.path)/stderr.log") }
        settle()
        let counts = try lab.stats()
        return Measurement(firstRow: (first.at - child.started).milliseconds, complete: exit.milliseconds,
                           apiRequests: counts.api.requests, posterRequests: counts.posters.requests, peakInFlight: 0,
                           peakMemory: exit.peakMemory, cpu: exit.cpuSeconds, lab: counts)
    }

    /// One prompt session: `bench` typed a second after start, `sequel` after a reading pause,
    /// then `more`; each timed from its Enter. CPU and counters of a step run from the moment its
    /// line is typed to the next one (the first from the start, the last to the exit). The last
    /// measurement is the whole process.
    func labPrompt(_ lab: TLSLab, trust: LabTrust, state: URL) throws -> [Measurement] {
        try lab.reset()
        let posters = freshFolder("posters")
        defer { try? FileManager.default.removeItem(at: posters) }
        let child = try spawn(lab, trust: trust, state: state, [], posters: posters)
        var steps: [Measurement] = []
        var before = (cpu: 0.0, counts: LabCounts())
        var skip = 0
        func close(_ step: inout Measurement, cpu: Double, counts: LabCounts) {
            step.cpu = cpu - before.cpu
            step.lab = counts - before.counts
            step.apiRequests = step.lab?.api.requests ?? 0
            step.posterRequests = step.lab?.posters.requests ?? 0
            before = (cpu, counts)
        }
        for line in [Self.query, Self.secondQuery, "more"] {
            let due = steps.isEmpty ? child.started + .seconds(1) : ContinuousClock.now + Self.readingPause
            let wait = due - ContinuousClock.now
            if wait > .zero { usleep(UInt32(wait.milliseconds * 1000)) }
            if var last = steps.popLast() {
                close(&last, cpu: child.cpuSecondsSoFar ?? before.cpu, counts: try lab.stats())
                steps.append(last)
            }
            let enter = ContinuousClock.now
            child.send(line)
            let first = child.waitForLine(after: skip) { $0.hasPrefix("Results for") }
            guard let done = child.waitForLine(after: skip, where: { $0.hasPrefix("Showing") }), let first else {
                let exit = child.finish()
                throw BenchError("the prompt never completed \(line) in the lab (status \(exit.status)): see \(root.path)/stderr.log")
            }
            skip = done.index + 1
            steps.append(Measurement(firstRow: (first.at - enter).milliseconds, complete: (done.at - enter).milliseconds,
                                     apiRequests: 0, posterRequests: 0, peakInFlight: 0, peakMemory: 0))
        }
        let exit = child.finish()
        settle()
        let counts = try lab.stats()
        var last = steps.removeLast()
        close(&last, cpu: exit.cpuSeconds, counts: counts)
        steps.append(last)
        let whole = Measurement(firstRow: .nan, complete: exit.milliseconds, apiRequests: counts.api.requests,
                                posterRequests: counts.posters.requests, peakInFlight: 0, peakMemory: exit.peakMemory,
                                cpu: exit.cpuSeconds, lab: counts)
        return steps.map { var step = $0; step.peakMemory = exit.peakMemory; return step } + [whole]
    }

    /// The Python client doing the same page (search, then 10 records and 10 posters at once),
    /// start to exit; `firstRow` holds its own in-process time for the page, imports excluded.
    func labPythonClient(_ lab: TLSLab) throws -> Measurement {
        try lab.reset()
        var environment = TLSLab.environment(pythonPath: lab.pythonPath)
        environment["SSL_CERT_FILE"] = lab.ready.ca
        let child = try Child(lab.python, [lab.script, "--python-client", "--api", lab.ready.api, "--key", lab.ready.key, "--query", Self.query],
                              environment: environment, stderrFile: root.appendingPathComponent("python-client.log").path)
        let line = child.waitForLine { $0.hasPrefix("{") }
        let exit = child.finish()
        struct Answer: Decodable { let rows: Int; let pageMs: Double }
        guard exit.status == 0, let line,
              let answer = try? TLSLab.decoder.decode(Answer.self, from: Data(child.output[line.index].utf8)), answer.rows > 0 else {
            throw BenchError("the Python client failed (status \(exit.status)): see \(root.path)/python-client.log")
        }
        settle()
        let counts = try lab.stats()
        return Measurement(firstRow: answer.pageMs, complete: exit.milliseconds, apiRequests: counts.api.requests,
                           posterRequests: counts.posters.requests, peakInFlight: 0, peakMemory: exit.peakMemory,
                           cpu: exit.cpuSeconds, lab: counts)
    }
}
