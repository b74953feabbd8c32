import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `movies`, run as a person or a script would: its own process, piped stdin,
/// stdout and stderr captured apart.
struct MoviesProcess {
    struct Outcome {
        let status: Int32
        let stdout: String
        /// stderr without the notice every run against the fake server begins with ("Note: OMDb
        /// requests go to 127.0.0.1…"), so tests of other messages can count lines.
        var stderr: String { fullStderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix(Self.fakeServerNotice) }.joined(separator: "\n") }
        /// stderr as written.
        let fullStderr: String
        /// False when a signal ended the process (then `status` is the signal's number).
        var exited = true

        static let fakeServerNotice = "Note: OMDb requests go to 127.0.0.1 "
    }

    /// `.build/…/movies`, next to the test bundle that `swift test` built alongside it.
    static let executable = builtProduct("movies")

    /// The offline catalogue in the sources (the library's resource), which every run answers from.
    static let catalogueFolder = repositoryRoot.appendingPathComponent("Sources/OMDbCatalogue/Catalogue")

    let process = Process()
    /// Opens when the process exits.
    let exited: Latch
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let collected = Collected()

    /// Starts `movies arguments` in `directory` with exactly `environment` (plus PATH and HOME).
    /// - Parameters:
    ///   - closeOutputAfterLines: when set, the read end of stdout is closed once that
    ///     many lines have arrived, as `movies … | head -n N` would.
    ///   - stdoutRedirect: a shell redirection for stdout instead of the pipe, such as
    ///     `> /dev/full` or `>&-` (the tool then runs under `/bin/sh -c 'exec …'`).
    ///   - executable: another program to run the same way (an installed `movies`, a shell, make).
    init(_ arguments: [String], directory: URL, environment: [String: String] = [:], closeOutputAfterLines: Int? = nil,
         stdoutRedirect: String? = nil, executable: URL = MoviesProcess.executable) throws {
        if let stdoutRedirect {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \"$0\" \"$@\" \(stdoutRedirect)", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory.path,
                   "MOVIES_CATALOGUE": Self.catalogueFolder.path]
        env.merge(environment) { _, new in new }
        process.environment = env
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        exited = try process.runWatchingExit()
        collected.start(output.fileHandleForReading, errors.fileHandleForReading, closeOutputAfterLines: closeOutputAfterLines)
    }

    /// Types a line. A tool that has exited already reads nothing: the write fails, and the
    /// SIGPIPE it raises is taken here instead of killing the whole test run (seen under load).
    func send(_ line: String) {
        let handle = input.fileHandleForWriting
        #if canImport(Darwin)
        _ = fcntl(handle.fileDescriptor, F_SETNOSIGPIPE, 1)
        _ = try? handle.write(contentsOf: Data((line + "\n").utf8))
        #else
        // The signal of a failed write to a pipe goes to the thread that wrote: blocked here, and
        // taken while still blocked, it never reaches the process.
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        _ = try? handle.write(contentsOf: Data((line + "\n").utf8))
        var pending = sigset_t()
        sigpending(&pending)
        if sigismember(&pending, SIGPIPE) == 1 {
            var now = timespec()
            _ = sigtimedwait(&pipeSignal, nil, &now)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        #endif
    }

    /// Ctrl-C.
    func interrupt() { kill(process.processIdentifier, SIGINT) }

    /// Sends `signal` (SIGTERM, SIGHUP…).
    func send(signal: Int32) { kill(process.processIdentifier, signal) }

    /// What stderr holds so far.
    var stderrSoFar: String { collected.text.1 }
    /// What stdout holds so far.
    var stdoutSoFar: String { collected.text.0 }

    /// Suspends until stdout holds `text` (each chunk read wakes it).
    func waitForStdout(_ text: String, timeout: Duration = .seconds(60)) async throws {
        try await collected.wait("\"\(text)\" on stdout", timeout: timeout) { $0.out.contains(text) }
    }

    /// Suspends until stderr holds `text`.
    func waitForStderr(_ text: String, timeout: Duration = .seconds(60)) async throws {
        try await collected.wait("\"\(text)\" on stderr", timeout: timeout) { $0.err.contains(text) }
    }

    /// Suspends until the output so far satisfies `condition`.
    func waitForOutput(_ what: String, timeout: Duration = .seconds(60), until condition: @escaping @Sendable (_ out: String, _ err: String) -> Bool) async throws {
        try await collected.wait(what, timeout: timeout) { condition($0.out, $0.err) }
    }

    /// Closes stdin (Ctrl-D) and waits for the exit, killing the process after `timeout`.
    func finish(timeout: Duration = .seconds(60)) async -> Outcome {
        try? input.fileHandleForWriting.close()
        if (try? await exited.wait(for: "movies to exit", timeout: timeout)) == nil { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // A child of the tool that kept stdout or stderr open would hold the readers: not for good.
        if !collected.wait(timeout: .seconds(20)) {
            Issue.record("stdout or stderr still open 20 s after movies exited (a child process kept it?)")
        }
        let (out, err) = collected.text
        return Outcome(status: process.terminationStatus, stdout: out, fullStderr: err, exited: process.terminationReason == .exit)
    }

    /// Runs to the end with `lines` on stdin.
    static func run(_ arguments: [String], lines: [String] = [], directory: URL, environment: [String: String] = [:],
                    stdoutRedirect: String? = nil, executable: URL = MoviesProcess.executable) async throws -> Outcome {
        let process = try MoviesProcess(arguments, directory: directory, environment: environment,
                                        stdoutRedirect: stdoutRedirect, executable: executable)
        for line in lines { process.send(line) }
        return await process.finish()
    }
}

/// Reads both pipes to the end on their own threads, so a full pipe never blocks the child.
private final class Collected: Sendable {
    private let bytes = Watched((out: Data(), err: Data()))
    private let done = DispatchGroup()

    /// - Parameter closeOutputAfterLines: close `stdout` (the read end) once that many lines came.
    func start(_ stdout: FileHandle, _ stderr: FileHandle, closeOutputAfterLines: Int? = nil) {
        for (handle, isOut) in [(stdout, true), (stderr, false)] {
            done.enter()
            Thread {
                while true {
                    // Not `availableData`: it traps on a read error (ENOTCONN once the other end is
                    // gone). A plain read returns what is there; an error or the end stops the loop.
                    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                    let count = read(handle.fileDescriptor, &buffer, buffer.count)
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { break }
                    let chunk = Data(buffer[..<count])
                    let lines = self.bytes.update { bytes -> Int in
                        if isOut { bytes.out += chunk } else { bytes.err += chunk }
                        return bytes.out.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                    }
                    if isOut, let limit = closeOutputAfterLines, lines >= limit {
                        try? handle.close()
                        break
                    }
                }
                self.done.leave()
            }.start()
        }
    }

    /// Waits until both pipes reached their end: false if `timeout` passed first.
    func wait(timeout: Duration) -> Bool {
        done.wait(timeout: .now() + timeout.seconds) == .success
    }

    /// Suspends until the text so far satisfies `condition`.
    func wait(_ what: String, timeout: Duration, until condition: @escaping @Sendable ((out: String, err: String)) -> Bool) async throws {
        try await bytes.wait(what, timeout: timeout) { condition(Self.decode($0)) }
    }

    var text: (String, String) { Self.decode(bytes.value) }

    private static func decode(_ bytes: (out: Data, err: Data)) -> (out: String, err: String) {
        (String(decoding: bytes.out, as: UTF8.self), String(decoding: bytes.err, as: UTF8.self))
    }
}
