import Dispatch
@testable import Files
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite struct FileWorkTests {
    /// Blocking work (a `flock` held by another process, a slow disk) must not hold up other file
    /// work, nor the cooperative pool: more items blocked than there are cores, and one more still runs.
    @Test func workThatBlocksDoesNotHoldUpOtherWork() async {
        let release = DispatchSemaphore(value: 0)
        let started = Watched(0)
        let count = ProcessInfo.processInfo.activeProcessorCount + 4
        let blocked = (0..<count).map { _ in
            Task { await FileWork.run { started.update { $0 += 1 }; release.wait() } }
        }
        // Generous: on a loaded run the pool may take seconds to start the tasks at all.
        let allStarted = (try? await started.wait("\(count) blocked items to start") { $0 == count }) != nil
        #expect(allStarted)
        #expect(await FileWork.run { 42 } == 42)
        for _ in blocked { release.signal() }
        for task in blocked { await task.value }
    }

    @Test func aLaneRunsItsWorkInTheOrderAsked() async {
        let lane = FileWork.lane("test-lane")
        let order = Mutex<[Int]>([])
        for n in 0..<50 { lane.async { order.withLock { $0.append(n) } } }
        try? await FileWork.runUnlessCancelled(on: lane) {}
        #expect(order.withLock { $0 } == Array(0..<50))
    }

    /// A caller cancelled while its work blocks leaves at once; the work runs on to its end, and a
    /// caller cancelled before asking never starts any.
    @Test func aCancelledCallerLeavesWhileItsWorkRunsOn() async throws {
        let lane = FileWork.lane("test-cancel")
        let (started, release, ended) = (Latch(), Latch(), Latch())
        let caller = Task {
            try await FileWork.runUnlessCancelled(on: lane) {
                started.open()
                release.wait(timeout: .seconds(60))
                ended.open()
            }
        }
        try await started.wait(for: "the work to start")
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        release.open()
        try await ended.wait(for: "the work to end")
        let ran = Watched(false)
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await FileWork.runUnlessCancelled(on: lane) { ran.update { $0 = true } }
        }
        await #expect(throws: CancellationError.self) { try await late.value }
        try await FileWork.runUnlessCancelled(on: lane) {}
        #expect(ran.update { $0 } == false)
    }
}
