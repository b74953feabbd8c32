import FakeOMDb
import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `Tests/TerminalDriver/drive.py`: the built `movies` on a pseudo-terminal, its output
/// rendered by pyte (a VT100 screen), so tests assert the screen a person sees.
struct TerminalDriver {
    /// A step of the script (see drive.py).
    enum Step {
        case send(String)
        /// Until the screen shows the text, on `times` lines (a line drawn again).
        case wait(String, timeout: Int = 15, times: Int = 1)
        /// Until a line of the screen is the text, all of it (such as a prompt drawn afresh).
        case waitLine(String, timeout: Int = 15)
        case waitGone(String)
        /// `reflow`: the terminal rewraps lines wider than the new width (VTE, iTerm2, kitty, tmux), else it cuts them (xterm).
        case resize(columns: Int, rows: Int, reflow: Bool = false)
        /// To the program, or with `job`, to its child (the job of a shell run as the program).
        case signal(String, job: Bool = false)
        case snapshot(String)
        case stty(String)
        case stopped(timeout: Int = 15, job: Bool = false)
        case exit(timeout: Int = 15)
        /// Creates the file: the test waits for it (``waitForFile(_:)``) to act at this point of the script.
        case touch(URL)

        var json: [String: Any] {
            switch self {
            case .send(let text): ["send": text]
            case .wait(let text, let timeout, let times): ["wait": text, "timeout": timeout, "times": times]
            case .waitLine(let text, let timeout): ["waitLine": text, "timeout": timeout]
            case .waitGone(let text): ["waitGone": text]
            case .resize(let columns, let rows, let reflow): ["resize": [columns, rows], "reflow": reflow]
            case .signal(let name, let job): ["signal": name, "job": job]
            case .snapshot(let name): ["snapshot": name]
            case .stty(let name): ["stty": name]
            case .stopped(let timeout, let job): ["stopped": timeout, "job": job]
            case .exit(let timeout): ["exit": timeout]
            case .touch(let file): ["touch": file.path]
            }
        }
    }

    struct Outcome {
        let ok: Bool
        let error: String?
        let snapshots: [String: [String]]
        /// For each snapshot, the numbers (from 0) of its lines with a cell in colour, bold or reverse.
        var styled: [String: [Int]] = [:]
        let stty: [String: String]
        let status: Int?
        /// The screen at the end.
        let screen: [String]
        /// The cursor was left hidden at the end.
        var cursorHidden = false

        func snapshot(_ name: String) -> [String] { snapshots[name] ?? [] }
        /// The screen as text, for failure messages.
        func shown(_ name: String? = nil) -> String { (name.map(snapshot) ?? screen).joined(separator: "\n") }
    }

    /// Returns once the driver has reached a ``Step/touch(_:)`` of `file`: `file` is made a FIFO,
    /// whose reading end opens when the driver's touch opens its writing end (an event).
    /// - Throws: ``LatchTimeout`` when it has not within `timeout`: longer than the driver's own
    ///   waits before the touch can take together, so that a slow driver is never failed here.
    static func waitForFile(_ file: URL, timeout: Duration = .seconds(120)) async throws {
        guard mkfifo(file.path, 0o600) == 0 else {
            // The driver touched it first (a plain file): the point is reached.
            if errno == EEXIST { return }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let reached = Latch()
        Thread {
            let fd = open(file.path, O_RDONLY)
            if fd >= 0 { close(fd) }
            reached.open()
        }.start()
        do {
            try await reached.wait(for: file.lastPathComponent, timeout: timeout)
        } catch {
            // Let the thread blocked in open go: open the other end here.
            let fd = open(file.path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            throw error
        }
    }

    /// Runs `movies arguments` with a key against a fake OMDb that holds the records (the page stays
    /// live) until the run ends, or until the driver reaches the step `steps` is handed, if it uses it.
    /// A long --timeout: the held records are not given up on and asked again while the test waits.
    static func runHoldingRecords(_ arguments: [String] = [], directory: URL, environment: [String: String] = [:],
                                  columns: Int = 100, rows: Int = 45,
                                  steps: (_ release: Step) -> [Step]) async throws -> (outcome: Outcome, server: FakeOMDbServer) {
        let gate = ServerGate()
        let server = try FakeOMDbServer(catalogue: catalogue, holding: .records(until: gate))
        defer { gate.open(); server.shutdown() }
        let marker = directory.appendingPathComponent("release-\(UUID().uuidString)")
        let script = steps(.touch(marker))
        let released = script.contains { if case .touch(marker) = $0 { true } else { false } }
            ? Task { try await waitForFile(marker); gate.open() } : nil
        let outcome = try await run(["--base-url", server.baseURL.absoluteString, "--timeout", "600"] + arguments, directory: directory,
                                    environment: ["OMDB_API_KEY": FakeOMDbServer.validKey].merging(environment) { _, new in new },
                                    columns: columns, rows: rows, steps: script)
        gate.open()
        try await released?.value
        return (outcome, server)
    }

    static let script = repositoryRoot.appendingPathComponent("Tests/TerminalDriver/drive.py")

    /// Why the pty tests cannot run here (no python3, or no pyte), or nil when they can.
    /// `.ci/run` installs pyte; on a machine without it the tests are skipped, saying why.
    static var unavailable: String? {
        if case .failure(let reason) = python { reason.text } else { nil }
    }

    struct Unavailable: Error { let text: String }

    /// The interpreter that runs the driver, found once: `python3`'s own executable (`sys.executable`),
    /// not the `python3` first on PATH, which under a version manager (pyenv) is a shell script that
    /// costs a quarter of a second a start; and `-S` (no site packages) when pyte is found without
    /// them, as `.ci/run` installs it (on PYTHONPATH): a `.pth` file there may import modules at every
    /// start (this machine's imports certifi). A bare start took 24 ms of CPU instead of 200 ms, and
    /// the six pty suites 17 s of CPU instead of 28.
    static let python: Result<[String], Unavailable> = {
        guard let printed = commandText(["python3", "-c", "import sys; print(sys.executable)"]) else {
            return .failure(Unavailable(text: "python3 was not found"))
        }
        let executable = printed.isEmpty ? "python3" : printed
        for flags in [["-S"], []] where commandOutput([executable] + flags + ["-c", "import pyte"]) != nil {
            return .success([executable] + flags)
        }
        return .failure(Unavailable(text: "python3 cannot import pyte (python3 -m pip install pyte==0.8.2 wcwidth==0.2.13)"))
    }()

    /// Runs `movies arguments` on a `columns` × `rows` terminal in `directory`, following `steps`.
    /// The environment holds only what is given, PATH, HOME (the directory) and the catalogue.
    /// The driver runs on a thread of its own: waiting for it must not hold a thread of the
    /// cooperative pool (two on two cores), which the other tests need meanwhile. `program`, when
    /// given, runs instead of `movies` (a shell that the steps start it from).
    static func run(_ arguments: [String] = [], program: [String]? = nil, directory: URL, environment: [String: String] = [:],
                    columns: Int = 100, rows: Int = 30, steps: [Step]) async throws -> Outcome {
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory.path,
                   "MOVIES_CATALOGUE": MoviesProcess.catalogueFolder.path,
                   "XDG_STATE_HOME": directory.appendingPathComponent("state").path]
        env.merge(environment) { _, new in new }
        let spec: [String: Any] = ["argv": program ?? [MoviesProcess.executable.path] + arguments, "cwd": directory.path, "env": env,
                                   "size": [columns, rows], "steps": steps.map(\.json)]
        let specFile = directory.appendingPathComponent("pty-spec-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specFile)
        defer { try? FileManager.default.removeItem(at: specFile) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = try python.get() + [script.path, specFile.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = await withCheckedContinuation { continuation in
            Thread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: data)
            }.start()
        }
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return Outcome(ok: false, error: "the driver printed no result", snapshots: [:], stty: [:], status: nil, screen: [])
        }
        return Outcome(ok: object["ok"] as? Bool ?? false, error: object["error"] as? String,
                       snapshots: object["snapshots"] as? [String: [String]] ?? [:], styled: object["styled"] as? [String: [Int]] ?? [:],
                       stty: object["stty"] as? [String: String] ?? [:], status: object["status"] as? Int,
                       screen: object["screen"] as? [String] ?? [], cursorHidden: object["cursorHidden"] as? Bool ?? false)
    }
}
