import FakeOMDb
import Foundation

/// The slow-disk case: posters go to a folder whose writes and fsyncs each take `milliseconds`
/// (an LD_PRELOAD shim, `Tests/Lab/slow_disk.c`, compiled here at run time), plots never touch
/// the disk. Measures when the 10th plot shows, and what was asked for.
extension Workbench {
    /// The shim, built once under the bench's root.
    func slowDiskShim() throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Lab/slow_disk.c").path
        let library = root.appendingPathComponent("slow_disk.so").path
        if FileManager.default.fileExists(atPath: library) { return library }
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-shared", "-fPIC", "-O2", "-o", library, source, "-ldl"]
        try cc.run()
        cc.waitUntilExit()
        guard cc.terminationStatus == 0 else { throw BenchError("could not compile \(source) (is cc installed?)") }
        return library
    }

    /// `movies search bench` with posters on a disk of `milliseconds` a write (nil: the plain
    /// disk): `firstRow` is when the 10th plot showed, `complete` the exit. Also the posters saved,
    /// the posters asked for, the exit status and the lines that said a request timed out.
    func slowDisk(milliseconds: Int?, timeout: Int? = nil) throws -> SlowDiskRun {
        let server = try FakeOMDbServer(catalogue: catalogue, latency: latency, posterBytes: 30_000)
        defer { server.shutdown() }
        let folder = freshFolder("slow-posters")
        defer { try? FileManager.default.removeItem(at: folder) }
        var extra: [String: String] = [:]
        if let milliseconds {
            extra = ["LD_PRELOAD": try slowDiskShim(), "SLOW_DISK_DIR": folder.path, "SLOW_DISK_MS": String(milliseconds)]
        }
        let arguments = ["search", Self.query] + common(server, posters: folder, concurrency: nil) + (timeout.map { ["--timeout", String($0)] } ?? [])
        let child = try Child(movies, arguments, environment: environment(adding: extra),
                              stderrFile: root.appendingPathComponent("stderr.log").path)
        // The list names rank 10 first; its plot's block names it again.
        let listed = child.waitForLine { $0.hasPrefix(" 10. ") }
        let plot = listed.flatMap { child.waitForLine(after: $0.index + 1) { $0.hasPrefix(" 10. ") } }
        let exit = child.finish()
        // A failed run is a finding here (every plot timed out, say), unless nothing was shown.
        guard listed != nil else { throw BenchError("movies search failed (status \(exit.status)): see \(root.path)/stderr.log") }
        let stderr = (try? String(contentsOf: root.appendingPathComponent("stderr.log"), encoding: .utf8)) ?? ""
        let timeouts = (child.output + stderr.split(separator: "\n").map(String.init)).filter { $0.contains("within \(timeout ?? 10) s") }.count
        let saved = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { !$0.hasPrefix(".") }.count ?? 0
        let measurement = Measurement(firstRow: plot.map { ($0.at - child.started).milliseconds } ?? .nan, complete: exit.milliseconds,
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
