#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import Testing
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
    /// JSON line is ever torn, and no later line starts.
    @Test func finishingWaitsForTheTextBeingWritten() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let output = StandardOutput(fileDescriptor: ends[1])
        let text = Array(repeating: UInt8(ascii: "x"), count: 300_000) + [UInt8(ascii: "\n")]
        let writeEnd = ends[1]
        let writer = Thread { _ = output.writeAll(String(decoding: text, as: UTF8.self)); close(writeEnd) }
        writer.start()
        // The first bytes arrive: the writer is inside its write loop, blocked on the full pipe.
        var first = [UInt8](repeating: 0, count: 1)
        #expect(read(ends[0], &first, 1) == 1)
        let finished = Mutex(false)
        Thread { output.finish(within: 30); finished.withLock { $0 = true } }.start()
        // Asserting that something does not happen needs a little time.
        usleep(200_000)
        #expect(finished.withLock { $0 } == false, "the stop path did not wait for the line")
        let rest = Reader(fd: ends[0]).waitForEnd()
        #expect(first.count + rest.count == text.count)
        let deadline = ContinuousClock.now + .seconds(20)
        while !finished.withLock({ $0 }), ContinuousClock.now < deadline { usleep(5_000) }
        #expect(finished.withLock { $0 })
    }

    @Test func finishingGivesUpOnAReaderThatNeverReads() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let output = StandardOutput(fileDescriptor: ends[1])
        let big = String(repeating: "y", count: 1_000_000)
        let done = Mutex(false)
        Thread { _ = output.writeAll(big); done.withLock { $0 = true } }.start()
        var first = [UInt8](repeating: 0, count: 1)
        #expect(read(ends[0], &first, 1) == 1)
        let started = ContinuousClock.now
        output.finish(within: 0.3)
        #expect(ContinuousClock.now - started < .seconds(10))
        // Let the writer end: read what it writes (closing the pipe would raise SIGPIPE here).
        let rest = Reader(fd: ends[0])
        let deadline = ContinuousClock.now + .seconds(20)
        while !done.withLock({ $0 }), ContinuousClock.now < deadline { usleep(5_000) }
        close(ends[1])
        #expect(rest.waitForEnd().count + 1 == big.utf8.count)
        close(ends[0])
    }

    /// Once the way out has given up on a writer blocked for good, its own writes (the terminal
    /// given back) wait a moment, not for that writer: a SIGTERM always ends the process.
    @Test func afterFinishingGaveUpTheWayOutsOwnWritesDoNotWaitForTheBlockedWriter() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let output = StandardOutput(fileDescriptor: ends[1])
        let big = String(repeating: "y", count: 1_000_000)
        let done = Mutex(false)
        Thread { _ = output.writeAll(big); done.withLock { $0 = true } }.start()
        var first = [UInt8](repeating: 0, count: 1)
        #expect(read(ends[0], &first, 1) == 1)
        output.finish(within: 0.1)
        let restored = DispatchSemaphore(value: 0)
        let result = Mutex<Int32?>(nil)
        Thread {
            let code = output.writeAll("\u{1B}[?25h")
            result.withLock { $0 = code }
            restored.signal()
        }.start()
        let returned = restored.wait(timeout: .now() + 10) == .success
        #expect(returned, "the way out waited on the blocked writer")
        #expect(result.withLock { $0 } == EAGAIN)
        // Let the writer end: read what it writes (closing the pipe would raise SIGPIPE here).
        let rest = Reader(fd: ends[0])
        let deadline = ContinuousClock.now + .seconds(20)
        while !done.withLock({ $0 }), ContinuousClock.now < deadline { usleep(5_000) }
        if !returned { restored.wait() }
        close(ends[1])
        _ = rest.waitForEnd()
        close(ends[0])
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
