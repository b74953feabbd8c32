import Foundation

/// `movies-bench --network tls`: the TLS + HTTP/2 lab (issue 15). Each `movies` given runs every
/// case in turn, run after run, so a side-by-side shares the machine's moods; the Python client
/// does the same page in the same run.
struct LabBench {
    let options: BenchOptions
    /// The `movies` measured, with the names the table gives them.
    let subjects: [(name: String, bench: Workbench)]

    /// `Tests/Lab/omdb_lab.py` of this checkout: from the working directory, else beside the
    /// sources this bench was built from.
    static func script(_ given: String?) throws -> URL {
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Tests/Lab/omdb_lab.py")]
        if let given { candidates = [URL(fileURLWithPath: given)] }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Lab/omdb_lab.py"))
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw BenchError("no Tests/Lab/omdb_lab.py: run from the repository, or pass --lab-script PATH")
        }
        return found.standardizedFileURL
    }

    /// Names for the table: the file names, or `baseline` and `measured` when they are alike.
    static func names(movies: String, baseline: String?) -> [(String, String)] {
        guard let baseline else { return [(URL(fileURLWithPath: movies).lastPathComponent, movies)] }
        let (a, b) = (URL(fileURLWithPath: baseline).lastPathComponent, URL(fileURLWithPath: movies).lastPathComponent)
        return a == b ? [("baseline", baseline), ("measured", movies)] : [(a, baseline), (b, movies)]
    }

    /// The name of the floor's rows.
    static let floor = "floor (libcurl from C)"

    /// Tests/Lab/lab_floor.c built with the product's libcurl loader.
    private func floorClient() throws -> String {
        try subjects[0].bench.compiled("lab_floor", from: ["Tests/Lab/lab_floor.c", "Sources/CCurl/ccurl.c"],
                                       flags: ["-O2", "-I", Workbench.repository.appendingPathComponent("Sources/CCurl/include").path],
                                       libraries: ["-ldl", "-lpthread"])
    }

    func run() throws {
        let root = subjects[0].bench.root
        let script = try Self.script(options.labScript)
        let repository = script.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let tools = try PythonTools.prepare(repository: repository, log: root.appendingPathComponent("pip.log").path)
        let lab = try TLSLab(script: script.path, python: tools.python, pythonPath: tools.path, latency: options.latency,
                             log: root.appendingPathComponent("lab.log").path)
        defer { lab.stop() }
        let certificates = root.appendingPathComponent("lab-ssl-certs")
        try? FileManager.default.removeItem(at: certificates)
        try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
        let trust = LabTrust(bundle: lab.ready.ca, labCA: lab.ready.labCa, folder: certificates)
        let runs = options.runs ?? 5
        print("movies-bench --network tls: R = \(options.latency) ms, \(runs) runs per case; API \(lab.ready.api), posters \(lab.ready.posters)")
        print(trust.description)
        func wanted(_ name: String) -> Bool { options.only?.contains(name) ?? true }
        // The floor runs every case beside the movies measured, as one more client.
        let subjects = wanted("floor") ? self.subjects + [(name: Self.floor, bench: try Workbench(movies: try floorClient(), latency: .milliseconds(options.latency)))]
            : self.subjects

        var oneShotFirst = [[Measurement]](repeating: [], count: subjects.count)
        var oneShotReturning = oneShotFirst
        var prompt = [[[Measurement]]](repeating: [[], [], [], []], count: subjects.count)
        var python: [Measurement] = []
        let started = ContinuousClock.now
        for run in 1...runs {
            for (index, subject) in subjects.enumerated() {
                // A first-ever run leaves its state; the returning run and the prompt start from it.
                let state = subject.bench.freshFolder("state")
                defer { try? FileManager.default.removeItem(at: state) }
                if wanted("oneshot") {
                    oneShotFirst[index].append(try subject.bench.labOneShot(lab, trust: trust, state: state))
                    oneShotReturning[index].append(try subject.bench.labOneShot(lab, trust: trust, state: state))
                }
                if wanted("prompt") {
                    for (step, measurement) in try subject.bench.labPrompt(lab, trust: trust, state: state).enumerated() {
                        prompt[index][step].append(measurement)
                    }
                }
            }
            if wanted("python"), tools.client { python.append(try subjects[0].bench.labPythonClient(lab)) }
            print("  done: run \(run) of \(runs)")
        }

        let report = LabReport(latency: Double(options.latency), runs: runs, floor: wanted("floor") ? Self.floor : nil)
        for (index, subject) in subjects.enumerated() where wanted("oneshot") {
            report.add("one-shot page, returning (posters host known)", subject.name, target: "≤ 4.4 R", oneShotReturning[index])
        }
        if !python.isEmpty { report.add("one-shot page, returning (posters host known)", "python (httpx, HTTP/2)", target: "—", python) }
        for (index, subject) in subjects.enumerated() where wanted("oneshot") {
            report.add("one-shot page, first-ever (empty state)", subject.name, target: "≤ 6.6 R", oneShotFirst[index])
        }
        let steps = [("prompt: first search, typed 1 s after start", "≤ 2.2 R"), ("prompt: second search", "≤ 2.2 R"),
                     ("prompt: more", "≤ 1.15 R"), ("prompt session, whole process", "≤ 1 conn. per host")]
        for (step, (name, target)) in steps.enumerated() where wanted("prompt") {
            for (index, subject) in subjects.enumerated() {
                // The whole session is mostly the bench's own pauses: no ratio to the floor's.
                report.add(name, subject.name, target: target, prompt[index][step], comparable: step < 3)
            }
        }
        report.notes.append("Targets (issue 22): one-shot CPU ≤ 0.08 s; at most one TCP connection and one TLS handshake per host per process.")
        report.notes.append("Lab: TLS 1.3, ALPN h2 and http/1.1, two hosts (\(lab.ready.api), \(lab.ready.posters)), each behind a proxy "
            + "delivering every chunk R/2 late each way and a new connection's first flight one R later; servers answer at once; "
            + "posters \(lab.ready.posterBytes) bytes; the lab CA is trusted as one of the system's (see below). Python \(lab.ready.python), \(lab.ready.openssl).")
        if !python.isEmpty {
            report.notes.append("Python client: python3 \(script.lastPathComponent) --python-client, start to exit (interpreter and httpx import included).")
        }
        report.notes.append(trust.description + ".")
        for subject in subjects where subject.name != Self.floor { report.notes.append("\(subject.name): \(describe(subject.bench.movies))") }
        if wanted("floor") {
            report.notes.append("\(Self.floor): Tests/Lab/lab_floor.c, built with cc: libcurl driven directly from C by the product's loader "
                + "(Sources/CCurl), one thread, nothing but the page's requests, with what costs wall time that movies promises kept "
                + "(one HTTP/2 connection per host, the posters host opened behind the search when known, each poster fsynced, renamed "
                + "and its folder fsynced before the page is done, the next page asked before `more`). vs floor = complete ÷ the floor's.")
        }
        print(report.table())
        print("(whole bench: \(Int((ContinuousClock.now - started).milliseconds / 1000)) s)")
    }
}
