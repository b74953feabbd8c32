#if canImport(Glibc)
import Foundation
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Dispatch
import Synchronization

/// Ctrl-C: cancels the command that is running, if any; otherwise calls `whenIdle`.
/// SIGINT never kills the process, so a poster write is never cut in half.
final class Interrupts: Sendable {
    private let current = Mutex<Task<Bool, Never>?>(nil)
    private let whenIdle: @Sendable () -> Void
    // Written once by start(), before any signal can arrive, and only kept alive after that.
    nonisolated(unsafe) private var source: (any DispatchSourceSignal)?

    init(whenIdle: @escaping @Sendable () -> Void) {
        self.whenIdle = whenIdle
    }

    /// Starts catching SIGINT. The handler must be `@Sendable`: without it the runtime's
    /// isolation check kills the process on the first Ctrl-C.
    func start() {
        signal(SIGINT, SIG_IGN)
        let signalSource = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        signalSource.setEventHandler { @Sendable [self] in self.interrupt() }
        signalSource.resume()
        source = signalSource
    }

    /// The command now running; `nil` when the prompt is idle.
    func running(_ task: Task<Bool, Never>?) {
        current.withLock { $0 = task }
    }

    func interrupt() {
        if let task = current.withLock({ $0 }) {
            task.cancel()
        } else {
            whenIdle()
        }
    }
}

/// Reads stdin on a thread of its own (a blocking `readLine` must never sit on the
/// cooperative pool) and hands the lines over as they come. Ends at end of input.
enum LineReader {
    static func lines() -> AsyncStream<String> {
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
