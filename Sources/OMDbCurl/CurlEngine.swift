import CCurl
import Files
import Foundation
import OMDbKit
import Synchronization

/// One libcurl multi handle and the one thread that drives it: every transfer of a ``CurlTransport``
/// shares its connection, DNS, TLS session and CA caches. Other threads post a ``Command`` and wake
/// the thread, which otherwise sleeps (``EngineSleep``) until a socket libcurl watches is ready or
/// libcurl's timer is due: no busy polling. What the thread touches is an ``EngineLoop``, which is
/// not `Sendable`: the compiler refuses any other thread a way to it.
final class CurlEngine: Sendable {
    enum Command: Sendable {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
        case resume(CurlTransfer)
        case stop
    }

    /// What other threads hand over; nil once the engine's thread has ended, so that no wakeup ever
    /// reaches a closed descriptor (a wakeup is sent under this lock).
    private let inbox = Mutex<[Command]?>([])
    /// Written to wake the engine's thread (``EngineSleep/wake(_:)``).
    private let wakeDescriptor: Int32
    /// Transfers paused for a reader behind (for tests).
    let pauses = Atomic<Int>(0)

    /// - Parameter maxConnectionsPerHost: HTTP/1.1 connections to one host at once (HTTP/2 needs one).
    /// - Parameter now: the clock the engine's running time is read from (a seam for tests).
    init(maxConnectionsPerHost: Int, library: String?,
         now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) throws(CurlUnavailable) {
        var reason = [CChar](repeating: 0, count: 512)
        var code: Int32 = 0
        guard ccurl_load(library, &reason, reason.count, &code) == 0 else {
            let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A limit reached is no missing libcurl: installing one would not help.
            guard let limit = ProcessLimit.reached(by: code) else { throw CurlUnavailable(reason: text) }
            throw CurlUnavailable(reason: text, advice: limit.advice)
        }
        guard let multi = ccurl_multi_init(), let share = ccurl_share_init() else {
            throw CurlUnavailable(reason: "libcurl could not make a multi handle")
        }
        guard let descriptors = EngineSleep.Descriptors() else {
            ccurl_multi_cleanup(multi)
            ccurl_share_cleanup(share)
            throw CurlUnavailable(reason: "no file descriptor was left for the transport's event loop", advice: "Raise the limit of open files (ulimit -n).")
        }
        ccurl_multi_setopt_long(multi, CCURLMOPT_PIPELINING, Int(CCURLPIPE_MULTIPLEX))
        ccurl_multi_setopt_long(multi, CCURLMOPT_MAX_HOST_CONNECTIONS, max(1, maxConnectionsPerHost))
        // Room in the cache for every connection a page may open, so none is closed between pages.
        ccurl_multi_setopt_long(multi, CCURLMOPT_MAXCONNECTS, max(8, 2 * maxConnectionsPerHost + 2))
        // Easy handles are made per request: the share keeps DNS answers and TLS sessions for them.
        ccurl_share_setopt_int(share, CCURLSHOPT_SHARE, CCURL_LOCK_DATA_DNS)
        ccurl_share_setopt_int(share, CCURLSHOPT_SHARE, CCURL_LOCK_DATA_SSL_SESSION)
        wakeDescriptor = descriptors.wake
        // Handed to the thread, which owns them from its start (pthread_create orders the setting up
        // above before it), as addresses: a pointer is not `Sendable`.
        let handles = (multi: UInt(bitPattern: multi), share: UInt(bitPattern: share))
        if let failure = startThread(name: "movies.curl", { [self] in
            EngineSleep.blockSignals()
            let multi = OpaquePointer(bitPattern: handles.multi).unsafelyUnwrapped
            let share = OpaquePointer(bitPattern: handles.share).unsafelyUnwrapped
            EngineLoop(engine: self, multi: multi, share: share, sleep: EngineSleep(descriptors), now: now).run()
        }) {
            ccurl_multi_cleanup(multi)
            ccurl_share_cleanup(share)
            _ = EngineSleep(descriptors)
            throw CurlUnavailable(reason: "libcurl's thread could not start (\(String(cString: strerror(failure))))",
                                  advice: ProcessLimit.reached(by: failure)?.advice ?? "Try again.")
        }
    }

    /// Hands `command` to the engine's thread. Ignored once the engine has stopped.
    func post(_ command: Command) {
        inbox.withLock { commands in
            guard commands != nil else { return }
            commands?.append(command)
            EngineSleep.wake(wakeDescriptor)
        }
    }

    /// The commands posted since the last call (the engine's thread).
    fileprivate func takeCommands() -> [Command] {
        inbox.withLock { commands in
            defer { commands = [] }
            return commands ?? []
        }
    }

    /// No wakeup is sent from now on: the engine's thread is ending (the engine's thread).
    fileprivate func close() {
        inbox.withLock { $0 = nil }
    }
}

/// The engine's thread: the multi and share handles, and the transfers in libcurl's hands. Made
/// on that thread and never handed elsewhere (it is not `Sendable`).
private final class EngineLoop {
    private let engine: CurlEngine
    private let multi: OpaquePointer
    private let share: OpaquePointer
    /// The transfers in libcurl's hands.
    private var active: [ObjectIdentifier: CurlEasy] = [:]
    private let sleep: EngineSleep
    /// The engine's clock (a seam for tests), and its reading when the last turn began: deadlines are
    /// charged with the engine's running time, each turn all the time it took but a turn the process
    /// was stopped in (Ctrl-Z, `kill -STOP`), which would otherwise fail every request in flight on `fg`.
    private let now: @Sendable () -> ContinuousClock.Instant
    private var lastTurn: ContinuousClock.Instant
    /// The longest the engine's thread sleeps in one turn.
    private static let backstop: Duration = .seconds(1)
    /// When libcurl wants its timer run (CURLMOPT_TIMERFUNCTION); nil: not at all.
    private var curlTimer: ContinuousClock.Instant?
    private var stopping = false

    init(engine: CurlEngine, multi: OpaquePointer, share: OpaquePointer, sleep: EngineSleep,
         now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.engine = engine
        self.multi = multi
        self.share = share
        self.sleep = sleep
        self.now = now
        lastTurn = now()
        // libcurl calls both on this thread, inside its own calls, while this loop runs.
        ccurl_multi_setopt_callbacks(multi, { _, socket, what, context, _ in
            Unmanaged<EngineLoop>.fromOpaque(context.unsafelyUnwrapped).takeUnretainedValue().sleep.watch(socket, for: what)
            return 0
        }, { _, timeout, context in
            Unmanaged<EngineLoop>.fromOpaque(context.unsafelyUnwrapped).takeUnretainedValue().curlTimer = timeout < 0 ? nil : .now + .milliseconds(timeout)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    func run() {
        var ready: [EngineSleep.Ready] = []
        var stopped = false
        while true {
            // The running time of the turn that ended (its sleep included), read before this
            // turn's transfers start: one started now was not running then, and is not charged it.
            let turn = now()
            let elapsed = stopped ? .zero : max(turn - lastTurn, .zero)
            lastTurn = turn
            var started: Set<ObjectIdentifier> = []
            for command in engine.takeCommands() {
                switch command {
                case .start(let transfer) where stopping && transfer.isWarmUp: transfer.abandon()
                case .start(let transfer):
                    start(transfer)
                    started.insert(ObjectIdentifier(transfer))
                case .cancel(let transfer): remove(transfer, result: nil)
                case .resume(let transfer): active[ObjectIdentifier(transfer)]?.continueIfPaused()
                case .stop:
                    // The transport is gone, but answers it gave out may still be read: those run
                    // to their end (their bodies keep this engine alive); warm-ups do not.
                    stopping = true
                    for easy in Array(active.values) where easy.transfer.isWarmUp { remove(easy.transfer, result: nil) }
                }
            }
            if stopping, active.isEmpty { break }
            act(on: ready)
            // After reading the sockets: an answer that came while the process was stopped is taken
            // before any deadline is looked at.
            let charged = chargeDeadlines(elapsed, sparing: started)
            var wait = charged.wait
            if case let overdue = charged.overdue, !overdue.isEmpty {
                // And read again before a request is timed out: a stop that came after the sleep
                // (in a busy turn, which no EINTR tells) was charged, and what came meanwhile waits
                // on the sockets that sleep did not report.
                act(on: sleep.wait(upTo: .zero).ready)
                for transfer in overdue where active[ObjectIdentifier(transfer)] != nil {
                    remove(transfer, result: CCURLE_OPERATION_TIMEDOUT)
                }
            }
            if let due = curlTimer { wait = min(wait, max(due - .now, .zero)) }
            // Woken by a socket, libcurl's timer, or a command; else at the next deadline, or the backstop.
            (ready, stopped) = sleep.wait(upTo: wait)
        }
        engine.close()
        ccurl_multi_cleanup(multi)
        ccurl_share_cleanup(share)
    }

    /// Tells libcurl which sockets are `ready`, runs its timer when due, and ends the transfers it finished.
    private func act(on ready: [EngineSleep.Ready]) {
        var running: Int32 = 0
        for (socket, events) in ready { ccurl_multi_socket_action(multi, socket, events, &running) }
        if let due = curlTimer, due <= .now {
            curlTimer = nil
            ccurl_multi_socket_action(multi, CCURL_SOCKET_TIMEOUT, 0, &running)
        }
        var handle: OpaquePointer?
        var result: Int32 = 0
        while ccurl_multi_next_done(multi, &handle, &result) == 1 {
            if let easy = active.values.first(where: { $0.handle == handle }) { finished(easy, result: result) }
        }
    }

    /// Charges `elapsed` to every transfer but those `started` this turn (after that time ran).
    /// Returns how long the engine may sleep (to the nearest deadline, at most the backstop), and
    /// the transfers past their deadline.
    private func chargeDeadlines(_ elapsed: Duration, sparing started: Set<ObjectIdentifier>) -> (wait: Duration, overdue: [CurlTransfer]) {
        var wait = Self.backstop
        var overdue: [CurlTransfer] = []
        for easy in active.values {
            let spent = started.contains(ObjectIdentifier(easy.transfer)) ? .zero : elapsed
            switch easy.transfer.machine.withLock({ $0.charge(spent) }) {
            case .overdue: overdue.append(easy.transfer)
            case .left(let left): wait = min(wait, left)
            case .paused: break
            }
        }
        return (max(wait, .milliseconds(1)), overdue)
    }

    private func start(_ transfer: CurlTransfer) {
        guard let url = transfer.machine.withLock({ $0.start() }) else { return }
        guard let easy = CurlEasy(for: transfer, url: url, share: share) else {
            // No handle: the transfer ends before it began.
            return transfer.complete(CCURLE_FAILED_INIT)
        }
        active[ObjectIdentifier(transfer)] = easy
        ccurl_multi_add_handle(multi, easy.handle)
    }

    private func finished(_ easy: CurlEasy, result: Int32) {
        if let next = easy.transfer.machine.withLock({ $0.follow(after: result) }) {
            // Another request of the same transfer: same handle, same caller.
            ccurl_multi_remove_handle(multi, easy.handle)
            easy.point(at: next)
            ccurl_multi_add_handle(multi, easy.handle)
            return
        }
        remove(easy.transfer, result: result)
    }

    /// Takes `transfer` out of libcurl's hands and ends it: with libcurl's `result`, or (nil)
    /// as given up, which answers nobody (the caller was answered when it gave up).
    private func remove(_ transfer: CurlTransfer, result: Int32?) {
        guard let easy = active.removeValue(forKey: ObjectIdentifier(transfer)) else {
            transfer.abandon()
            return
        }
        ccurl_multi_remove_handle(multi, easy.handle)
        if let result { transfer.complete(result, systemError: easy.socketError.pointee) } else { transfer.abandon() }
        // The handle is freed with `easy`, now that libcurl no longer holds it.
    }
}

/// The transport cannot be set up: libcurl could not be loaded, or a setting it would use is
/// unusable. `reason` says which and why, `advice` what to do.
public struct CurlUnavailable: Error, Sendable, CustomStringConvertible {
    /// What failed: libcurl not found, a function missing from it, or a handle it could not make.
    public let reason: String
    /// What a person can do about it (by default, how to install libcurl).
    public let advice: String

    /// - Parameters:
    ///   - reason: what failed, without a closing full stop.
    ///   - advice: what to do about it.
    public init(reason: String, advice: String = "Install libcurl (apt install libcurl4, dnf install libcurl).") {
        self.reason = reason
        self.advice = advice
    }

    /// The reason, then the advice, as one line.
    public var description: String { "\(reason). \(advice)" }
}
