import Foundation
import Testing
@testable import OMDbKit

/// ``BodyFeedStateMachine`` fed events one by one: no threads, no continuations, no transport.
/// Readers are numbers, sinks are names; each test walks states and transitions and checks the
/// actions they return.
@Suite struct BodyFeedStateMachineTests {
    typealias Machine = BodyFeedStateMachine<Int, Int, String>

    private static func chunk(_ size: Int) -> Data { Data(repeating: 1, count: size) }

    private struct Failure: Error, Equatable {}

    /// The pushers (or pullers) resumed, and whether each succeeded.
    private static func resumed(_ resumes: [Machine.Resume]) -> [String] {
        resumes.map {
            switch $0 {
            case let .puller(id, result): "pull \(id) \(Self.succeeded(result) ? "ok" : "failed")"
            case let .pusher(id, result): "push \(id) \(Self.succeeded(result) ? "ok" : "failed")"
            }
        }
    }

    private static func succeeded<T>(_ result: Result<T, any Error>) -> Bool {
        if case .success = result { true } else { false }
    }

    @Test func withoutAReaderChunksWaitUpToTheHighWaterMarkThenTheTransferPauses() {
        var machine = Machine(highWater: 10)
        #expect(machine.receive(Self.chunk(6)) == (.taken, nil, false))
        #expect(machine.receive(Self.chunk(6)) == (.taken, nil, false))
        #expect(machine.receive(Self.chunk(6)) == (.full, nil, false))
        #expect(machine.paused)
        #expect(machine.pendingBytes == 12)
        // A puller takes the first: 6 left, more than half of 10: still paused.
        let (first, resumeFirst) = machine.pull(1, cancelled: false)
        #expect((try? first?.get())??.count == 6)
        #expect(!resumeFirst)
        // The second: nothing left, the transfer resumes.
        let (_, resumeSecond) = machine.pull(1, cancelled: false)
        #expect(resumeSecond)
        #expect(!machine.paused)
    }

    @Test func aParkedPullerGetsTheNextChunkHandedOverAndTheEnd() {
        var machine = Machine(highWater: 10)
        let (nothing, _) = machine.pull(7, cancelled: false)
        #expect(nothing == nil)
        #expect(machine.receive(Self.chunk(3)) == (.taken, 7, false))
        #expect(machine.receivedBytes == 3)
        _ = machine.pull(7, cancelled: false)
        #expect(Self.resumed(machine.finish(.success(())).resumes) == ["pull 7 ok"])
        guard case .done = machine.reader else { Issue.record("not done"); return }
        #expect(machine.receive(Self.chunk(1)) == (.stopped, nil, false))
    }

    @Test func aCancelledPullerIsNotParked() {
        var machine = Machine(highWater: 10)
        let (outcome, _) = machine.pull(1, cancelled: true)
        #expect(outcome.map(Self.succeeded) == false)
    }

    @Test func aSinkWritesWhatWaitedThenEachChunkThenIsToldTheEndBeforeTheFlushReturns() {
        var machine = Machine(highWater: 100)
        _ = machine.receive(Self.chunk(4))
        guard case .park(startWriting: true) = machine.push(1, into: "disk", cancelled: false) else { Issue.record("not parked"); return }
        guard case .write(let first, "disk", resumeTransfer: false) = machine.nextWrite() else { Issue.record("no write"); return }
        #expect(first.count == 4)
        // Nothing more: the loop stops, the next chunk starts another.
        guard case .stop = machine.nextWrite() else { Issue.record("did not stop"); return }
        #expect(machine.receive(Self.chunk(5)) == (.taken, nil, true))
        // While a loop runs, chunks are only queued.
        #expect(machine.receive(Self.chunk(5)) == (.taken, nil, false))
        // The transfer ends with chunks unwritten: the pusher goes on, the flush waits for them.
        let end = machine.finish(.success(()))
        #expect(Self.resumed(end.resumes) == ["push 1 ok"] && !end.startWriting)
        #expect(machine.flush(2) == nil)
        guard case .write = machine.nextWrite(), case .write = machine.nextWrite() else { Issue.record("writes"); return }
        // Then the sink is told the end, and the flush returns once it took it.
        guard case .end("disk") = machine.nextWrite() else { Issue.record("end not told"); return }
        #expect(Self.resumed(machine.ended(.success(())).map { [$0] } ?? []) == ["push 2 ok"])
        guard case .done = machine.reader else { Issue.record("not done"); return }
    }

    @Test func aSinkBehindPausesItsTransferAndResumesItAtHalf() {
        var machine = Machine(highWater: 10)
        _ = machine.push(1, into: "slow disk", cancelled: false)
        _ = machine.receive(Self.chunk(5))
        _ = machine.receive(Self.chunk(5))
        #expect(machine.receive(Self.chunk(5)) == (.full, nil, false))
        guard case .write(_, _, resumeTransfer: true) = machine.nextWrite() else { Issue.record("not resumed at half"); return }
    }

    @Test func aSinkAttachedAfterTheEndGoesOnAtOnce() {
        var machine = Machine(highWater: 10)
        _ = machine.receive(Self.chunk(2))
        _ = machine.finish(.success(()))
        guard case .received(startWriting: true) = machine.push(1, into: "disk", cancelled: false) else { Issue.record("not received"); return }
        // An empty body too: the write loop tells the sink the end.
        var empty = Machine(highWater: 10)
        _ = empty.finish(.success(()))
        guard case .received(startWriting: true) = empty.push(1, into: "disk", cancelled: false) else { Issue.record("empty body"); return }
        #expect(empty.flush(2) == nil)
        guard case .end = empty.nextWrite() else { Issue.record("end not told"); return }
        #expect(Self.resumed(empty.ended(.failure(Failure())).map { [$0] } ?? []) == ["push 2 failed"])
        #expect(empty.flush(3).map(Self.succeeded) == false)
    }

    @Test func aSinkThatThrowsStopsTheBodyCancelsTheTransferAndFailsTheFlush() {
        var machine = Machine(highWater: 10)
        _ = machine.push(1, into: "full disk", cancelled: false)
        _ = machine.receive(Self.chunk(2))
        let stop = machine.writeFailed(Failure())
        #expect(stop.cancelTransfer)
        #expect(Self.resumed(stop.resumes) == ["push 1 failed"])
        #expect(machine.receive(Self.chunk(2)) == (.stopped, nil, false))
        #expect(machine.flush(2).map(Self.succeeded) == false)
        guard case .stop = machine.nextWrite() else { Issue.record("wrote after failure"); return }
    }

    @Test func aTransferCutShortFailsBothWaitersAndDropsWhatWaits() {
        var machine = Machine(highWater: 10)
        _ = machine.push(1, into: "disk", cancelled: false)
        _ = machine.receive(Self.chunk(2))
        #expect(Self.resumed(machine.finish(.failure(Failure())).resumes) == ["push 1 failed"])
        #expect(machine.pendingBytes == 0)
        // A second end is ignored.
        #expect(machine.finish(.success(())).resumes.isEmpty)
    }

    @Test func givingUpCancelsOnlyAnUnfinishedTransferAndResumesWhoWaits() {
        var pushing = Machine(highWater: 10)
        _ = pushing.push(1, into: "disk", cancelled: false)
        let stop = pushing.giveUp(CancellationError())
        #expect(stop.cancelTransfer)
        #expect(Self.resumed(stop.resumes) == ["push 1 failed"])
        #expect(pushing.giveUp(CancellationError()).resumes.isEmpty)

        var pulled = Machine(highWater: 10)
        _ = pulled.pull(3, cancelled: false)
        _ = pulled.finish(.success(()))
        #expect(!pulled.giveUp(CancellationError()).cancelTransfer)

        var parked = Machine(highWater: 10)
        _ = parked.pull(4, cancelled: false)
        #expect(Self.resumed(parked.giveUp(CancellationError()).resumes) == ["pull 4 failed"])
    }

    @Test func aSecondOrCancelledReaderIsRefused() {
        var machine = Machine(highWater: 10)
        _ = machine.pull(1, cancelled: false)
        guard case .fail(_, cancelTransfer: true) = machine.push(2, into: "disk", cancelled: false) else { Issue.record("second reader"); return }
        var cancelled = Machine(highWater: 10)
        guard case .fail(let error, cancelTransfer: true) = cancelled.push(1, into: "disk", cancelled: true) else { Issue.record("cancelled"); return }
        #expect(error is CancellationError)
        var failed = Machine(highWater: 10)
        _ = failed.finish(.failure(Failure()))
        guard case .fail(_, cancelTransfer: false) = failed.push(1, into: "disk", cancelled: false) else { Issue.record("failed body"); return }
        var pullerAfterPush = Machine(highWater: 10)
        _ = pullerAfterPush.push(1, into: "disk", cancelled: false)
        #expect(pullerAfterPush.flush(1) == nil)
        #expect(pullerAfterPush.pull(2, cancelled: false).0.map(Self.succeeded) == true)
    }
}
