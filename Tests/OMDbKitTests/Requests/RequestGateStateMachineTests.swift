import Testing
@testable import OMDbKit

/// ``RequestGateStateMachine`` fed events one by one: no threads, no continuations. Requests are
/// numbers; each test walks the states (open, full, queueing) and transitions and checks the
/// actions they return.
@Suite struct RequestGateStateMachineTests {
    typealias Machine = RequestGateStateMachine<Int>

    @Test func aFreePlaceAdmitsAtOnceUpToTheLimit() {
        var machine = Machine(limit: 2)
        #expect(machine.enter(1, waiter: 1, cancelled: false) == .admitted)
        #expect(machine.available == 1)
        #expect(machine.enter(2, waiter: 2, cancelled: false) == .admitted)
        #expect(machine.available == 0)
        #expect(machine.inFlight == 2)
        #expect(machine.queue.isEmpty)
    }

    @Test func whenFullRequestsWaitInLineAndEachPlaceLeftPassesToTheFirst() {
        var machine = Machine(limit: 1)
        #expect(machine.enter(1, waiter: 1, cancelled: false) == .admitted)
        #expect(machine.enter(2, waiter: 2, cancelled: false) == .queued)
        #expect(machine.enter(3, waiter: 3, cancelled: false) == .queued)
        #expect(machine.queue.map { $0.id } == [2, 3])
        // The place passes straight on: it is never free, so a newcomer cannot overtake the line.
        #expect(machine.leave() == 2)
        #expect(machine.available == 0)
        #expect(machine.enter(4, waiter: 4, cancelled: false) == .queued)
        #expect(machine.leave() == 3)
        #expect(machine.leave() == 4)
        #expect(machine.inFlight == 1)
        // The last one out frees the place.
        #expect(machine.leave() == nil)
        #expect(machine.available == 1)
        #expect(machine.inFlight == 0)
    }

    @Test func aCancelledWaiterLeavesTheLineAndTheNextOneGetsThePlace() {
        var machine = Machine(limit: 1)
        _ = machine.enter(1, waiter: 1, cancelled: false)
        _ = machine.enter(2, waiter: 2, cancelled: false)
        _ = machine.enter(3, waiter: 3, cancelled: false)
        #expect(machine.cancel(2) == 2)
        #expect(machine.queue.map { $0.id } == [3])
        // Cancelled twice (the handler and a late one): failed once.
        #expect(machine.cancel(2) == nil)
        #expect(machine.leave() == 3)
    }

    @Test func aPlaceLeftAfterEveryWaiterWasCancelledIsFreeAgain() {
        var machine = Machine(limit: 1)
        _ = machine.enter(1, waiter: 1, cancelled: false)
        _ = machine.enter(2, waiter: 2, cancelled: false)
        #expect(machine.cancel(2) == 2)
        #expect(machine.leave() == nil)
        #expect(machine.available == 1)
        #expect(machine.enter(3, waiter: 3, cancelled: false) == .admitted)
    }

    @Test func cancellingARequestThatHasItsPlaceChangesNothing() {
        var machine = Machine(limit: 1)
        _ = machine.enter(1, waiter: 1, cancelled: false)
        _ = machine.enter(2, waiter: 2, cancelled: false)
        // 1 holds its place until it leaves; 2 was handed the place, so is no longer in line.
        #expect(machine.cancel(1) == nil)
        #expect(machine.leave() == 2)
        #expect(machine.cancel(2) == nil)
        #expect(machine.inFlight == 1)
        #expect(machine.available == 0)
    }

    @Test func aRequestCancelledBeforeItAsksTakesNoPlaceAndJoinsNoLine() {
        var machine = Machine(limit: 1)
        #expect(machine.enter(1, waiter: 1, cancelled: true) == .cancelled)
        #expect(machine.available == 1)
        #expect(machine.inFlight == 0)
        _ = machine.enter(2, waiter: 2, cancelled: false)
        #expect(machine.enter(3, waiter: 3, cancelled: true) == .cancelled)
        #expect(machine.queue.isEmpty)
    }

    @Test func aLimitBelowOneIsOne() {
        var machine = Machine(limit: 0)
        #expect(machine.enter(1, waiter: 1, cancelled: false) == .admitted)
        #expect(machine.enter(2, waiter: 2, cancelled: false) == .queued)
    }

    @Test func requestNumbersAreNeverReused() {
        var machine = Machine(limit: 3)
        let ids = (0..<20).map { _ in machine.makeID() }
        #expect(Set(ids).count == ids.count)
    }
}
