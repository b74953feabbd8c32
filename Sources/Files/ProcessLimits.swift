import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// A process limit, as `ulimit` names it (its raw value is the option's letter): the one place that
/// turns EMFILE, ENOMEM or EAGAIN into the limit to raise.
package enum ProcessLimit: String, Sendable {
    /// Open files (`ulimit -n`): every connection and every file open takes one.
    case openFiles = "n"
    /// Address space (`ulimit -v`, KB): the program and its libraries, the heap, thread stacks.
    case addressSpace = "v"
    /// Writable memory (`ulimit -d`, KB): the heap and thread stacks.
    case data = "d"
    /// Processes and threads of this user (`ulimit -u`); root is not held to it.
    case processes = "u"
    /// The main thread's stack, and the default for other threads (`ulimit -s`, KB).
    case stack = "s"

    /// The soft limit in `ulimit`'s unit (KB for sizes), or `nil` when there is none.
    package var value: Int? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        if self == .processes, geteuid() == 0 { return nil }
        // No generic conversion: under `ulimit -s 16` building a generic's metadata would overflow the stack.
        let value = isSize ? limit.rlim_cur / 1_024 : limit.rlim_cur
        return value > UInt64(Int.max) ? Int.max : Int(value)
    }

    /// `ulimit -n`.
    package var option: String { "ulimit -\(rawValue)" }

    /// `raise ulimit -n (now 16)`.
    package var raise: String { "raise \(option) (now \(value.map(String.init) ?? "unlimited"))" }
    /// `Raise ulimit -n (now 16).`
    package var advice: String { "R\(raise.dropFirst())." }

    private var isSize: Bool { self == .addressSpace || self == .data || self == .stack }

    #if canImport(Glibc)
    private var resource: __rlimit_resource_t {
        let resource = switch self {
        case .openFiles: RLIMIT_NOFILE
        case .addressSpace: RLIMIT_AS
        case .data: RLIMIT_DATA
        case .processes: __RLIMIT_NPROC
        case .stack: RLIMIT_STACK
        }
        return __rlimit_resource_t(resource.rawValue)
    }
    #else
    private var resource: Int32 {
        switch self {
        case .openFiles: RLIMIT_NOFILE
        case .addressSpace: RLIMIT_AS
        case .data: RLIMIT_DATA
        case .processes: RLIMIT_NPROC
        case .stack: RLIMIT_STACK
        }
    }
    #endif

    /// The limit a failure with `code` ran into: EMFILE, open files; ENOMEM or EAGAIN (a thread's stack
    /// not mapped), the memory limit set, else for EAGAIN `ulimit -u`. `nil` for another error or no limit.
    package static func reached(by code: Int32) -> ProcessLimit? {
        switch code {
        case EMFILE: .openFiles
        case ENOMEM, EAGAIN: [.addressSpace, .data].first { $0.value != nil } ?? (code == EAGAIN && processes.value != nil ? .processes : nil)
        default: nil
        }
    }

    /// A failure's `code` as a limit to raise: `too many open files: raise ulimit -n (now 16)`; `nil` for other errors.
    package static func shortage(_ code: Int32) -> String? {
        if code == ENFILE { return "the system has too many files open" }
        let what = switch code {
        case EMFILE: "too many open files"
        case ENOMEM: "out of memory"
        default: "too many threads"
        }
        return reached(by: code).map { "\(what): \($0.raise)" }
    }
}

/// Starts `body` on a detached thread of its own, with `stackSize` bytes of stack (default: `ulimit -s`).
/// Returns the `errno` when none could start (Foundation's `Thread.start()` fails silently), else `nil`.
package func startThread(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Int32? {
    final class Start: Sendable {
        let name: String, body: @Sendable () -> Void
        init(_ name: String, _ body: @escaping @Sendable () -> Void) { (self.name, self.body) = (name, body) }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    let start = Unmanaged.passRetained(Start(name, body)).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    let failure = pthread_create(&thread, &attributes, { context in
        #if canImport(Glibc)
        let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
        #else
        let start = Unmanaged<Start>.fromOpaque(context).takeRetainedValue()
        #endif
        #if os(Linux)
        // The name ps, top and debuggers show (15 bytes at most): Foundation's never reaches the system here.
        let comm = open("/proc/thread-self/comm", O_WRONLY)
        if comm >= 0 {
            _ = Array(start.name.utf8.prefix(15)).withUnsafeBytes { write(comm, $0.baseAddress, $0.count) }
            close(comm)
        }
        #else
        _ = pthread_setname_np(start.name)
        #endif
        start.body()
        return nil
    }, start)
    guard failure != 0 else { return nil }
    Unmanaged<Start>.fromOpaque(start).release()
    return failure
}
