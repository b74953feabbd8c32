import FakeOMDb
import Foundation
import OMDbKit
import Testing
import TestSupport

/// The built `movies` against what a broken server, a full disk, a closed stdout, a bad posters
/// path or a careless `.env` can do: a clear line and the right status, never a trap.
///
/// Serialized: its four flooding posters load both cores while they last; the suite's other
/// processes wait for them rather than run beside them.
@Suite(.serialized) struct RobustnessProcessTests {
    // MARK: Output that cannot be written

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full here (Linux has one)"), arguments: [["--json"], []])
    func resultsWrittenToAFullDiskFailWithStatusOneAndOneLine(format: [String]) async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(["search", "star", "wars", "--offline"] + format, directory: folder,
                                                      stdoutRedirect: "> /dev/full")
            #expect(outcome.exited)
            #expect(outcome.status == 1)
            let lines = outcome.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(outcome.stderr)")
            #expect(outcome.stderr.hasPrefix("error: the results could not be written to standard output (the disk is full)"))
        }
    }

    @Test func aClosedStdoutFailsWithStatusOneAndOneLine() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(["search", "star", "wars", "--offline", "--json"], directory: folder,
                                                      stdoutRedirect: ">&-")
            #expect(outcome.exited)
            #expect(outcome.status == 1)
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("standard output is closed"))
        }
    }

    // MARK: A posters path that is a file

    @Test(arguments: ["plain-file", "plain-file/sub"])
    func postersIntoAFileAreRefusedBeforeAnyRequest(path: String) async throws {
        try await withTemporaryFolder { folder in
            try Data("x".utf8).write(to: folder.appendingPathComponent("plain-file"))
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let environment = ["OMDB_API_KEY": FakeOMDbServer.validKey]
            let base = server.baseURL.absoluteString
            let oneShot = try await MoviesProcess.run(["search", "toxic", "--base-url", base, "--posters", path], directory: folder,
                                                      environment: environment)
            #expect(oneShot.status == 2)
            #expect(oneShot.stderr.split(separator: "\n").count == 1, "\(oneShot.stderr)")
            #expect(oneShot.stderr.contains("Cannot save posters in") && oneShot.stderr.contains("is a file, not a folder"))
            let prompt = try await MoviesProcess.run(["--base-url", base, "--posters", path], lines: ["toxic", "quit"], directory: folder,
                                                     environment: environment)
            #expect(prompt.status == 2)
            #expect(prompt.stderr.contains("is a file, not a folder"))
            #expect(server.requests.isEmpty, "requests were sent: \(server.requests.map(\.target))")

            let typed = try await MoviesProcess.run(["--base-url", base], lines: ["posters \(path)", "toxic", "quit"], directory: folder,
                                                    environment: environment)
            #expect(typed.status == 0)
            #expect(typed.stderr.contains("Cannot use \"\(path)\" for posters: ") && typed.stderr.contains("is a file, not a folder"))
            #expect(server.posterRequests.isEmpty, "posters were downloaded: \(server.posterRequests.map(\.target))")
            #expect(!server.apiRequests.isEmpty)
        }
    }

    /// A CA file that is a FIFO (or a folder) is named in one line, at once: libcurl would open
    /// the FIFO and wait on it, holding every request until each timed out three times.
    @Test func aCAFileThatIsNotAFileIsNamedAtOnce() async throws {
        try await withTemporaryFolder { folder in
            let fifo = folder.appendingPathComponent("ca.pem").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let outcome = try await MoviesProcess.run(["search", "alien", "--timeout", "30"], directory: folder,
                                                      environment: ["OMDB_API_KEY": FakeOMDbServer.validKey, "SSL_CERT_FILE": fifo, "CURL_CA_BUNDLE": ""])
            #expect(outcome.exited)
            #expect(outcome.status == 1)
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("SSL_CERT_FILE names \(fifo), which is a FIFO"), "\(outcome.stderr)")
        }
    }

    // MARK: What a server can send

    /// No libcurl to load: one line that names the library and what to do, status 1, no trap;
    /// the offline catalogue needs no libcurl and still answers.
    @Test func withoutLibcurlSearchingOMDbSaysWhichLibraryIsMissingAndOfflineStillWorks() async throws {
        try await withTemporaryFolder { folder in
            let missing = "/nonexistent/libcurl.so.4"
            let outcome = try await MoviesProcess.run(["search", "alien"], directory: folder,
                                                      environment: ["OMDB_API_KEY": FakeOMDbServer.validKey, "MOVIES_LIBCURL": missing])
            #expect(outcome.exited)
            #expect(outcome.status == 1)
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("\(missing) could not be loaded") && outcome.stderr.contains("Check MOVIES_LIBCURL"), "\(outcome.stderr)")
            let offline = try await MoviesProcess.run(["search", "alien", "--offline"], directory: folder, environment: ["MOVIES_LIBCURL": missing])
            #expect(offline.status == 0)
            #expect(offline.stdout.contains("Alien"))
        }
    }

    /// Posters whose bodies never end, as fast as the socket takes them: each is refused at the
    /// poster limit, and the search ends. URLSession on Linux reads such a body on its one queue for
    /// as long as it flows, and every call into the session (a cancel, a new task) waits for that
    /// queue: a row whose caller waited for that was stuck for good, and so was the search.
    @Test func postersThatFloodWithoutEndAreRefusedAndTheSearchEnds() async throws {
        try await withTemporaryFolder { folder in
            let chunk = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 0x5A, count: 64 * 1024 - 4)
            let server = try FakeOMDbServer(catalogue: catalogue, fault: FaultPlan.always(ServerResponse(headers: ["Content-Type": "image/jpeg"], body: chunk, flood: true), where: FaultPlan.posters))
            defer { server.shutdown() }
            let started = ContinuousClock.now
            let outcome = try await MoviesProcess.run(["search", "toxic", "avenger", "--timeout", "1", "--posters", "p", "--base-url", server.baseURL.absoluteString],
                                                      directory: folder, environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
            #expect(outcome.exited, "killed after 60 s: \(outcome.stdout)")
            #expect(ContinuousClock.now - started < .seconds(45))
            // Every row ends, each poster with its reason: refused at the limit, or timed out (a
            // request that could not start while the floods ran, or a flood still short of 20 MB at
            // the deadline on a loaded machine). Which one depends on the machine's speed.
            let posterLines = outcome.stdout.split(separator: "\n").filter { $0.contains("no poster saved: ") }
            #expect(posterLines.count == 4, "\(outcome.stdout)")
            #expect(posterLines.allSatisfy { $0.contains("too large") || $0.contains("no complete answer within 1 s") }, "\(outcome.stdout)")
            #expect(outcome.stdout.contains("Showing 4 of 4"), "\(outcome.stdout)")
            #expect(files(in: folder.appendingPathComponent("p")).isEmpty)
        }
    }

    @Test(arguments: ["\"9223372036854775807\"", "\"-5\"", "1e308"])
    func anAbsurdTotalIsOneLineAndStatusOneNotATrap(total: String) async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue) { _ in
                .json(#"{"Search":[{"Title":"A","Year":"2000","imdbID":"tt0000001","Type":"movie","Poster":"N/A"}],"totalResults":\#(total),"Response":"True"}"#)
            }
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "x", "--base-url", server.baseURL.absoluteString], directory: folder,
                                                      environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
            #expect(outcome.exited)
            #expect(outcome.status == 1)
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("totalResults \""))
            #expect(outcome.stdout.isEmpty)
        }
    }

    /// Page 2 is answered with no rows, page 3 with an error: the empty page says so, and the
    /// hint after the failure names the page that failed.
    @Test func anEmptyPageIsSaidAndTheHintAfterAFailedPageIsTrue() async throws {
        try await withTemporaryFolder { folder in
            let rows = #"{"Title":"Odd Year","Year":1999,"imdbID":"tt0000001","Type":"movie","Poster":"N/A"},{"Title":"B","Year":"2001","imdbID":"tt0000002"}"#
            let server = try FakeOMDbServer(catalogue: catalogue) { request in
                switch request.queryItems.first(where: { $0.name == "page" })?.value {
                case "1": .json(#"{"Search":[\#(rows)],"totalResults":"45","Response":"True"}"#)
                case "2": .json(#"{"Search":[],"totalResults":"45","Response":"True"}"#)
                case "3": ServerResponse(status: 400, body: Data("bad request".utf8))
                default: nil
                }
            }
            defer { server.shutdown() }
            let outcome = try await MoviesProcess.run(["search", "x", "--pages", "4", "--base-url", server.baseURL.absoluteString], directory: folder,
                                                      environment: ["OMDB_API_KEY": FakeOMDbServer.validKey])
            #expect(outcome.status == 1)
            #expect(outcome.stdout.contains("  1. Odd Year (1999)  movie  tt0000001"))
            #expect(outcome.stdout.contains("(OMDb sent no results on this page)"))
            #expect(!outcome.stdout.contains("repeated"))
            #expect(outcome.stdout.contains("Showing 2 of 45.\nUse --pages 3 to see more."), "\(outcome.stdout)")
            #expect(!outcome.stdout.contains("--pages 5"))
            #expect(outcome.stderr.contains("HTTP 400"))
        }
    }

    // MARK: .env

    @Test func unreadableDotEnvLinesAreNotedByNumberWithoutTheirText() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            try Data("\u{FEFF}OMDB_API_KEY=\"\(FakeOMDbServer.validKey)\"\r\nexport\tOMDB_BASE_URL=\(server.baseURL.absoluteString)\r\nMOVIES_POSTERS=\"sekrit-path\r\n".utf8)
                .write(to: folder.appendingPathComponent(".env"))
            let outcome = try await MoviesProcess.run(["search", "toxic", "--json"], directory: folder)
            #expect(outcome.status == 0)
            #expect(outcome.stdout.split(separator: "\n").count == 10)
            #expect(outcome.stderr == ".env line 3 skipped: its quote is not closed.\n")
            #expect(server.posterRequests.isEmpty)
        }
    }

    // MARK: Programs the tool starts

    /// An opener that does not return (a browser started directly) froze the prompt for good, and
    /// could not be killed: it inherited the tool's blocked signals and ignored SIGPIPE. It must
    /// run detached in a session of its own with a clean signal mask, and be reaped when it ends.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "reads /proc (Linux)"))
    func anOpenerThatKeepsRunningIsDetachedWithCleanSignalsAndReaped() async throws {
        try await withTemporaryFolder { folder in
            let pidFile = folder.appendingPathComponent("opener.pid")
            let opener = folder.appendingPathComponent("slow-opener")
            try "#!/bin/sh\necho $$ > '\(pidFile.path).new' && mv '\(pidFile.path).new' '\(pidFile.path)'\nexec sleep 600\n"
                .write(to: opener, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
            let movies = try MoviesProcess(["--offline"], directory: folder, environment: ["MOVIES_OPENER": opener.path])
            movies.send("toxic avenger")
            movies.send("open 1")
            movies.send("show 1")
            // `show 1` runs only once `open 1` has given the prompt back.
            try await movies.waitForStdout("Director:", timeout: .seconds(20))
            let pid = try #require(Int32(String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            defer { kill(pid, SIGKILL) }
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            func mask(_ name: String) -> UInt64? {
                status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                    .flatMap { UInt64($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) }
            }
            #expect(mask("SigBlk") == 0, "blocked: \(String(mask("SigBlk") ?? 0, radix: 16))")
            // Signals 1 to 31 (glibc keeps 32 and 33 for itself).
            #expect((mask("SigIgn") ?? 1) & 0x7FFF_FFFF == 0, "ignored: \(String(mask("SigIgn") ?? 0, radix: 16))")
            let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            #expect(fields.count > 3 && fields[3] == "\(pid)", "not in a session of its own: \(stat)")

            // SIGTERM ends it now; gone from /proc means reaped (a zombie stays listed).
            kill(pid, SIGTERM)
            // Nothing tells of a reaping: look until the pid is gone.
            do {
                try await waitUntil("the opener to be reaped", timeout: .seconds(20), every: .milliseconds(20)) { !FileManager.default.fileExists(atPath: "/proc/\(pid)") }
            } catch {
                Issue.record("not reaped: \((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "")")
            }
            movies.send("quit")
            let outcome = await movies.finish(timeout: .seconds(20))
            #expect(outcome.status == 0)
            #expect(outcome.stdout.contains("Opened https://www.imdb.com/title/tt0090190/"))
        }
    }
}
