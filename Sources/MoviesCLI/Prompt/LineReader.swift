#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Dispatch
import Foundation
import Synchronization

/// The lines of stdin, read on a thread of its own (a blocking `readLine` must not sit on the cooperative
/// pool), through one iterator shared by the command loop and a question asked while a command runs.
@MainActor
final class LineReader {
    private var iterator: AsyncStream<String>.Iterator

    /// From a pipe or file, read ahead; from a terminal, one when asked, so lines typed ahead stay in the
    /// terminal's queue, which Ctrl-C empties.
    init() {
        iterator = (isatty(STDIN_FILENO) == 1 ? Self.linesOnDemand() : Self.linesReadAhead()).makeAsyncIterator()
    }

    /// The next line; `nil` at the end of input.
    func next() async -> String? {
        var copy = iterator
        defer { iterator = copy }
        return await copy.next(isolation: #isolation)
    }

    private nonisolated static func linesOnDemand() -> AsyncStream<String> {
        let asked = DispatchSemaphore(value: 0)
        let waiting = Mutex<CheckedContinuation<String?, Never>?>(nil)
        let thread = Thread {
            while true {
                asked.wait()
                let line = readLine(strippingNewline: true)
                waiting.withLock { $0.take() }?.resume(returning: line)
                if line == nil { return }
            }
        }
        thread.name = "movies.stdin"
        thread.start()
        // Once this gives nil the stream is over: it never asks again.
        return AsyncStream(unfolding: {
            await withCheckedContinuation { continuation in
                waiting.withLock { $0 = continuation }
                asked.signal()
            }
        })
    }

    private nonisolated static func linesReadAhead() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let thread = Thread {
            while let line = readLine(strippingNewline: true) {
                continuation.yield(line)
            }
            continuation.finish()
        }
        thread.name = "movies.stdin"
        thread.start()
        return stream
    }
}
