#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Foundation
import Synchronization

/// One run of the built `movies`: started with posix_spawn (not Foundation's Process, which
/// reaps its children itself), stdout read line by line with the time each line arrived (and
/// kept whole, with when each chunk of it arrived), and its own peak RSS read while it runs.
/// stdin and stdout are pipes, or one pseudo-terminal (``init(_:_:environment:stderrFile:terminal:)``)
/// when the case must see what a person at a terminal sees: a live page, drawn in place.
///
/// Not wait4's `ru_maxrss` on Linux: exec records the peak RSS of the memory it replaces, and
/// posix_spawn's child (CLONE_VM) replaces the bench's own, so every child read at least the
/// bench's peak (`/bin/true` spawned from a 200 MB process reads 218 MB). The peak of the child's
/// own memory is `VmHWM` in /proc/PID/status, a high-water mark, read until the child is gone.
final class Child: Sendable {
    /// How the run ended.
    struct Exit {
        let status: Int32
        /// Peak resident memory of the child alone, in bytes.
        let peakMemory: Int
        /// Milliseconds from spawn to exit.
        let milliseconds: Double
        /// CPU seconds of the child, user + system (wait4's rusage).
        let cpuSeconds: Double
    }

    let pid: pid_t
    let started: ContinuousClock.Instant
    private let stdinFD: Int32
    /// Lines read so far, with when each arrived; shared with the reader thread.
    private final class Lines: Sendable {
        let state = Mutex<[(at: ContinuousClock.Instant, text: String)]>([])
        func withLock<T>(_ body: (inout [(at: ContinuousClock.Instant, text: String)]) -> T) -> T { state.withLock { body(&$0) } }
    }

    private let lines = Lines()
    /// Every byte read so far, and the arrival time of each chunk (the offset just past its end).
    private final class Bytes: Sendable {
        let state = Mutex<(bytes: [UInt8], chunks: [(end: Int, at: ContinuousClock.Instant)])>(([], []))
    }

    private let bytes = Bytes()
    private let readerDone = DispatchSemaphore(value: 0)
    /// The highest `VmHWM` read so far, in bytes (Linux), and the signal that the sampler stopped.
    private final class Peak: Sendable {
        let bytes = Mutex(0)
    }

    private let peak = Peak()
    private let samplerDone = DispatchSemaphore(value: 0)

    /// Starts `executable arguments` with exactly `environment`; stderr goes to `stderrFile`.
    /// With `terminal`, stdin and stdout are one pseudo-terminal of that many columns and rows
    /// (`isatty` true on both, so `movies` draws its live page, given a `TERM` that is not
    /// `dumb`); without, each is a pipe.
    init(_ executable: String, _ arguments: [String], environment: [String: String], stderrFile: String,
         terminal: (columns: Int, rows: Int)? = nil) throws {
        // [child's end, parent's end] of stdin and of stdout.
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        if let terminal {
            let (master, slave) = try Self.openTerminal(columns: terminal.columns, rows: terminal.rows)
            // The parent writes stdin and reads stdout through the master: a descriptor each, so
            // that finish() closing stdin does not close the reader's (nor hang up the terminal).
            let writer = dup(master)
            guard writer >= 0 else { close(master); close(slave); throw BenchError("dup failed: \(errno)") }
            _ = fcntl(writer, F_SETFD, FD_CLOEXEC)
            input = [slave, writer]
            output = [fcntl(slave, F_DUPFD_CLOEXEC, 0), master]
            guard output[0] >= 0 else { close(master); close(slave); close(writer); throw BenchError("dup failed: \(errno)") }
        } else {
            var inPipe: [Int32] = [0, 0]
            var outPipe: [Int32] = [0, 0]
            guard pipe(&inPipe) == 0, pipe(&outPipe) == 0 else { throw BenchError("pipe failed: \(errno)") }
            input = [inPipe[0], inPipe[1]]
            output = [outPipe[1], outPipe[0]]
        }
        // The parent's ends must not leak into the child.
        _ = fcntl(input[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(output[1], F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[0], 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrFile, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addclose(&actions, input[0])
        posix_spawn_file_actions_addclose(&actions, output[0])
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let started = ContinuousClock.now
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        // The child's ends close here: a pipe's reader, or the master of a terminal, then sees
        // the end (EOF, or EIO) once the child and its own children are gone.
        close(input[0])
        close(output[0])
        guard result == 0 else {
            close(input[1]); close(output[1])
            throw BenchError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        self.started = started
        stdinFD = input[1]
        let fd = output[1]
        let lines = self.lines
        let bytes = self.bytes
        let done = readerDone
        let reader = Thread {
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                let now = ContinuousClock.now
                bytes.state.withLock {
                    $0.bytes.append(contentsOf: chunk[..<n])
                    $0.chunks.append((end: $0.bytes.count, at: now))
                }
                pending.append(contentsOf: chunk[..<n])
                while let newline = pending.firstIndex(of: 10) {
                    let text = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeFirst(newline + 1)
                    lines.withLock { $0.append((now, text)) }
                }
            }
            close(fd)
            done.signal()
        }
        reader.start()
        #if os(Linux)
        let peak = self.peak, samplerDone = self.samplerDone, child = pid
        let sampler = Thread {
            // Every 5 ms until the child is a zombie or reaped: the mark only rises, so the last
            // read holds the peak of all but the child's last few milliseconds.
            while let mark = Self.highWaterMark(of: child) {
                peak.bytes.withLock { $0 = max($0, mark) }
                usleep(5_000)
            }
            samplerDone.signal()
        }
        sampler.start()
        #endif
    }

    /// A pseudo-terminal of `columns` × `rows` (what the child's TIOCGWINSZ reads), as (master,
    /// slave), both close-on-exec (posix_spawn's dup2 clears the flag on 0 and 1).
    private static func openTerminal(columns: Int, rows: Int) throws -> (master: Int32, slave: Int32) {
        var master: Int32 = -1, slave: Int32 = -1
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            throw BenchError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        return (master, slave)
    }

    /// `VmHWM` of /proc/`pid`/status in bytes; nil once the process has no memory (a zombie) or is gone.
    private static func highWaterMark(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).dropLast(3))
        else { return nil }
        return kilobytes * 1024
    }

    /// CPU seconds the running child has used so far (user + system, /proc/PID/stat, in clock
    /// ticks of 10 ms); nil where /proc cannot tell.
    var cpuSecondsSoFar: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command name: state is field 3, utime and stime fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Types a line on the child's stdin.
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(stdinFD, $0.baseAddress, $0.count) }
    }

    /// Closes stdin (Ctrl-D), waits for the exit and reads the child's own peak RSS.
    func finish() -> Exit {
        close(stdinFD)
        var status: Int32 = 0
        var usage = rusage()
        #if os(Linux)
        // Waits for the exit but leaves the zombie, which keeps its PID (no other process can take
        // it while the sampler still reads /proc) and has no VmHWM, which stops the sampler.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        samplerDone.wait()
        #endif
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = ContinuousClock.now - started
        readerDone.wait()
        #if os(Linux)
        let peak = self.peak.bytes.withLock { $0 }   // 0 when /proc could not be read: shown as unknown
        #else
        let peak = Int(usage.ru_maxrss)            // bytes on Darwin
        #endif
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return Exit(status: code, peakMemory: peak, milliseconds: elapsed.milliseconds, cpuSeconds: cpu)
    }

    /// Waits until a line after the first `skip` lines matches, and returns its arrival time
    /// and index; `nil` if the output ended (or `timeout` passed) without one.
    func waitForLine(after skip: Int = 0, timeout: Duration = .seconds(120),
                     where matches: (String) -> Bool) -> (at: ContinuousClock.Instant, index: Int)? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = lines.withLock { lines -> (ContinuousClock.Instant, Int)? in
                guard lines.count > skip else { return nil }
                return lines[skip...].firstIndex { matches($0.text) }.map { (lines[$0].at, $0) }
            }
            if let found { return found }
            if readerDone.wait(timeout: .now()) == .success {
                readerDone.signal()   // keep it signalled for finish()
                return lines.withLock { lines in lines[min(skip, lines.count)...].firstIndex { matches($0.text) }.map { (lines[$0].at, $0) } }
            }
            usleep(500)
        }
        return nil
    }

    /// Waits until `text` shows in the output, and returns when the chunk that completed its
    /// first occurrence arrived; `nil` if the output ended (or `timeout` passed) without it.
    /// The bytes are searched as they came, escape codes and all: on a terminal, a line drawn
    /// in place shows here each time it is drawn, and this finds the first.
    func waitForText(_ text: String, timeout: Duration = .seconds(120)) -> ContinuousClock.Instant? {
        let needle = Array(text.utf8)
        guard !needle.isEmpty else { return started }
        let deadline = ContinuousClock.now + timeout
        var searched = 0   // every occurrence starting before this offset has been looked for
        func find() -> ContinuousClock.Instant? {
            bytes.state.withLock { state -> ContinuousClock.Instant? in
                let bytes = state.bytes
                guard bytes.count >= needle.count else { return nil }
                let last = bytes.count - needle.count
                var start = searched
                while start <= last {
                    if bytes[start] == needle[0], bytes[start..<(start + needle.count)].elementsEqual(needle) {
                        let end = start + needle.count
                        return state.chunks.first { $0.end >= end }?.at
                    }
                    start += 1
                }
                searched = last + 1
                return nil
            }
        }
        while ContinuousClock.now < deadline {
            if let found = find() { return found }
            if readerDone.wait(timeout: .now()) == .success {
                readerDone.signal()   // keep it signalled for finish()
                return find()
            }
            usleep(500)
        }
        return nil
    }

    /// Every line read so far.
    var output: [String] { lines.withLock { $0.map(\.text) } }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
