import Foundation

/// The table of `--network tls`: per case, one row per `movies` measured (and the Python client),
/// medians of every run, with the target in R.
final class LabReport {
    struct Row {
        let name: String
        let subject: String
        let target: String
        let runs: [Measurement]
        /// Whether its time means anything beside the floor's (not a whole session, mostly the bench's pauses).
        let comparable: Bool
    }

    let latency: Double
    let runs: Int
    private var rows: [Row] = []
    /// Lines printed under the table.
    var notes: [String] = []

    /// The subject whose rows the others are compared with, per case (`vs floor`).
    let floor: String?

    init(latency: Double, runs: Int, floor: String? = nil) {
        self.latency = latency
        self.runs = runs
        self.floor = floor
    }

    func add(_ name: String, _ subject: String, target: String, _ runs: [Measurement], comparable: Bool = true) {
        rows.append(Row(name: name, subject: subject, target: target, runs: runs, comparable: comparable))
    }

    func table() -> String {
        var lines = [
            "",
            "| case | client | complete | first row | target | vs floor | CPU | TCP api/posters | TLS api/posters | GET api/posters | HEAD api/posters | protocol api/posters |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for row in rows {
            func middle(_ value: (Measurement) -> Double) -> Double { median(row.runs.map(value)) }
            let floorRow = rows.first { $0.name == row.name && $0.subject == floor }
            let versus = floorRow.flatMap { floorRow in
                row.subject == floor || row.subject.hasPrefix("python") || !row.comparable ? nil
                    : String(format: "%.2f×", middle(\.complete) / median(floorRow.runs.map(\.complete)))
            } ?? "—"
            func pair(_ value: (HostCounts) -> Int) -> String {
                let api = middle { Double($0.lab.map { value($0.api) } ?? 0) }
                let posters = middle { Double($0.lab.map { value($0.posters) } ?? 0) }
                return "\(Self.count(api)) / \(Self.count(posters))"
            }
            let first = middle(\.firstRow)
            let cells = [
                row.name, row.subject, timeText(middle(\.complete), latency: latency),
                first.isNaN ? "—" : row.subject.hasPrefix("python") ? String(format: "(in-process page %.0f ms)", first) : timeText(first, latency: latency),
                row.target, versus, String(format: "%.3f s", middle(\.cpu)),
                pair(\.tcp), pair(\.tls), pair(\.requests), pair(\.head),
                "\(protocolName(row.runs.compactMap { $0.lab?.api })) / \(protocolName(row.runs.compactMap { $0.lab?.posters }))",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append("Medians of \(runs) runs; R = \(Int(latency)) ms. One-shot: `movies search bench`, from spawn (complete = exit, first row = "
            + "the `Results for` line). Prompt steps: from Enter to the `Results for` line and to the `Showing` line; their CPU and "
            + "counts run from the line typed to the next one (the first search from the start, `more` to the exit). "
            + "TCP = connections accepted, TLS = handshakes completed, GET = requests (HEAD apart), per host (API / posters).")
        lines += notes
        return lines.joined(separator: "\n")
    }

    private static func count(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// `h2`, `http/1.1`, both, or `—` when no request went there.
    private func protocolName(_ hosts: [HostCounts]) -> String {
        let h2 = hosts.reduce(0) { $0 + $1.requestsH2 }, http1 = hosts.reduce(0) { $0 + $1.requestsHttp1 }
        switch (h2 > 0, http1 > 0) {
        case (true, true): return "h2 + http/1.1"
        case (true, false): return "h2"
        case (false, true): return "http/1.1"
        case (false, false): return "—"
        }
    }
}
