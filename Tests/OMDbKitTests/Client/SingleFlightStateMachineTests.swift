import Testing
@testable import OMDbKit

/// ``SingleFlightStateMachine`` fed events one by one: no threads, no continuations, no tasks.
/// Callers are numbers, loads are names; each test walks states (idle, starting, running) and
/// transitions and checks the actions they return. The outcome of a load, value or failure, is
/// the wrapper's to hand over: the machine says to whom.
@Suite struct SingleFlightStateMachineTests {
    typealias Machine = SingleFlightStateMachine<String, Int, String>

    /// Starts a call for `key` with caller `waiter`, and returns its number.
    private static func start(_ machine: inout Machine, _ key: String, waiter: Int, load: String?) -> Int? {
        guard case .startLoad(let callID) = machine.join(key, waiterID: waiter, waiter: waiter, cancelled: false) else { return nil }
        if let load {
            let wanted = machine.started(key, callID: callID, load: load)
            #expect(wanted)
        }
        return callID
    }

    @Test func theFirstCallerStartsTheLoadAndTheNextOnesJoinIt() throws {
        var machine = Machine()
        let call = try #require(Self.start(&machine, "a", waiter: 1, load: "load a"))
        // Joined, not started: two callers of one key never start two loads.
        #expect(machine.join("a", waiterID: 2, waiter: 2, cancelled: false) == .wait)
        #expect(machine.join("a", waiterID: 3, waiter: 3, cancelled: false) == .wait)
        #expect(machine.waiters(for: "a") == 3)
        #expect(machine.inFlight == 1)
        // Another key is another call.
        let other = try #require(Self.start(&machine, "b", waiter: 4, load: "load b"))
        #expect(other != call)
        #expect(machine.inFlight == 2)
        // The load ends (value or failure alike): every waiter, in the order it came, gets it once.
        #expect(machine.finished("a", callID: call) == [1, 2, 3])
        #expect(machine.finished("a", callID: call) == [])
        #expect(machine.waiters(for: "a") == 0)
        #expect(machine.inFlight == 1)
        // Nothing is remembered: the next caller starts a fresh call.
        let next = try #require(Self.start(&machine, "a", waiter: 5, load: nil))
        #expect(next != call)
    }

    @Test func aCallerCancelledBeforeItWaitsIsNotParked() {
        var machine = Machine()
        #expect(machine.join("a", waiterID: 1, waiter: 1, cancelled: true) == .cancelled)
        #expect(machine.inFlight == 0)
        // Nor does it join a call in flight.
        _ = Self.start(&machine, "a", waiter: 2, load: "load")
        #expect(machine.join("a", waiterID: 3, waiter: 3, cancelled: true) == .cancelled)
        #expect(machine.waiters(for: "a") == 1)
        // Its cancellation finds nothing to resume.
        guard case .none = machine.leave("a", waiterID: 3) else { Issue.record("resumed twice"); return }
    }

    @Test func aCancelledWaiterLeavesAloneAndTheOthersKeepTheLoad() throws {
        var machine = Machine()
        let call = try #require(Self.start(&machine, "a", waiter: 1, load: "load"))
        _ = machine.join("a", waiterID: 2, waiter: 2, cancelled: false)
        _ = machine.join("a", waiterID: 3, waiter: 3, cancelled: false)
        guard case .resumeCancelled(2) = machine.leave("a", waiterID: 2) else { Issue.record("not resumed"); return }
        // The first caller, the one that started the load, may leave too: the load is the call's.
        guard case .resumeCancelled(1) = machine.leave("a", waiterID: 1) else { Issue.record("not resumed"); return }
        #expect(machine.waiters(for: "a") == 1)
        #expect(machine.finished("a", callID: call) == [3])
    }

    @Test func theLastWaiterOutCancelsTheLoadAndANewcomerStartsAfresh() throws {
        var machine = Machine()
        let abandoned = try #require(Self.start(&machine, "a", waiter: 1, load: "first load"))
        _ = machine.join("a", waiterID: 2, waiter: 2, cancelled: false)
        _ = machine.leave("a", waiterID: 1)
        guard case .cancelLoadAndResume("first load"?, 2) = machine.leave("a", waiterID: 2) else { Issue.record("load not cancelled"); return }
        #expect(machine.inFlight == 0)
        // A newcomer does not join the cancelled load.
        let fresh = try #require(Self.start(&machine, "a", waiter: 3, load: "second load"))
        #expect(fresh != abandoned)
        // The cancelled load's end resumes nobody, and does not end the fresh call.
        #expect(machine.finished("a", callID: abandoned) == [])
        #expect(machine.waiters(for: "a") == 1)
        #expect(machine.finished("a", callID: fresh) == [3])
    }

    @Test func everyWaiterGoneBeforeTheLoadIsStartedMeansTheLoadIsCancelledAtOnce() throws {
        var machine = Machine()
        let call = try #require(Self.start(&machine, "a", waiter: 1, load: nil))
        // Starting: no load to cancel yet.
        guard case .cancelLoadAndResume(nil, 1) = machine.leave("a", waiterID: 1) else { Issue.record("not resumed"); return }
        // The load, once started, is not wanted.
        let wanted = machine.started("a", callID: call, load: "late load")
        #expect(!wanted)
        #expect(machine.inFlight == 0)
    }

    @Test func aLoadThatEndsBeforeItIsRecordedResumesItsWaitersOnce() throws {
        var machine = Machine()
        let call = try #require(Self.start(&machine, "a", waiter: 1, load: nil))
        #expect(machine.finished("a", callID: call) == [1])
        // Cancelling the ended load is harmless; its waiter was resumed already.
        let wanted = machine.started("a", callID: call, load: "ended load")
        #expect(!wanted)
        guard case .none = machine.leave("a", waiterID: 1) else { Issue.record("resumed twice"); return }
    }

    @Test func aStartedLoadIsNotRecordedOnALaterCallOfItsKey() throws {
        var machine = Machine()
        let first = try #require(Self.start(&machine, "a", waiter: 1, load: nil))
        _ = machine.leave("a", waiterID: 1)
        let second = try #require(Self.start(&machine, "a", waiter: 2, load: "second load"))
        // The first call's load, started late, is not the second's.
        let wanted = machine.started("a", callID: first, load: "first load")
        #expect(!wanted)
        guard case .cancelLoadAndResume("second load"?, 2) = machine.leave("a", waiterID: 2) else { Issue.record("wrong load"); return }
        #expect(second != first)
    }

    /// With `lastWaiterStays` (posters), the last cancelled waiter cancels the load and stays for
    /// its outcome; a newcomer starts a fresh call instead of joining the cancelled one, and each
    /// call's end resumes its own waiters only.
    @Test func theLastCancelledWaiterStaysForTheOutcomeOfTheLoadItCancels() throws {
        var machine = SingleFlightStateMachine<String, Int, String>(lastWaiterStays: true)
        let first = try #require(Self.start(&machine, "a", waiter: 1, load: "first load"))
        guard case .cancelLoad("first load") = machine.leave("a", waiterID: 1) else { Issue.record("did not stay"); return }
        #expect(machine.inFlight == 0)
        let second = try #require(Self.start(&machine, "a", waiter: 2, load: "second load"))
        #expect(second != first)
        #expect(machine.finished("a", callID: first) == [1])
        #expect(machine.finished("a", callID: second) == [2])
        // Without a load started yet, there is nothing to wait for: it leaves at once.
        _ = machine.join("b", waiterID: 3, waiter: 3, cancelled: false)
        guard case .cancelLoadAndResume(nil, 3) = machine.leave("b", waiterID: 3) else { Issue.record("waited for no load"); return }
    }

    @Test func waiterNumbersAreNeverReused() {
        var machine = Machine()
        var seen: Set<Int> = []
        for round in 0..<50 {
            let id = machine.makeWaiterID()
            if case .startLoad(let callID) = machine.join("k\(round % 3)", waiterID: id, waiter: id, cancelled: false) { seen.insert(callID) }
            #expect(seen.insert(id).inserted)
        }
    }
}
