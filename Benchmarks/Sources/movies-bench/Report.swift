import Foundation

/// The table the bench prints: medians of every run, in ms and in R, with the sequential
/// baseline (concurrency 1) measured in the same run and the ratio.
final class Report {
    struct Row {
        let name: String
        let runs: [Measurement]
        /// The same work at concurrency 1.
        let baseline: [Measurement]?
        /// A case to compare against (the empty folder for the crowded one).
        let versus: [Measurement]?
        /// True when a baseline belongs here but the `movies` measured cannot run one.
        let baselineMissing: Bool
    }

    let latency: Double
    let runs: Int
    private var rows: [Row] = []
    /// `movies --version`, median ms.
    var version: Double?
    /// For `--pages 5` at the default: the limit set by the concurrency, in R.
    var waveLimit: (concurrency: Int, waves: Double)?
    /// Which `movies` ran, and how it was linked.
    var subject: String?

    init(latency: Double, runs: Int) {
        self.latency = latency
        self.runs = runs
    }

    func add(_ name: String, _ runs: [Measurement], baseline: [Measurement]? = nil, versus: [Measurement]? = nil, baselineMissing: Bool = false) {
        rows.append(Row(name: name, runs: runs, baseline: baseline, versus: versus, baselineMissing: baselineMissing))
        print("  done: \(name)")
    }

    func table() -> String {
        var lines = [
            "",
            "| case | first row | complete | requests (API + posters) | peak in flight | peak RSS | concurrency 1: complete | ratio |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for row in rows {
            let complete = median(row.runs.map(\.complete))
            var baseline = "n/a", ratio = "n/a"
            if let base = row.baseline {
                let sequential = median(base.map(\.complete))
                baseline = time(sequential)
                ratio = String(format: "%.1f× faster", sequential / complete)
            } else if let versus = row.versus {
                baseline = "—"
                ratio = String(format: "%.2f× the empty folder", complete / median(versus.map(\.complete)))
            } else if !row.baselineMissing {
                baseline = "—"
                ratio = "—"
            }
            let api = Int(median(row.runs.map { Double($0.apiRequests) }))
            let posters = Int(median(row.runs.map { Double($0.posterRequests) }))
            let peak = Int(median(row.runs.map { Double($0.peakInFlight) }))
            let memory = median(row.runs.map { Double($0.peakMemory) }) / 1_000_000
            lines.append("| \(row.name) | \(time(median(row.runs.map(\.firstRow)))) | \(time(complete)) | \(api + posters) (\(api) + \(posters)) "
                + "| \(peak) | \(memory > 0 ? String(format: "%.0f MB", memory) : "unknown") | \(baseline) | \(ratio) |")
        }
        lines.append("")
        lines.append("Medians of \(runs) runs; R = \(Int(latency)) ms (the fake server's latency); first row and complete from Enter; "
            + "peak RSS is the movies process's own high-water mark (VmHWM; MB = 10^6 bytes).")
        if let waveLimit {
            lines.append(String(format: "Wave limit for --pages 5 at the default concurrency %d: %.0f R.", waveLimit.concurrency, waveLimit.waves))
        }
        if let version { lines.append(String(format: "movies --version: %.1f ms (median of 50 runs).", version)) }
        if let subject { lines.append(subject) }
        return lines.joined(separator: "\n")
    }

    private func time(_ ms: Double) -> String { timeText(ms, latency: latency) }
}

/// `812 ms (8.1 R)`
func timeText(_ ms: Double, latency: Double) -> String {
    String(format: "%.0f ms (%.1f R)", ms, ms / latency)
}
