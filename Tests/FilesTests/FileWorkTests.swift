import Dispatch
@testable import Files
import Foundation
import Synchronization
import Testing

@Suite struct FileWorkTests {
    /// Blocking work (a `flock` held by another process, a slow disk) must not hold up other file
    /// work, nor the cooperative pool: more items blocked than there are cores, and one more still runs.
    @Test func workThatBlocksDoesNotHoldUpOtherWork() async {
        let release = DispatchSemaphore(value: 0)
        let started = Count()
        let count = ProcessInfo.processInfo.activeProcessorCount + 4
        let blocked = (0..<count).map { _ in
            Task { await FileWork.run { started.add(); release.wait() } }
        }
        // Generous: on a loaded run the pool may take seconds to start the tasks at all; a
        // deadline that passes fails below.
        let deadline = ContinuousClock.now + .seconds(60)
        while started.value < count, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(started.value == count)
        #expect(await FileWork.run { 42 } == 42)
        for _ in blocked { release.signal() }
        for task in blocked { await task.value }
    }

    @Test func aLaneRunsItsWorkInTheOrderAsked() async {
        let lane = FileWork.lane("test-lane")
        let order = Mutex<[Int]>([])
        for n in 0..<50 { lane.async { order.withLock { $0.append(n) } } }
        await FileWork.run(on: lane) {}
        #expect(order.withLock { $0 } == Array(0..<50))
    }
}

/// How many times `add` ran, from any thread.
private final class Count: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
