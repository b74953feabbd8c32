import FakeOMDb
import Files
import Foundation
import OMDbKit
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The built `movies` under what a hostile machine does to it (issue 36): resource limits (`ulimit`),
/// signals when no thread can start, a library planted beside it, runs killed mid-write.
@Suite(.tags(.slow)) struct HostileConditionsProcessTests {
    static func tool(_ name: String) -> URL? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { URL(fileURLWithPath: $0 + name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static let (prlimit, setpriv, compiler) = (tool("prlimit"), tool("setpriv"), tool("cc") ?? tool("clang"))
    /// Root, with util-linux's setpriv and prlimit: a limit on threads binds only another user.
    static let asAnotherUser = geteuid() == 0 && setpriv != nil && prlimit != nil

    /// The fake OMDb's key and address, for a search that sends requests.
    static func online(_ server: FakeOMDbServer) -> [String: String] {
        ["OMDB_API_KEY": FakeOMDbServer.validKey, "OMDB_BASE_URL": server.baseURL.absoluteString]
    }

    /// `movies arguments` after `ulimit flag value`, in sh.
    /// `opening`: descriptors 3 to that one are open when it starts (a shell's `exec 3<…`); no other
    /// is, whatever the test process leaves open to its children.
    static func limited(_ flag: String, _ value: Int, _ arguments: [String], in folder: URL,
                        environment: [String: String], opening last: Int = 2) async throws -> MoviesProcess.Outcome {
        let script = "ulimit \(flag) \(value) && for f in $(ls /proc/$$/fd); do [ $f -gt 2 ] && eval \"exec $f>&-\"; done; "
            + "for f in $(seq 3 \(last)); do eval \"exec $f</dev/null\"; done; exec \"$0\" \"$@\""
        let process = try MoviesProcess(["-c", script, MoviesProcess.executable.path] + arguments,
                                        directory: folder, environment: environment, executable: URL(fileURLWithPath: "/bin/bash"))
        return await process.finish(timeout: .seconds(30))
    }

    /// What is wrong with how a run under a limit ended, or nil: a page (status 0), one line that
    /// names the limit (status 1), or the loader's own failure before `main` (127: no code of the
    /// program's runs yet). Never a hang, a crash, or a failure that names something else.
    static func fault(_ outcome: MoviesProcess.Outcome, naming option: String) -> String? {
        let lines = outcome.stderr.split(separator: "\n")
        switch (outcome.exited, outcome.status) {
        case (true, 0) where outcome.stdout.contains("Results for"): return nil
        case (true, 1) where lines.count == 1 && lines[0].contains(option): return nil
        case (true, 127) where outcome.stderr.contains("error while loading shared libraries"): return nil
        default: return "\(outcome.exited ? "status" : "signal") \(outcome.status): \(outcome.stderr.prefix(300))"
        }
    }

    // MARK: Memory and threads

    static let memoryLimits: [String: [Int]] = [
        "-v": [80_000, 100_000, 120_000, 140_000, 160_000, 200_000, 400_000],
        "-d": [20_000, 50_000, 100_000, 200_000],
        "-s": [20, 32, 64, 8_192],
    ]

    /// Under any address-space, data or stack limit, a page with posters either loads or one line
    /// names the limit to raise. Before, `ulimit -v 100000` hung after the first line (for ever,
    /// SIGTERM ignored: Dispatch retried a thread it could not start), 140000 stopped with "Fatal
    /// error: failed to allocate", 90000 said libcurl was not installed, `ulimit -s 32` crashed.
    @Test(arguments: ["-v", "-d", "-s"])
    func everyMemoryLimitEndsInAPageOrOneLineNamingIt(flag: String) async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        try await withTemporaryFolder { folder in
            var faults: [Int: String] = [:]
            for value in Self.memoryLimits[flag] ?? [] {
                let outcome = try await Self.limited(flag, value, ["search", "toxic", "--pages", "2", "--posters", "p\(value)"], in: folder,
                                                     environment: Self.online(server))
                faults[value] = Self.fault(outcome, naming: "ulimit \(flag)")
            }
            #expect(faults.isEmpty, "\(faults)")
        }
    }

    /// `movies arguments` as another user, in `folder` (made theirs), under `prefix` (prlimit's
    /// options, say): a copy of the binary they may run.
    static func asOtherUser(_ arguments: [String], prefix: [String] = [], in folder: URL, environment: [String: String]) throws -> MoviesProcess {
        let user = try #require(OtherUser.uid())
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let binary = folder.appendingPathComponent("movies")
        try copyExecutable(MoviesProcess.executable, to: binary)
        for url in [folder, binary] { OtherUser.give(url, to: user) }
        chmod(folder.deletingLastPathComponent().path, 0o755)
        return try MoviesProcess(["--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + prefix + [binary.path] + arguments,
                                 directory: folder, environment: environment.merging(["HOME": folder.path]) { $1 },
                                 executable: try #require(setpriv))
    }

    /// Under `ulimit -u` (processes and threads) a page either loads, with fewer requests at once,
    /// or one line names the limit. Before, a limit of 10 or fewer hung for ever.
    @Test(.enabled(if: asAnotherUser, "needs root, setpriv and prlimit: root is not held to the limit"))
    func aThreadLimitEndsInAPageOrOneLineNamingIt() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        try await withTemporaryFolder { folder in
            var faults: [Int: String] = [:]
            for value in [1, 4, 8, 12, 30] {
                let process = try Self.asOtherUser(["search", "toxic", "--posters", "p"], prefix: [try #require(Self.prlimit).path, "--nproc=\(value)"],
                                                   in: folder.appendingPathComponent("u\(value)"), environment: Self.online(server))
                faults[value] = Self.fault(await process.finish(timeout: .seconds(30)), naming: "ulimit -u")
            }
            #expect(faults.isEmpty, "\(faults)")
        }
    }

    /// SIGTERM, SIGHUP and Ctrl-C end a one-shot when no thread can start: a page whose records
    /// never come, Dispatch's idle threads gone, the limit on threads at what the process has.
    /// The signal's work (cancel, let a line finish) needs a thread of Dispatch's: the process ends
    /// anyway by the deadline, with the signal's status. Before, it ignored both for ever.
    @Test(.enabled(if: asAnotherUser, "needs root, setpriv and prlimit: root is not held to the limit"), arguments: [SIGTERM, SIGINT])
    func aSignalEndsAOneShotEvenWhenNoThreadCanStart(signal: Int32) async throws {
        let gate = ServerGate()
        let server = try FakeOMDbServer(catalogue: catalogue, holding: .records(until: gate))
        defer { gate.open(); server.shutdown() }
        try await withTemporaryFolder { folder in
            let process = try Self.asOtherUser(["search", "toxic"], in: folder.appendingPathComponent("run"), environment: Self.online(server))
            let pid = process.process.processIdentifier
            try await process.waitForStdout("Results for")
            // Dispatch keeps a thread idle for a few seconds: then only its event loop is left.
            try await waitUntil("Dispatch's idle threads to end") { Self.threadNames(of: pid).count { $0.contains("qos") } <= 1 }
            try Self.limitThreads(of: pid, to: Self.threadNames(of: pid).count)
            process.send(signal: signal)
            let outcome = await process.finish(timeout: .seconds(40))
            #expect(outcome.exited && outcome.status == 128 + signal, "\(outcome.status): \(outcome.stderr)")
        }
    }

    static func threadNames(of pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8) }
    }

    /// Sets `pid`'s limit on processes and threads, as the other user (who owns it).
    static func limitThreads(of pid: Int32, to count: Int) throws {
        let user = try #require(OtherUser.uid())
        let done = commandOutput([try #require(setpriv).path, "--reuid=\(user)", "--regid=\(user)", "--clear-groups",
                                  try #require(prlimit).path, "--pid", "\(pid)", "--nproc=\(count)"])
        try #require(done != nil, "prlimit --nproc failed")
    }

    // MARK: Open files

    /// Too few descriptors for even one request: one line that names `ulimit -n`; a few more: the
    /// pages load with fewer requests at once, every row whole. Before, at 16 rows said
    /// "connection refused … Check the network", at 8 "libcurl could not be loaded", and at 32
    /// a second page lost rows the same way.
    @Test func tooFewOpenFilesAreNamedAndFewerRequestsGoOutAtOnce() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        try await withTemporaryFolder { folder in
            for value in [8, 16, 24] {
                let few = try await Self.limited("-n", value, ["search", "toxic"], in: folder, environment: Self.online(server))
                #expect(few.status == 1 && few.stderr.hasPrefix("error: too few open files for movies: ulimit -n is \(value)"), "\(few.stdout)\(few.stderr)")
            }
            let some = try await Self.limited("-n", 32, ["search", "star", "--pages", "2"], in: folder, environment: Self.online(server))
            #expect(some.status == 0 && some.stderr.contains("Sending 3 requests at a time, not 24: ulimit -n is 32."), "\(some.status) \(some.stderr) \(some.stdout.suffix(1500))")
            #expect(some.stdout.contains(" 20. Star Trek IV") && !some.stdout.contains("unavailable"), "\(some.stdout)")
        }
    }

    /// Descriptors the process was started with (a shell's `exec 3<…`) count against `ulimit -n` too:
    /// fewer requests go out at once, or, with too few left, one line says so. Before, the requests
    /// took the descriptors Dispatch needed, and it crashed (SIGILL) about one run in three.
    @Test func descriptorsOpenAlreadyAreCountedAgainstTheLimit() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        try await withTemporaryFolder { folder in
            let arguments = ["search", "star", "--pages", "2"]
            let some = try await Self.limited("-n", 40, arguments, in: folder, environment: Self.online(server), opening: 7)
            #expect(some.status == 0 && some.stderr.contains("Sending 4 requests at a time, not 24: ulimit -n is 40 (5 open already)."),
                    "\(some.status) \(some.stderr) \(some.stdout.suffix(1500))")
            #expect(some.stdout.contains(" 20. Star Trek IV") && !some.stdout.contains("unavailable"), "\(some.stdout)")
            let many = try await Self.limited("-n", 40, arguments, in: folder, environment: Self.online(server), opening: 22)
            #expect(many.status == 1 && many.stderr == "error: too few open files for movies: ulimit -n is 40 (20 open already), and it needs 45 "
                        + "or more. Raise it (ulimit -n 45).\n", "\(many.status) \(many.stderr)")
        }
    }

    /// Descriptors that run out under a prompt (its limit lowered while it runs) are named in the
    /// rows they fail, not taken for a network that refuses.
    @Test(.enabled(if: prlimit != nil, "needs prlimit"))
    func descriptorsThatRunOutMidRunAreNamed() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        try await withTemporaryFolder { folder in
            let process = try MoviesProcess(["--no-cache"], directory: folder, environment: Self.online(server))
            let pid = process.process.processIdentifier
            process.send("cache")
            try await process.waitForOutput("the prompt's first answer") { out, _ in !out.isEmpty }
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
            try #require(commandOutput([try #require(Self.prlimit).path, "--pid", "\(pid)", "--nofile=\(open + 1)"]) != nil)
            process.send("toxic")
            process.send("quit")
            let outcome = await process.finish()
            let named = "too many open files: raise ulimit -n (now \(open + 1))"
            #expect(outcome.stdout.contains(named) && !outcome.stdout.contains("refused"), "\(outcome.stdout)")
        }
    }

    // MARK: A library planted beside it

    /// A `libcurl.so.4` put beside `movies` (its RUNPATH has `$ORIGIN` when SwiftPM links it) is
    /// not loaded: its constructor never runs, and the system's libcurl sends the search. Before,
    /// the planted one was loaded first.
    @Test(.enabled(if: compiler != nil, "needs a C compiler to make the planted library"))
    func aLibcurlPlantedBesideMoviesIsNeverLoaded() async throws {
        let server = try FakeOMDbServer(catalogue: catalogue)
        defer { server.shutdown() }
        try await withTemporaryFolder { folder in
            let bin = folder.appendingPathComponent("bin"), marker = folder.appendingPathComponent("constructor-ran")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try copyExecutable(MoviesProcess.executable, to: bin.appendingPathComponent("movies"))
            let source = folder.appendingPathComponent("planted.c")
            try Data("""
                #include <stdio.h>
                #include <stdlib.h>
                __attribute__((constructor)) static void planted(void) { fclose(fopen(getenv("PLANTED_MARKER"), "w")); }
                """.utf8).write(to: source)
            try #require(commandOutput([try #require(Self.compiler).path, "-shared", "-fPIC", "-o", bin.appendingPathComponent("libcurl.so.4").path, source.path]) != nil)
            let outcome = try await MoviesProcess.run(["search", "toxic"], directory: folder,
                                                      environment: Self.online(server).merging(["PLANTED_MARKER": marker.path]) { $1 },
                                                      executable: bin.appendingPathComponent("movies"))
            #expect(outcome.status == 0 && outcome.stdout.contains("Results for"), "\(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: marker.path))
        }
    }

    // MARK: Runs killed mid-write

    /// What a `save` killed mid-write (kill -9) leaves, `.NAME.OWNER-RANDOM.tmp`, goes with the
    /// next save into that folder, whichever file it writes; a live run's, and a file of the
    /// user's, stay. Before, they stayed for good, `save!` of the same file included.
    @Test func aSaveRemovesWhatKilledSavesLeftInItsFolder() async throws {
        try await withTemporaryFolder { folder in
            let gone = "\(try exitedProcessID())-1", live = WriterProcess.current.tag
            let planted = [".movies.csv.\(gone)-1x2y.tmp", ".other.json.\(gone)-3z4w.tmp", ".movies.csv.\(live)-5v6u.tmp", ".notes.tmp"]
            for name in planted { try Data("half".utf8).write(to: folder.appendingPathComponent(name)) }
            let outcome = try await MoviesProcess.run(["--offline"], lines: ["toxic", "save! movies.csv", "quit"], directory: folder)
            #expect(outcome.status == 0 && outcome.stdout.contains("Saved 10 movies to"), "\(outcome.stdout)\(outcome.stderr)")
            let left = files(in: folder).filter { $0.hasSuffix(".tmp") }
            #expect(left == [".movies.csv.\(live)-5v6u.tmp", ".notes.tmp"])
        }
    }
}
