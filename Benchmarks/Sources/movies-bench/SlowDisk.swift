import FakeOMDb
import Foundation

/// The slow-disk case: posters go to a folder whose writes and fsyncs each take `milliseconds`
/// (an LD_PRELOAD shim, `Tests/Lab/slow_disk.c`, compiled here at run time), plots never touch
/// the disk. Measures when the 10th plot shows on a terminal, and what was asked for.
extension Workbench {
    /// The shim, built once under the bench's root.
    func slowDiskShim() throws -> String {
        try compiled("slow_disk.so", from: ["Tests/Lab/slow_disk.c"], flags: ["-shared", "-fPIC", "-O2"], libraries: ["-ldl"])
    }

    /// What rank 10's plot says first, as the fake server gives it (``Catalogue/synthetic(titles:in:)``):
    /// the comma keeps it from matching rank 1's, and nothing else on the page is lower-case
    /// "bench title" (titles are "Bench Title N").
    static let tenthPlot = "Plot of bench title 10,"

    /// `movies search bench` with posters on a disk of `milliseconds` a write (nil: the plain
    /// disk): `firstRow` is when the 10th plot showed, `complete` the exit. Also the posters saved,
    /// the posters asked for, the exit status and the lines that said a request timed out.
    ///
    /// - Parameter onTerminal: stdout (and stdin) on a pseudo-terminal, where `movies` draws its
    ///   live page and each plot fills in as it arrives, whatever its poster is doing: the moment
    ///   the 10th plot's text is first drawn is `firstRow`. Without, stdout is a pipe, which shows
    ///   each row once, whole, only when its poster is done too: `firstRow` is when rank 10's row
    ///   was printed, which the slow disk delays on purpose (the exit, counts and files are the same).
    func slowDisk(milliseconds: Int?, timeout: Int? = nil, onTerminal: Bool = true) throws -> SlowDiskRun {
        let server = try FakeOMDbServer(catalogue: catalogue, latency: latency, posterBytes: 30_000)
        defer { server.shutdown() }
        let folder = freshFolder("slow-posters")
        defer { try? FileManager.default.removeItem(at: folder) }
        var extra: [String: String] = [:]
        if let milliseconds {
            extra = ["LD_PRELOAD": try slowDiskShim(), "SLOW_DISK_DIR": folder.path, "SLOW_DISK_MS": String(milliseconds)]
        }
        // Any TERM but dumb draws the live page; NO_COLOR (the bench's) takes only its colour.
        if onTerminal { extra["TERM"] = "xterm-256color" }
        let arguments = ["search", Self.query] + common(server, posters: folder, concurrency: nil) + (timeout.map { ["--timeout", String($0)] } ?? [])
        // Wide and tall enough that no line wraps and the page of ten fits: drawn live, not printed row by row.
        let child = try Child(movies, arguments, environment: environment(adding: extra),
                              stderrFile: root.appendingPathComponent("stderr.log").path,
                              terminal: onTerminal ? (columns: 200, rows: 50) : nil)
        let shown = onTerminal ? child.waitForText(Self.tenthPlot) : child.waitForLine { $0.hasPrefix(" 10. ") }?.at
        let exit = child.finish()
        // A failed run is a finding here (every plot timed out, say), unless nothing was shown.
        guard shown != nil else { throw BenchError("movies search failed (status \(exit.status)): see \(root.path)/stderr.log") }
        let stderr = (try? String(contentsOf: root.appendingPathComponent("stderr.log"), encoding: .utf8)) ?? ""
        let timeouts = (child.output + stderr.split(separator: "\n").map(String.init)).filter { $0.contains("within \(timeout ?? 10) s") }.count
        let saved = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { !$0.hasPrefix(".") }.count ?? 0
        let measurement = Measurement(firstRow: shown.map { ($0 - child.started).milliseconds } ?? .nan, complete: exit.milliseconds,
                                      apiRequests: server.apiRequests.count, posterRequests: server.posterRequests.count,
                                      peakInFlight: server.peakRequestsInFlight, peakMemory: exit.peakMemory)
        return SlowDiskRun(measurement: measurement, postersSaved: saved, distinctPosters: Set(server.posterRequests.map(\.path)).count,
                           status: exit.status, timeouts: timeouts)
    }
}

/// One run of the slow-disk case.
struct SlowDiskRun {
    var measurement: Measurement
    var postersSaved: Int
    var distinctPosters: Int
    var status: Int32
    /// Lines of output that said a request found no complete answer in time.
    var timeouts: Int
}
