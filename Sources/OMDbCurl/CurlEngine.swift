import CCurl
import Foundation
import OMDbKit
import Synchronization

/// One libcurl multi handle and the one thread that drives it.
///
/// Every transfer of a ``CurlTransport`` runs here: libcurl keeps one connection cache, one DNS
/// cache, one TLS session cache and (libcurl 7.87 and later) one parsed CA store for all of them,
/// so a page's requests share their host's connection (HTTP/2 multiplexes them), and the next
/// page finds it open. Other threads never touch a libcurl handle: they post a ``Command`` and
/// wake the thread (`curl_multi_wakeup`), which otherwise sleeps in `curl_multi_poll` until a
/// socket is ready: no busy polling, whatever the latency.
final class CurlEngine: Sendable {
    enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
        case resume(CurlTransfer)
        case stop
    }

    /// What other threads hand over; `closed` once the multi handle is gone, so that no wakeup
    /// ever reaches a freed handle (a wakeup is sent under this lock).
    private struct Inbox {
        var commands: [Command] = []
        var closed = false
    }

    private let inbox = Mutex(Inbox())
    /// Touched by the engine's thread only, but for `curl_multi_wakeup` (thread-safe in libcurl).
    nonisolated(unsafe) private let multi: OpaquePointer
    nonisolated(unsafe) private let share: OpaquePointer
    /// The transfers in libcurl's hands, by easy handle. Engine thread only.
    nonisolated(unsafe) private var active: [OpaquePointer: CurlTransfer] = [:]
    /// Transfers paused for a reader behind (for tests).
    let pauses = Atomic<Int>(0)
    /// What the engine's running time is read from (see ``EngineClock``).
    private let now: @Sendable () -> ContinuousClock.Instant

    /// - Parameter maxConnectionsPerHost: HTTP/1.1 connections to one host at once (HTTP/2 needs one).
    /// - Parameter now: the clock the engine's running time is read from (a seam for tests).
    init(maxConnectionsPerHost: Int, library: String?,
         now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) throws(CurlUnavailable) {
        try CurlLibrary.load(library)
        self.now = now
        guard let multi = ccurl_multi_init(), let share = ccurl_share_init() else {
            throw CurlUnavailable(reason: "libcurl could not make a multi handle")
        }
        self.multi = multi
        self.share = share
        ccurl_multi_setopt_long(multi, CCURLMOPT_PIPELINING, Int(CCURLPIPE_MULTIPLEX))
        ccurl_multi_setopt_long(multi, CCURLMOPT_MAX_HOST_CONNECTIONS, max(1, maxConnectionsPerHost))
        // Room in the cache for every connection a page may open, so none is closed between pages.
        ccurl_multi_setopt_long(multi, CCURLMOPT_MAXCONNECTS, max(8, 2 * maxConnectionsPerHost + 2))
        // Easy handles are made per request: the share keeps DNS answers and TLS sessions for them.
        ccurl_share_setopt_int(share, CCURLSHOPT_SHARE, CCURL_LOCK_DATA_DNS)
        ccurl_share_setopt_int(share, CCURLSHOPT_SHARE, CCURL_LOCK_DATA_SSL_SESSION)
        let thread = Thread { [self] in run() }
        thread.name = "movies.curl"
        thread.start()
    }

    /// Hands `command` to the engine's thread. Ignored once the engine has stopped.
    func post(_ command: Command) {
        inbox.withLock { inbox in
            guard !inbox.closed else { return }
            inbox.commands.append(command)
            ccurl_multi_wakeup(multi)
        }
    }

    // MARK: The engine's thread

    private func run() {
        var stopping = false
        // The engine's running time, which a stopped process does not add to.
        var clock = EngineClock(now: now)
        while true {
            let commands = inbox.withLock { inbox in
                defer { inbox.commands = [] }
                return inbox.commands
            }
            for command in commands {
                switch command {
                case .start(let transfer) where stopping && transfer.isWarmUp: transfer.abandon()
                case .start(let transfer): start(transfer)
                case .cancel(let transfer): remove(transfer, result: nil)
                case .resume(let transfer): transfer.resumeIfPaused()
                case .stop:
                    // The transport is gone, but answers it gave out may still be read: those run
                    // to their end (their bodies keep this engine alive); warm-ups do not.
                    stopping = true
                    for transfer in Array(active.values) where transfer.isWarmUp { remove(transfer, result: nil) }
                }
            }
            if stopping, active.isEmpty { break }
            var running: Int32 = 0
            ccurl_multi_perform(multi, &running)
            var easy: OpaquePointer?
            var result: Int32 = 0
            while ccurl_multi_next_done(multi, &easy, &result) == 1 {
                if let easy, let transfer = active[easy] { finished(transfer, result: result) }
            }
            // After reading the sockets: an answer that came while the process was stopped is taken
            // before any deadline is looked at.
            let wait = chargeDeadlines(clock.tick())
            var ready: Int32 = 0
            // Woken by a socket, a timer of libcurl's, or a command; the timeout is only a backstop,
            // or the next deadline.
            ccurl_multi_poll(multi, Int32(wait.milliseconds), &ready)
        }
        inbox.withLock { $0.closed = true }
        ccurl_multi_cleanup(multi)
        ccurl_share_cleanup(share)
    }

    /// Charges `elapsed` (the engine's running time since the last charge) to every transfer not
    /// paused for its reader, and ends those past their deadline with libcurl's timeout. Returns
    /// how long the engine may sleep: until the nearest deadline, at most the poll's backstop.
    private func chargeDeadlines(_ elapsed: Duration) -> Duration {
        var wait = EngineClock.backstop
        for transfer in Array(active.values) {
            switch transfer.charge(elapsed) {
            case .overdue: remove(transfer, result: CCURLE_OPERATION_TIMEDOUT)
            case .left(let left): wait = min(wait, left)
            case .paused: break
            }
        }
        return max(wait, .milliseconds(1))
    }

    private func start(_ transfer: CurlTransfer) {
        guard !transfer.isAbandoned else { return }
        guard let easy = transfer.makeHandle(share: share) else {
            transfer.fail(TransportError.notSent(reason: "libcurl could not make a request"))
            return
        }
        active[easy] = transfer
        ccurl_multi_add_handle(multi, easy)
    }

    private func finished(_ transfer: CurlTransfer, result: Int32) {
        guard let easy = transfer.easy else { return }
        if result == CCURLE_OK, let next = transfer.redirect {
            // Another request of the same transfer: same handle, same caller.
            ccurl_multi_remove_handle(multi, easy)
            transfer.follow(to: next)
            ccurl_multi_add_handle(multi, easy)
            return
        }
        remove(transfer, result: result)
    }

    /// Takes `transfer` out of libcurl's hands and ends it: with libcurl's `result`, or (nil)
    /// as given up, which answers nobody (the caller was answered when it gave up).
    private func remove(_ transfer: CurlTransfer, result: Int32?) {
        guard let easy = transfer.easy, active.removeValue(forKey: easy) != nil else {
            transfer.abandon()
            return
        }
        ccurl_multi_remove_handle(multi, easy)
        if let result { transfer.complete(result) } else { transfer.abandon() }
        transfer.releaseHandle()
    }
}

/// The transport cannot be set up: libcurl could not be loaded, or a setting it would use is
/// unusable. `reason` says which and why, `advice` what to do.
public struct CurlUnavailable: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public let advice: String

    public init(reason: String, advice: String = "Install libcurl (apt install libcurl4, dnf install libcurl).") {
        self.reason = reason
        self.advice = advice
    }

    public var description: String { "\(reason). \(advice)" }
}

/// libcurl, loaded once per process.
enum CurlLibrary {
    /// - Parameter path: a libcurl of the person's choosing (`MOVIES_LIBCURL`); nil for the system's.
    static func load(_ path: String? = nil) throws(CurlUnavailable) {
        var reason = [CChar](repeating: 0, count: 512)
        guard ccurl_load(path, &reason, reason.count) == 0 else {
            throw CurlUnavailable(reason: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
    }
}
