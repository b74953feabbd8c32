// movies-bench: how many round trips stand between Enter and a complete page, and how much
// memory posters take. Runs the built `movies` (the real client, CLI included) against a fake
// OMDb on 127.0.0.1 that answers every request after a fixed latency R.
//
//   swift run -c release --package-path Benchmarks movies-bench [--latency MS] [--runs N] [--only a,b] [--movies PATH]
//
// With --network tls, the same `movies` meets a lab as real users meet OMDb: two TLS 1.3 hosts
// (API and posters) with HTTP/2 by ALPN, behind proxies that add the round trips, the TCP and
// the TLS handshakes (Tests/Lab/omdb_lab.py, Python with h2); --baseline-movies PATH runs a
// second `movies` side by side, and a Python client does the same page. The floor
// (Tests/Lab/lab_floor.c, built with cc) is libcurl driven from C with nothing but the page's
// requests and movies' durable poster commits: each case's `vs floor` is movies' time over its.
import FakeOMDb
import Foundation

struct BenchOptions {
    var latency = 100
    /// 3 on the plain network, 5 in the TLS lab.
    var runs: Int?
    var only: Set<String>?
    var movies: String?
    var folderFiles = 100_000
    /// `--serve BYTES`: only start the fake server (posters of BYTES) and wait, for trying things by hand.
    var serve: Int?
    /// `plain` (the fake server on http) or `tls` (the lab).
    var network = "plain"
    var baselineMovies: String?
    var labScript: String?

    static func parse(_ arguments: [String]) throws -> BenchOptions {
        var options = BenchOptions()
        var index = 0
        func value() throws -> String {
            index += 1
            guard index < arguments.count else { throw BenchError("\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--latency": options.latency = try Int(value()).flatMap { $0 > 0 ? $0 : nil } ?? { throw BenchError("--latency takes milliseconds > 0") }()
            case "--runs": options.runs = try Int(value()).flatMap { $0 > 0 ? $0 : nil } ?? { throw BenchError("--runs takes a count > 0") }()
            case "--only": options.only = Set(try value().split(separator: ",").map(String.init))
            case "--movies": options.movies = try value()
            case "--folder-files": options.folderFiles = try Int(value()) ?? 100_000
            case "--serve": options.serve = try Int(value()) ?? 30_000
            case "--network":
                options.network = try value()
                guard ["plain", "tls"].contains(options.network) else { throw BenchError("--network takes plain or tls") }
            case "--baseline-movies": options.baselineMovies = try value()
            case "--lab-script": options.labScript = try value()
            case "-h", "--help":
                print("""
                    usage: movies-bench [--latency MS (100)] [--runs N (3)] [--only page1,more,pages5,posters1mb,posters5mb,folder,version,slowdisk] [--movies PATH] [--folder-files N] [--serve POSTER_BYTES]
                           movies-bench --network tls [--latency MS (100)] [--runs N (5)] [--only oneshot,prompt,python,floor] [--movies PATH] [--baseline-movies PATH] [--lab-script PATH]
                    """)
                exit(0)
            default: throw BenchError("unknown option \(arguments[index]): see movies-bench --help")
            }
            index += 1
        }
        return options
    }
}

/// The `movies` built with this bench: it sits beside the bench's own executable.
func moviesExecutable(_ given: String?) throws -> String {
    if let given { return given }
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("movies").path
    guard FileManager.default.isExecutableFile(atPath: beside) else {
        throw BenchError("no movies beside movies-bench (\(beside)): pass --movies PATH (make bench passes the one it built)")
    }
    return beside
}

/// The `movies` measured, and whether the Swift runtime and Foundation are linked into it (as
/// `make build` and `make install` do on Linux) or loaded from the toolchain: that alone moves
/// the peak RSS by about 7 MB and `--version` by 4 ms.
func describe(_ movies: String) -> String {
    #if os(Linux)
    // A dynamically linked one names the runtime's shared library among what it needs.
    let linked = (try? Data(contentsOf: URL(fileURLWithPath: movies), options: .alwaysMapped))
        .map { $0.range(of: Data("libswiftCore.so".utf8)) == nil } ?? false
    return "movies measured: \(movies) (" + (linked ? "Swift runtime and Foundation linked in, as make install builds it)."
        : "Swift runtime and Foundation loaded from the toolchain; make bench measures the one make install builds).")
    #else
    return "movies measured: \(movies)."
    #endif
}

do {
    let options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
    let movies = try moviesExecutable(options.movies)
    let bench = try Workbench(movies: movies, latency: .milliseconds(options.latency))
    defer { bench.removeAll() }
    if options.network == "tls" {
        let subjects = try LabBench.names(movies: movies, baseline: options.baselineMovies).map { name, path in
            (name: name, bench: path == movies ? bench : try Workbench(movies: path, latency: .milliseconds(options.latency)))
        }
        try LabBench(options: options, subjects: subjects).run()
        exit(0)
    }
    if let posterBytes = options.serve {
        let server = try FakeOMDbServer(catalogue: bench.catalogue, latency: .milliseconds(options.latency), posterBytes: posterBytes)
        // Unbuffered, so a script reading the address gets it now.
        FileHandle.standardOutput.write(Data("serving \(server.baseURL.absoluteString) (key \(FakeOMDbServer.validKey), query \(Workbench.query)) until stdin closes\n".utf8))
        while readLine() != nil {}
        print("\(server.apiRequests.count) API requests, \(server.posterRequests.count) posters, peak in flight \(server.peakRequestsInFlight)")
        server.shutdown()
        exit(0)
    }
    let help = try Child(movies, ["--help"], environment: bench.environment, stderrFile: "/dev/null")
    _ = help.finish()
    let helpText = help.output.joined(separator: "\n")
    // main before issue 7 had no --concurrency: its sequential baseline cannot be asked for.
    let hasConcurrency = helpText.contains("--concurrency")
    // The option's entry, continuation lines included (help wraps to the width): "…; default 24)".
    let concurrencyEntry = helpText.split(separator: "\n", omittingEmptySubsequences: false)
        .drop { !$0.contains("--concurrency") }.prefix { $0.contains("--concurrency") || $0.hasPrefix("      ") }
        .joined(separator: " ")
    let defaultConcurrency = concurrencyEntry.firstMatch(of: /default (\d+)\)/).flatMap { Int($0.1) }
    let report = Report(latency: Double(options.latency), runs: options.runs ?? 3)
    func wanted(_ name: String) -> Bool { options.only?.contains(name) ?? true }
    func runs(_ body: () throws -> Measurement) throws -> [Measurement] { try (0..<(options.runs ?? 3)).map { _ in try body() } }
    let started = ContinuousClock.now
    let c1: Int? = hasConcurrency ? 1 : nil

    print("movies-bench: R = \(options.latency) ms, \(options.runs ?? 3) runs per case, \(movies)")
    if wanted("page1") {
        let base = hasConcurrency ? try runs { try bench.oneShot(pages: 1, concurrency: c1) } : nil
        report.add("page 1 (10 plots + 10 posters)", try runs { try bench.oneShot(pages: 1, concurrency: nil) }, baseline: base, baselineMissing: !hasConcurrency)
        let promptBase = hasConcurrency ? try runs { try bench.page1AtPrompt(concurrency: c1) } : nil
        report.add("page 1 at the prompt (from Enter)", try runs { try bench.page1AtPrompt(concurrency: nil) }, baseline: promptBase, baselineMissing: !hasConcurrency)
    }
    if wanted("more") {
        let base = hasConcurrency ? try runs { try bench.more(concurrency: c1) } : nil
        report.add("more (prompt, page 2)", try runs { try bench.more(concurrency: nil) }, baseline: base, baselineMissing: !hasConcurrency)
    }
    if wanted("pages5") {
        let base = hasConcurrency ? try runs { try bench.oneShot(pages: 5, concurrency: c1) } : nil
        let atDefault = try runs { try bench.oneShot(pages: 5, concurrency: nil) }
        report.add("--pages 5", atDefault, baseline: base, baselineMissing: !hasConcurrency)
        if let defaultConcurrency {
            // The wave limit: page 1's search, then the other requests in waves of the concurrency limit.
            let requests = median(atDefault.map { Double($0.apiRequests + $0.posterRequests) })
            report.waveLimit = (concurrency: defaultConcurrency, waves: 1 + ((requests - 1) / Double(defaultConcurrency)).rounded(.up))
        }
        if hasConcurrency {
            report.add("--pages 5 --concurrency 100", try runs { try bench.oneShot(pages: 5, concurrency: 100) }, baseline: base)
        }
    }
    if wanted("posters1mb") {
        report.add("300 posters × 1 MB (--pages 30)", try runs { try bench.oneShot(pages: 30, concurrency: nil, posterBytes: 1_000_000) })
    }
    if wanted("posters5mb") {
        report.add("100 posters × 5 MB (--pages 10)", try runs { try bench.oneShot(pages: 10, concurrency: nil, posterBytes: 5_000_000) })
    }
    if wanted("folder") {
        let empty = bench.freshFolder("empty")
        let emptyRuns = try runs {
            defer { bench.removeBenchPosters(from: empty) }
            return try bench.oneShot(pages: 3, concurrency: nil, posters: empty)
        }
        report.add("--pages 3, empty posters folder", emptyRuns)
        let crowded = bench.crowdedFolder(count: options.folderFiles)
        report.add("--pages 3, \(options.folderFiles.formatted())-file folder", try runs {
            defer { bench.removeBenchPosters(from: crowded) }
            return try bench.oneShot(pages: 3, concurrency: nil, posters: crowded)
        }, versus: emptyRuns)
    }
    if options.only?.contains("slowdisk") == true {
        // Only when asked: it needs cc, and a 2.5 s disk takes a while.
        let count = options.runs ?? 3
        let fast = try (0..<count).map { _ in try bench.slowDisk(milliseconds: nil) }
        let slow = try (0..<count).map { _ in try bench.slowDisk(milliseconds: 100) }
        let tenth = { (runs: [SlowDiskRun]) in median(runs.map(\.measurement.firstRow)) }
        print(String(format: "slow disk: 10th plot %.0f ms with 100 ms per write and fsync, %.0f ms on the plain disk: %.2f×",
                     tenth(slow), tenth(fast), tenth(slow) / tenth(fast)))
        for run in try (0..<count).map({ _ in try bench.slowDisk(milliseconds: 2_500, timeout: 2, onTerminal: false) }) {
            let measured = run.measurement
            print(String(format: "slow disk, 2.5 s per write, --timeout 2: exit %d, %d API requests, %d lines saying \"within 2 s\", %d posters saved, %d poster requests for %d posters, %.1f s",
                         run.status, measured.apiRequests, run.timeouts, run.postersSaved, measured.posterRequests, run.distinctPosters, measured.complete / 1000))
        }
    }
    if wanted("version") { report.version = try bench.version(count: 50) }
    report.subject = describe(movies)
    print(report.table())
    print("(whole bench: \(Int((ContinuousClock.now - started).milliseconds / 1000)) s)")
} catch {
    FileHandle.standardError.write(Data("movies-bench: \(error)\n".utf8))
    exit(1)
}
