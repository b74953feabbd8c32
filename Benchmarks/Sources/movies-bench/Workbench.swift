#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FakeOMDb
import Foundation
import OMDbKit
import OMDbCatalogue

/// What one run of a case measured.
struct Measurement {
    /// Milliseconds from Enter (spawn, or the `more` line) to the first rows on screen.
    var firstRow: Double
    /// Milliseconds to the page (or every page) complete.
    var complete: Double
    var apiRequests: Int
    var posterRequests: Int
    /// Most requests the fake server was answering at once.
    var peakInFlight: Int
    /// Peak RSS of the `movies` process, bytes.
    var peakMemory: Int
    /// CPU seconds (user + system) of the process, or of the part of a prompt session measured.
    var cpu: Double = 0
    /// With `--network tls`: what the lab's hosts counted.
    var lab: LabCounts? = nil
}

/// The bench's world: a synthetic catalogue of `titles` titles all matching `bench`, the
/// built `movies`, and one fake server per run (so its counts are that run's alone).
struct Workbench {
    static let query = "bench"
    let movies: String
    let latency: Duration
    let root: URL
    let catalogue: Catalogue

    init(movies: String, latency: Duration, titles: Int = 300) throws {
        self.movies = movies
        self.latency = latency
        root = FileManager.default.temporaryDirectory.appendingPathComponent("movies-bench-\(getpid())")
        catalogue = try Catalogue.synthetic(titles: titles, in: root)
    }

    func removeAll() { try? FileManager.default.removeItem(at: root) }

    /// The repository this bench was built from (its `Tests/Lab/`, its `Sources/CCurl/`).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `sources` (paths in ``repository``) compiled with cc into `name` under the bench's root, once.
    func compiled(_ name: String, from sources: [String], flags: [String], libraries: [String]) throws -> String {
        let output = root.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: output) { return output }
        let paths = sources.map { Self.repository.appendingPathComponent($0).path }
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc"] + flags + ["-o", output] + paths + libraries
        try cc.run()
        cc.waitUntilExit()
        guard cc.terminationStatus == 0 else { throw BenchError("could not compile \(paths.joined(separator: " ")) (is cc installed?)") }
        return output
    }

    /// A new empty folder under the bench's root.
    func freshFolder(_ name: String) -> URL {
        let folder = root.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The arguments every run shares: the fake server, the fake key, posters into `posters`.
    func common(_ server: FakeOMDbServer, posters: URL?, concurrency: Int?) -> [String] {
        common(baseURL: server.baseURL, key: FakeOMDbServer.validKey, posters: posters, concurrency: concurrency)
    }

    /// The arguments every run shares, for any OMDb at `baseURL` that accepts `key`.
    func common(baseURL: URL, key: String, posters: URL?, concurrency: Int?) -> [String] {
        var arguments = ["--base-url", baseURL.absoluteString, "--api-key", key]
        if let posters { arguments += ["--posters", posters.path] }
        if let concurrency { arguments += ["--concurrency", String(concurrency)] }
        return arguments
    }

    var environment: [String: String] {
        // No disk cache: every run must ask the fake server, not the answers of the run before.
        ["PATH": "/usr/bin:/bin", "HOME": root.path, "NO_COLOR": "1", "COLUMNS": "80", "MOVIES_CACHE": "off"]
    }

    /// ``environment`` with `extra` added (or replaced).
    func environment(adding extra: [String: String]) -> [String: String] {
        environment.merging(extra) { _, new in new }
    }

    // MARK: Cases

    /// `movies search bench --pages N`: first rows when the first page heading shows, complete at exit.
    func oneShot(pages: Int, concurrency: Int?, posterBytes: Int = 30_000, posters: URL? = nil) throws -> Measurement {
        let server = try FakeOMDbServer(catalogue: catalogue, latency: latency, posterBytes: posterBytes)
        defer { server.shutdown() }
        let folder = posters ?? freshFolder("posters")
        defer { if posters == nil { try? FileManager.default.removeItem(at: folder) } }
        let child = try Child(movies, ["search", Self.query, "--pages", String(pages)] + common(server, posters: folder, concurrency: concurrency),
                              environment: environment, stderrFile: root.appendingPathComponent("stderr.log").path)
        let first = child.waitForLine { $0.hasPrefix("Results for") }
        let exit = child.finish()
        guard exit.status == 0, let first else { throw BenchError("movies search failed (status \(exit.status)): see \(root.path)/stderr.log") }
        return Measurement(firstRow: (first.at - child.started).milliseconds, complete: exit.milliseconds,
                           apiRequests: server.apiRequests.count, posterRequests: server.posterRequests.count,
                           peakInFlight: server.peakRequestsInFlight, peakMemory: exit.peakMemory)
    }

    /// The prompt, as the issue times it: from the Enter after the title to the first rows and to
    /// the page complete. The program has started and waits at the prompt before the line is sent
    /// (a person types after the prompt shows), so its start-up is not counted here.
    func page1AtPrompt(concurrency: Int?) throws -> Measurement {
        try atPrompt(concurrency: concurrency) { child, server in
            usleep(300_000)
            let start = ContinuousClock.now
            child.send(Self.query)
            let first = child.waitForLine { $0.hasPrefix("Results for") }
            let done = child.waitForLine { $0.hasPrefix("Showing") }
            let (api, posters, peak) = (server.apiRequests.count, server.posterRequests.count, server.peakRequestsInFlight)
            let exit = child.finish()
            guard let first, let done else { throw BenchError("the prompt never finished page 1 (status \(exit.status)): see \(root.path)/stderr.log") }
            // Page 2's search, prefetched once page 1 is shown, is among the API requests.
            return Measurement(firstRow: (first.at - start).milliseconds, complete: (done.at - start).milliseconds,
                               apiRequests: api, posterRequests: posters, peakInFlight: peak, peakMemory: exit.peakMemory)
        }
    }

    /// `movies` at its prompt, with a fake server and a posters folder of its own: `body` drives it.
    private func atPrompt(concurrency: Int?, _ body: (Child, FakeOMDbServer) throws -> Measurement) throws -> Measurement {
        let server = try FakeOMDbServer(catalogue: catalogue, latency: latency, posterBytes: 30_000)
        defer { server.shutdown() }
        let folder = freshFolder("posters")
        defer { try? FileManager.default.removeItem(at: folder) }
        let child = try Child(movies, common(server, posters: folder, concurrency: concurrency),
                              environment: environment, stderrFile: root.appendingPathComponent("stderr.log").path)
        return try body(child, server)
    }

    /// The prompt: search, wait for the page to complete (a person reading it), then `more`,
    /// timed from the `more` line. Requests and peak count from `more` on.
    func more(concurrency: Int?) throws -> Measurement {
        try atPrompt(concurrency: concurrency) { child, server in
            child.send(Self.query)
            guard let shown = child.waitForLine(where: { $0.hasPrefix("Showing") }) else {
                _ = child.finish()
                throw BenchError("the prompt never finished page 1: see \(root.path)/stderr.log")
            }
            // As a person reads the page: whatever page 1 started in the background has time to land.
            usleep(UInt32(max(0.2, 2 * latency.milliseconds / 1000) * 1_000_000))
            let (api, posters) = (server.apiRequests.count, server.posterRequests.count)
            server.resetPeak()
            let start = ContinuousClock.now
            child.send("more")
            let first = child.waitForLine(after: shown.index + 1) { $0.hasPrefix("Results for") }
            let done = child.waitForLine(after: shown.index + 1) { $0.hasPrefix("Showing") }
            let (apiAfter, postersAfter, peak) = (server.apiRequests.count, server.posterRequests.count, server.peakRequestsInFlight)
            let exit = child.finish()
            guard let first, let done else { throw BenchError("more never completed (status \(exit.status)): see \(root.path)/stderr.log") }
            return Measurement(firstRow: (first.at - start).milliseconds, complete: (done.at - start).milliseconds,
                               apiRequests: apiAfter - api, posterRequests: postersAfter - posters,
                               peakInFlight: peak, peakMemory: exit.peakMemory)
        }
    }

    /// `movies --version`, `count` times: the median wall time in ms.
    func version(count: Int) throws -> Double {
        var times: [Double] = []
        for _ in 0..<count {
            let child = try Child(movies, ["--version"], environment: environment, stderrFile: "/dev/null")
            times.append(child.finish().milliseconds)
        }
        return median(times)
    }

    /// A folder of `count` poster-like files (other titles), made once.
    func crowdedFolder(count: Int) -> URL {
        let folder = root.appendingPathComponent("crowded-\(count)")
        if FileManager.default.fileExists(atPath: folder.path) { return folder }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for n in 0..<count {
            let path = folder.appendingPathComponent(String(format: "Other Title %06d (1999) [tt9%07d].jpg", n, n)).path
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if fd >= 0 { close(fd) }
        }
        return folder
    }

    /// Removes what a run saved into a shared folder, so the next run downloads again.
    func removeBenchPosters(from folder: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix("Bench Title") || name.hasPrefix(".movies") {
            unlink(folder.appendingPathComponent(name).path)
        }
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
