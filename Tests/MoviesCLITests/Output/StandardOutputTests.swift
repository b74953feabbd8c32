#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import MoviesCLI

/// stdout written whole and checked: failures come back with their errno, and the stop path
/// waits for the text being written.
@Suite struct StandardOutputTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full here (Linux has one)"))
    func aWriteToAFullDiskReportsENOSPC() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(StandardOutput(fileDescriptor: fd).writeAll("{\"a\":1}\n") == ENOSPC)
        #expect(StandardOutput.reason(ENOSPC) == "the disk is full")
    }

    @Test func aWriteToADescriptorNotOpenForWritingReportsEBADF() throws {
        // What `movies … >&-` leaves on fd 1 once the closed streams are held by /dev/null.
        let fd = open("/dev/null", O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(StandardOutput(fileDescriptor: fd).writeAll("line\n") == EBADF)
        #expect(StandardOutput.reason(EBADF) == "standard output is closed")
    }

    @Test func aLongTextGoesOutWholeThroughAPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let text = String(repeating: "0123456789abcdef", count: 40_000) + "\n"
        let reader = Reader(fd: ends[0])
        #expect(StandardOutput(fileDescriptor: ends[1]).writeAll(text) == nil)
        close(ends[1])
        #expect(reader.waitForEnd() == Array(text.utf8))
        close(ends[0])
    }

    /// A SIGTERM takes the output lock on its way out: it waits for the line being written, so no
    /// JSON line is ever torn, and no later line starts. The writer holds that lock for its whole
    /// line, so the stop path holding it once it returns shows that it waited.
    @Test func finishingWaitsForTheTextBeingWritten() throws {
        let blocked = try BlockedWriter()
        let finished = Latch()
        Thread { blocked.output.finish(within: 30); finished.open() }.start()
        let later = Mutex<Int32?>(nil)
        let rest = blocked.drain {
            finished.wait(timeout: .seconds(30))
            // From another thread than the stop path's: a later line does not start, it gives up.
            let written = Latch()
            Thread { later.withLock { $0 = blocked.output.writeAll("{}\n") }; written.open() }.start()
            written.wait(timeout: .seconds(30))
        }
        #expect(rest.count + 1 == BlockedWriter.text.utf8.count)
        #expect(!finished.timedOut)
        #expect(later.withLock { $0 } == EAGAIN, "a line started after the stop path had returned")
    }

    @Test func finishingGivesUpOnAReaderThatNeverReads() throws {
        let blocked = try BlockedWriter()
        let started = ContinuousClock.now
        blocked.output.finish(within: 0.3)
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(blocked.drain().count + 1 == BlockedWriter.text.utf8.count)
    }

    /// Once the way out has given up on a writer blocked for good, its own writes (the terminal
    /// given back) wait a moment, not for that writer: a SIGTERM always ends the process.
    @Test func afterFinishingGaveUpTheWayOutsOwnWritesDoNotWaitForTheBlockedWriter() throws {
        let blocked = try BlockedWriter()
        blocked.output.finish(within: 0.1)
        let restored = DispatchSemaphore(value: 0)
        let result = Mutex<Int32?>(nil)
        Thread {
            let code = blocked.output.writeAll("\u{1B}[?25h")
            result.withLock { $0 = code }
            restored.signal()
        }.start()
        let returned = restored.wait(timeout: .now() + 10) == .success
        #expect(returned, "the way out waited on the blocked writer")
        #expect(result.withLock { $0 } == EAGAIN)
        _ = blocked.drain { if !returned { restored.wait() } }
    }
}

/// A `StandardOutput` on a pipe nobody reads, whose writer of ``text`` is blocked inside its
/// write loop (holding the output's lock) once the first byte has been read.
private final class BlockedWriter: Sendable {
    static let text = String(repeating: "y", count: 1_000_000)
    let output: StandardOutput
    private let ends: (read: Int32, write: Int32)
    private let done = Latch()

    init() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        ends = (fds[0], fds[1])
        output = StandardOutput(fileDescriptor: fds[1])
        Thread { [self] in _ = output.writeAll(Self.text); done.open() }.start()
        var first = [UInt8](repeating: 0, count: 1)
        #expect(read(ends.read, &first, 1) == 1)
    }

    /// Lets the writer end by reading what it writes (closing the pipe would raise SIGPIPE here),
    /// runs `beforeClosing` once it has, and returns the bytes after the first.
    func drain(beforeClosing: () -> Void = {}) -> [UInt8] {
        let rest = Reader(fd: ends.read)
        done.wait(timeout: .seconds(20))
        beforeClosing()
        close(ends.write)
        defer { close(ends.read) }
        return rest.waitForEnd()
    }
}

/// Reads a descriptor to its end on a thread of its own.
private final class Reader: Sendable {
    private let bytes = Mutex<[UInt8]>([])
    private let done = DispatchSemaphore(value: 0)

    init(fd: Int32) {
        Thread { self.readToEnd(fd) }.start()
    }

    private func readToEnd(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            bytes.withLock { $0 += buffer[0..<count] }
        }
        done.signal()
    }

    func waitForEnd() -> [UInt8] {
        done.wait()
        return bytes.withLock { $0 }
    }
}
