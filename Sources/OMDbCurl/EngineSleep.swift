#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CCurl

/// What the engine's thread sleeps on: the sockets libcurl asks it to watch, a wake-up other
/// threads ring, and a timeout. Made and used on that thread; only ``wake(_:)`` is for others.
final class EngineSleep {
    /// What a socket was seen to be, as libcurl's `CURL_CSELECT_*` bits.
    typealias Ready = (socket: Int32, events: Int32)

    /// A sleep's descriptors, made before the engine's thread starts (others may wake it from the
    /// start) and handed to it: numbers, which may cross threads.
    struct Descriptors: Sendable {
        /// What other threads write to, to wake the engine (``EngineSleep/wake(_:)``).
        let wake: Int32
        fileprivate let heard: Int32
        /// The epoll set (Linux); -1 elsewhere.
        fileprivate let epoll: Int32

        /// Nil when the system has no descriptor left for them.
        init?() {
            #if os(Linux)
            wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
            heard = wake
            epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard wake >= 0, epoll >= 0 else {
                close(wake)
                close(epoll)
                return nil
            }
            var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: wake))
            epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event)
            #else
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { return nil }
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
            (heard, wake, epoll) = (ends[0], ends[1], -1)
            #endif
        }
    }

    private let descriptors: Descriptors
    #if os(Linux)
    private var events = [epoll_event](repeating: epoll_event(), count: 32)
    #else
    private var watched: [Int32: Int16] = [:]
    #endif

    /// Takes `descriptors` over: they are closed with the sleep.
    init(_ descriptors: Descriptors) {
        self.descriptors = descriptors
    }

    deinit {
        for descriptor in Set([descriptors.wake, descriptors.heard, descriptors.epoll]) where descriptor >= 0 { close(descriptor) }
    }

    /// Blocks every signal on the calling thread (the engine's) but those of its own faults: no
    /// handler ever runs there, so a sleep ended by EINTR was ended by a stop.
    static func blockSignals() {
        var signals = sigset_t()
        sigfillset(&signals)
        for fault in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP] { sigdelset(&signals, fault) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
    }

    /// Wakes the engine sleeping on the sleep whose ``Descriptors/wake`` this is (any thread).
    static func wake(_ descriptor: Int32) {
        var one: UInt64 = 1
        _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Watches `socket` for what libcurl asks (`CURL_POLL_*`), or no longer.
    func watch(_ socket: Int32, for what: Int32) {
        #if os(Linux)
        guard what != CCURL_POLL_REMOVE else {
            epoll_ctl(descriptors.epoll, EPOLL_CTL_DEL, socket, nil)
            return
        }
        var event = epoll_event(events: (what & CCURL_POLL_IN != 0 ? EPOLLIN.rawValue : 0) | (what & CCURL_POLL_OUT != 0 ? EPOLLOUT.rawValue : 0),
                                data: epoll_data_t(fd: socket))
        // Added, unless watched already (a socket closed unwatched leaves the set by itself).
        if epoll_ctl(descriptors.epoll, EPOLL_CTL_ADD, socket, &event) != 0 { epoll_ctl(descriptors.epoll, EPOLL_CTL_MOD, socket, &event) }
        #else
        watched[socket] = what == CCURL_POLL_REMOVE ? nil
            : (what & CCURL_POLL_IN != 0 ? Int16(POLLIN) : 0) | (what & CCURL_POLL_OUT != 0 ? Int16(POLLOUT) : 0)
        #endif
    }

    /// Sleeps until a watched socket is ready, a wake-up, or `timeout`. `stopped`: the process was
    /// stopped, and is now continued (Linux: a stop ends `epoll_wait` with EINTR once continued, and
    /// nothing else can, the thread blocking every signal); where the sleep is `poll`, never.
    func wait(upTo timeout: Duration) -> (ready: [Ready], stopped: Bool) {
        // Rounded up: a deadline 0.4 ms away is not slept past in a busy loop of zero-length waits.
        let milliseconds = Int32((timeout / .milliseconds(1)).rounded(.up))
        #if os(Linux)
        let count = epoll_wait(descriptors.epoll, &events, Int32(events.count), milliseconds)
        guard count > 0 else { return ([], count < 0 && errno == EINTR) }
        var ready: [Ready] = []
        for event in events.prefix(Int(count)) {
            guard event.data.fd != descriptors.heard else { drainWakes(); continue }
            ready.append((event.data.fd, Self.curlEvents(read: event.events & (EPOLLIN.rawValue | EPOLLHUP.rawValue) != 0,
                                                           write: event.events & EPOLLOUT.rawValue != 0,
                                                           error: event.events & EPOLLERR.rawValue != 0)))
        }
        return (ready, false)
        #else
        var polled = [pollfd(fd: descriptors.heard, events: Int16(POLLIN), revents: 0)]
            + watched.map { pollfd(fd: $0.key, events: $0.value, revents: 0) }
        guard poll(&polled, nfds_t(polled.count), milliseconds) > 0 else { return ([], false) }
        if polled[0].revents != 0 { drainWakes() }
        let ready = polled.dropFirst().filter { $0.revents != 0 }.map { descriptor in
            (descriptor.fd, Self.curlEvents(read: descriptor.revents & Int16(POLLIN | POLLHUP) != 0,
                                            write: descriptor.revents & Int16(POLLOUT) != 0,
                                            error: descriptor.revents & Int16(POLLERR) != 0))
        }
        return (ready, false)
        #endif
    }

    private func drainWakes() {
        var buffer: UInt64 = 0
        while read(descriptors.heard, &buffer, MemoryLayout<UInt64>.size) > 0 {}
    }

    private static func curlEvents(read: Bool, write: Bool, error: Bool) -> Int32 {
        (read ? CCURL_CSELECT_IN : 0) | (write ? CCURL_CSELECT_OUT : 0) | (error ? CCURL_CSELECT_ERR : 0)
    }
}
