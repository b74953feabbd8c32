#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Files
import Foundation

/// What the process's limits (`ulimit`) leave a run, measured before it starts: as many requests at once
/// as open files, memory and threads allow, or the limit to raise. Later there is no good ending:
/// Dispatch retries a thread for ever, and Swift stops at a failed allocation.
struct RunLimits {
    /// Requests in flight at once.
    let concurrency: Int
    /// The limit that lowered ``concurrency`` below what was asked, if one did.
    let lowering: ProcessLimit?

    /// The limits, for `wanted` requests at once; throws when they leave room for none.
    static func check(concurrency wanted: Int) throws(Shortage) -> RunLimits {
        var (concurrency, lowering) = (wanted, ProcessLimit?.none)
        let byOpenFiles = ProcessLimit.openFiles.value.map { ($0 - filesHeld - inheritedFiles) / filesPerRequest }
        for (limit, allowed) in [(ProcessLimit.openFiles, byOpenFiles), (.addressSpace, requestsByMemory(.addressSpace)),
                                 (.data, requestsByMemory(.data))] {
            guard let allowed, allowed < concurrency else { continue }
            guard allowed >= 1 else { throw Shortage(limit: limit, needed: needed(limit)) }
            (concurrency, lowering) = (allowed, limit)
        }
        // How many more threads may start depends on the user's other processes: start them to know.
        if ProcessLimit.processes.value.map({ $0 < 4_096 }) == true {
            let started = threadsThatStart(upTo: threads(concurrency)), allowed = started - threads(0)
            // The user's other processes and threads take the rest of the limit.
            guard allowed >= 1 else { throw Shortage(limit: .processes, needed: (ProcessLimit.processes.value ?? 0) - started + threads(1)) }
            if allowed < concurrency { (concurrency, lowering) = (allowed, .processes) }
        }
        return RunLimits(concurrency: concurrency, lowering: lowering)
    }

    /// Not even one request fits in `limit`, which needs to be `needed` (in `ulimit`'s unit) or more.
    struct Shortage: Error, Equatable {
        let limit: ProcessLimit
        let needed: Int

        /// One line: `too few open files for movies: ulimit -n is 8, and it needs 25 or more. Raise it (ulimit -n 25).`
        var message: String {
            let what = switch limit {
            case .openFiles: "too few open files"
            case .addressSpace, .data: "too little memory"
            // (A stack too small is said before anything runs: Runtime.)
            case .processes, .stack: "too few threads"
            }
            return "\(what) for movies: \(limit.option) is \(limit.value.map(String.init) ?? "unlimited")\(RunLimits.openAlready(limit)), "
                + "and it needs \(needed) or more. Raise it (\(limit.option) \(needed))."
        }
    }

    /// The least stack (`ulimit -s`, KB) Swift's start-up runs in (type metadata recurses deeply);
    /// ``Runtime`` says it as a literal.
    static let stackKilobytes = 128

    // MARK: Open files

    /// Descriptors a run holds whatever it sends: stdio, Dispatch's, libcurl's, the signal pipe, the
    /// day's count and its lock, two posters being written with their folders.
    static let filesHeld = 22
    /// A request's: its connection, its answer's cache entry, its poster's file.
    static let filesPerRequest = 3

    /// Descriptors the process was started with besides stdin, stdout and stderr (a shell's `exec 3<…`):
    /// they count against `ulimit -n` too. ``Runtime`` reads this first, before the run opens its own.
    static let inheritedFiles: Int = {
        #if os(Linux)
        let listing = "/proc/self/fd"
        #else
        let listing = "/dev/fd"
        #endif
        // The listing's own descriptor is in it.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: listing) else { return 0 }
        return max(0, names.count - 4)
    }()

    /// ` (20 open already)` after `ulimit -n is 32`, when the process was started with some.
    static func openAlready(_ limit: ProcessLimit) -> String {
        limit == .openFiles && inheritedFiles > 0 ? " (\(inheritedFiles) open already)" : ""
    }

    // MARK: Memory and threads

    /// Threads a run has whatever it sends (main, signals, libcurl, stdin, Dispatch's two) plus one a core.
    static func threads(_ requests: Int) -> Int { 6 + ProcessInfo.processInfo.activeProcessorCount + requests }

    /// Memory a run maps after this point, thread stacks apart: libcurl and its libraries, the heap's growth.
    static let bytesHeld = 32 << 20

    /// A thread's stack as glibc maps it (by default, `ulimit -s`), and its guard page.
    static var stackBytes: Int {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        var size = 0
        pthread_attr_getstacksize(&attributes, &size)
        return size + Int(getpagesize())
    }

    /// Requests that fit in what `limit` (address space or data) leaves, or `nil` when it is not set.
    static func requestsByMemory(_ limit: ProcessLimit) -> Int? {
        guard let kilobytes = limit.value, let used = mappedKilobytes(limit) else { return nil }
        let left = (kilobytes - used) * 1_024 - bytesHeld
        return left / stackBytes - threads(0)
    }

    /// What `limit` needs for one request, in `ulimit`'s unit, rounded up to a thousand.
    static func needed(_ limit: ProcessLimit) -> Int {
        switch limit {
        case .openFiles: return filesHeld + inheritedFiles + filesPerRequest
        case .addressSpace, .data:
            let used = mappedKilobytes(limit) ?? 0
            let kilobytes = used + (bytesHeld + threads(1) * stackBytes) / 1_024
            return (kilobytes + 999) / 1_000 * 1_000
        case .processes, .stack: return threads(1)
        }
    }

    /// What the process maps against `limit` (address space or data), from `/proc/self/status`
    /// (`VmSize:  138916 kB`), in KB; `nil` where there is none.
    static func mappedKilobytes(_ limit: ProcessLimit) -> Int? {
        let field = limit == .addressSpace ? "VmSize" : "VmData"
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return nil }
        return Int(line.dropFirst(field.count + 1).filter(\.isNumber))
    }

    /// How many of `count` threads start, all alive at once (each waits until all are started, then ends).
    static func threadsThatStart(upTo count: Int) -> Int {
        let (release, ended) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        var started = 0
        // Small stacks: this counts threads, and memory is ``requestsByMemory(_:)``'s to count.
        while started < count, startThread(name: "movies.probe", stackSize: 256 * 1_024, { release.wait(); ended.signal() }) == nil {
            started += 1
        }
        for _ in 0..<started { release.signal() }
        for _ in 0..<started { ended.wait() }
        return started
    }
}
