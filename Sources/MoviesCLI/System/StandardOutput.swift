#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Foundation
import LineEditing
import Synchronization

/// stdout, written with `write(2)`: every text whole, in one loop under a lock, or the failure's `errno`.
/// ``Interrupts/stop(status:message:)`` takes the lock before the process ends, so a SIGTERM never cuts
/// a line in half; no stdio buffer is lost to `_exit`.
final class StandardOutput: Sendable {
    private let fileDescriptor: Int32
    // `lock(before:)`: the stop must not wait for ever on a reader that never reads. Recursive: the
    // stopping thread holds it to the end and still writes the terminal's restore codes.
    private let lock = NSRecursiveLock()
    /// ``finish(within:)`` was called: the process is on its way out.
    private let ending = Atomic(false)

    init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    /// Writes all of `text`; `nil` when it went out, else the `errno`. Once the process is ending, a write
    /// waits half a second at most for another in progress (it may be blocked for good), then gives up with `EAGAIN`.
    func writeAll(_ text: String) -> Int32? {
        if ending.load(ordering: .acquiring) {
            guard lock.lock(before: Date(timeIntervalSinceNow: 0.5)) else { return EAGAIN }
        } else {
            lock.lock()
        }
        defer { lock.unlock() }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                switch errno {
                case EINTR: continue
                case EAGAIN:
                    // A non-blocking stdout (left so by another program): wait until it takes more.
                    var waiting = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&waiting, 1, -1)
                default: return errno
                }
            }
            return nil
        }
    }

    /// Waits for a write in progress to end (at most `timeout`) and lets no other start:
    /// called once, on the way out of the process.
    func finish(within timeout: TimeInterval = 2) {
        ending.store(true, ordering: .releasing)
        _ = lock.lock(before: Date(timeIntervalSinceNow: timeout))
    }

    /// Opens stdin, stdout and stderr where closed, so a later file can never take their numbers; a closed
    /// stdout gets `/dev/null` read-only, so writes fail with EBADF, which is reported. Call first thing.
    static func holdClosedStandardStreams() {
        for (descriptor, flags) in [(STDIN_FILENO, O_RDONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_WRONLY)]
        where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", flags)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// What a failed write means, for a person.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOSPC: "the disk is full"
        case EBADF: "standard output is closed"
        case EIO: "an input/output error"
        default: String(cString: strerror(code))
        }
    }
}
