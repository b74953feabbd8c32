import CCurl
import Foundation
@testable import OMDbCurl
import OMDbKit
import Testing

/// ``CurlTransferStateMachine`` fed events one by one: no threads, no sockets, no libcurl.
/// Callers are numbers, feeds are names; each test walks states and transitions and checks the
/// actions they return.
@Suite struct CurlTransferStateMachineTests {
    typealias Machine = CurlTransferStateMachine<Int, String>

    private static let url = URL(string: "http://127.0.0.1:1/?apikey=k&s=x")!

    /// A machine nobody sent is a warm-up: nobody waits for it.
    private static func machine(limit: Duration = .seconds(10)) -> Machine {
        Machine(url: url, limit: limit, secretQueryItems: ["apikey"])
    }

    /// The state's name, its payload left out.
    private static func name(_ machine: Machine) -> String {
        switch machine.state {
        case .idle: "idle"
        case .queued: "queued"
        case .connecting: "connecting"
        case .requested: "requested"
        case .redirecting: "redirecting"
        case .streaming: "streaming"
        case .paused: "paused"
        case .stopping: "stopping"
        case .done: "done"
        }
    }

    /// A machine walked to `state` by the events that lead there, caller 1 waiting.
    private static func walked(to state: String, warmUp: Bool = false) -> Machine {
        var machine = machine()
        if state == "idle" { return machine }
        if !warmUp {
            guard machine.send(1) else { fatalError("send") }
        }
        if state == "queued" { return machine }
        guard machine.start() != nil else { fatalError("start") }
        if state == "connecting" { return machine }
        let written = machine.prerequest()
        #expect(written)
        if state == "requested" { return machine }
        if state == "redirecting" {
            machine.statusLine()
            machine.header(name: "Location", value: "/next?apikey=k")
            guard case .proceed = machine.headersEnded(code: 302, makeFeed: { "unused" }) else { fatalError("302") }
            return machine
        }
        machine.statusLine()
        machine.header(name: "Content-Length", value: "10")
        _ = machine.headersEnded(code: 200) { "feed" }
        if state == "streaming" { return machine }
        if state == "paused" {
            machine.delivered(.full, count: 4)
            return machine
        }
        fatalError(state)
    }

    // MARK: The caller

    @Test func theCallerAsksAndIsQueuedThenTheEngineAddsIt() {
        var machine = Self.machine()
        let parked = machine.send(1)
        #expect(parked)
        #expect(Self.name(machine) == "queued")
        let url = machine.start()
        #expect(url == Self.url)
        #expect(Self.name(machine) == "connecting")
    }

    @Test func aSecondAskIsRefused() {
        var machine = Self.walked(to: "queued")
        let parked = machine.send(2)
        #expect(!parked, "a second caller parked")
        #expect(Self.name(machine) == "queued")
    }

    @Test func aCallerWhoGaveUpBeforeAskingIsRefusedAndTheEngineDropsTheTransfer() {
        var machine = Self.machine()
        let answered = machine.giveUp()
        #expect(answered == nil)
        #expect(Self.name(machine) == "stopping")
        let parked = machine.send(1)
        #expect(!parked, "parked after giving up")
        let started = machine.start()
        #expect(started == nil)
        #expect(Self.name(machine) == "done")
    }

    @Test func givingUpBeforeAnythingWasWrittenIsNotSentAndTheRequestNeverIs() {
        for state in ["queued", "connecting"] {
            var machine = Self.walked(to: state)
            let resumed = machine.giveUp()
            #expect(resumed?.0 == 1)
            #expect((resumed?.1 as? TransportError)?.isNotSent == true, "\(state)")
            #expect(Self.name(machine) == "stopping")
            // libcurl's connection comes up later: the request is not written.
            let written = machine.prerequest()
            #expect(!written)
            // The engine gets to the transfer: nobody is answered twice.
            let (continuation, feed) = machine.abandon()
            #expect(continuation == nil && feed == nil)
            #expect(Self.name(machine) == "done")
        }
    }

    @Test func givingUpOnceTheRequestWasWrittenIsACancellation() {
        for state in ["requested", "redirecting"] {
            var machine = Self.walked(to: state)
            let resumed = machine.giveUp()
            #expect(resumed?.0 == 1)
            #expect(resumed?.1 is CancellationError, "\(state)")
            #expect(Self.name(machine) == "stopping")
            // Headers that come later stop the transfer, and answer nobody.
            guard case .stop = machine.headersEnded(code: 200, makeFeed: { "late" }) else { Issue.record("answered twice"); return }
            guard case .stop = machine.write() else { Issue.record("body taken"); return }
            guard case .nothing = machine.complete(CCURLE_WRITE_ERROR) else { Issue.record("answered twice"); return }
            #expect(Self.name(machine) == "done")
        }
    }

    @Test func givingUpOnceAnsweredLeavesTheBodyToTheEngine() {
        for state in ["streaming", "paused"] {
            var machine = Self.walked(to: state)
            let answered = machine.giveUp()
            #expect(answered == nil)
            #expect(Self.name(machine) == state)
            // The engine drops the transfer: the body's reader hears of it.
            let (continuation, feed) = machine.abandon()
            #expect(continuation == nil)
            #expect(feed == "feed")
            #expect(Self.name(machine) == "done")
        }
    }

    // MARK: Connecting and writing

    @Test func theRequestIsWrittenOnceTheConnectionIsUp() {
        var machine = Self.walked(to: "connecting")
        let written = machine.prerequest()
        #expect(written)
        #expect(Self.name(machine) == "requested")
        // A redirect's request on the same handle is written too.
        let written2 = machine.prerequest()
        #expect(written2)
    }

    @Test func aLibcurlThatCannotSayWhenTheRequestIsWrittenCountsItAsWritten() {
        var machine = Self.walked(to: "connecting")
        // What CurlEasy does when libcurl cannot say: the request counts as written once the handle is made.
        _ = machine.prerequest()
        #expect(Self.name(machine) == "requested")
        let resumed = machine.giveUp()
        #expect(resumed?.1 is CancellationError)
    }

    @Test func noHandleIsNotSent() {
        var machine = Self.walked(to: "connecting")
        guard case .fail(1, let error) = machine.complete(CCURLE_FAILED_INIT) else { Issue.record("not failed"); return }
        #expect(error == .notSent(reason: "libcurl could not make a request"))
        #expect(Self.name(machine) == "done")
        guard case .nothing = machine.complete(CCURLE_FAILED_INIT) else { Issue.record("failed twice"); return }
    }

    @Test func aFailureBeforeTheRequestWasWrittenIsNotSent() {
        var machine = Self.walked(to: "connecting")
        guard case let .fail(1, error) = machine.complete(CCURLE_OPERATION_TIMEDOUT) else { Issue.record("not failed"); return }
        #expect(error == .notSent(reason: "the connection (TCP and TLS) was not made in time"))
        #expect(Self.name(machine) == "done")
    }

    @Test func aFailureAfterTheRequestWasWrittenIsTheTransfers() {
        var timedOut = Self.walked(to: "requested")
        guard case .fail(1, .timedOut) = timedOut.complete(CCURLE_OPERATION_TIMEDOUT) else { Issue.record("not timed out"); return }
        var reset = Self.walked(to: "redirecting")
        guard case .fail(1, .connectionLost) = reset.complete(CCURLE_RECV_ERROR) else { Issue.record("not lost"); return }
        var empty = Self.walked(to: "requested")
        guard case .fail(1, .unreachable) = empty.complete(CCURLE_OK) else { Issue.record("an empty answer passed"); return }
    }

    // MARK: Headers

    @Test func theFinalHeaderBlockAnswersTheCallerWithTheFeed() {
        var machine = Self.walked(to: "requested")
        machine.statusLine()
        machine.header(name: "X-Early", value: "1")
        guard case .proceed = machine.headersEnded(code: 100, makeFeed: { "early" }) else { Issue.record("a 1xx answered"); return }
        machine.statusLine()
        machine.header(name: "Set-Cookie", value: "a=1")
        machine.header(name: "set-cookie", value: "b=2")
        machine.header(name: "Content-Length", value: "10")
        guard case let .answer(1, head, "feed") = machine.headersEnded(code: 200, makeFeed: { "feed" }) else { Issue.record("not answered"); return }
        #expect(head == .init(status: 200, headers: ["set-cookie": "a=1, b=2", "content-length": "10"], length: 10))
        #expect(Self.name(machine) == "streaming")
        // Trailers change nothing.
        machine.header(name: "X-Trailer", value: "t")
        guard case .proceed = machine.headersEnded(code: 200, makeFeed: { "second" }) else { Issue.record("trailers answered"); return }
        #expect(machine.headers["x-trailer"] == nil)
    }

    @Test func aCompressedBodyHasNoLength() {
        var machine = Self.walked(to: "requested")
        machine.header(name: "Content-Length", value: "10")
        machine.header(name: "Content-Encoding", value: "gzip")
        guard case let .answer(_, head, _) = machine.headersEnded(code: 200, makeFeed: { "feed" }) else { Issue.record("not answered"); return }
        #expect(head.length == nil)
    }

    @Test func aWarmUpIsAnsweredToNobody() {
        var machine = Self.walked(to: "connecting", warmUp: true)
        let written = machine.prerequest()
        #expect(written)
        // A warm-up's 3xx is not followed either.
        machine.header(name: "Location", value: "/elsewhere")
        guard case .proceed = machine.headersEnded(code: 301, makeFeed: { "feed" }) else { Issue.record("a warm-up answered"); return }
        #expect(Self.name(machine) == "streaming")
        guard case .discard = machine.write() else { Issue.record("a warm-up's body delivered"); return }
        guard case .nothing = machine.complete(CCURLE_OK) else { Issue.record("a warm-up answered"); return }
        var failed = Self.walked(to: "connecting", warmUp: true)
        guard case .nothing = failed.complete(CCURLE_COULDNT_CONNECT) else { Issue.record("a warm-up answered"); return }
        let answered = failed.giveUp()
        #expect(answered == nil)
    }

    // MARK: Redirects

    @Test func aRedirectWithinItsOriginIsFollowedOnTheSameHandleForTheSameCaller() {
        var machine = Self.walked(to: "redirecting")
        guard case .redirecting(1, let to) = machine.state else { Issue.record("not redirecting"); return }
        #expect(to == URL(string: "http://127.0.0.1:1/next?apikey=k"))
        // Its body is dropped.
        guard case .discard = machine.write() else { Issue.record("a redirect's body delivered"); return }
        // A failed redirect is not followed.
        var failed = machine
        let notFollowed = failed.follow(after: CCURLE_RECV_ERROR)
        #expect(notFollowed == nil)
        let next = machine.follow(after: CCURLE_OK)
        #expect(next == URL(string: "http://127.0.0.1:1/next?apikey=k"))
        #expect(machine.url == next)
        #expect(machine.redirects == 1)
        #expect(machine.headers.isEmpty)
        #expect(Self.name(machine) == "requested")
        guard case .answer(1, _, _) = machine.headersEnded(code: 200, makeFeed: { "feed" }) else { Issue.record("not answered"); return }
    }

    @Test func aRedirectOffItsOriginIsTheAnswer() {
        var machine = Self.walked(to: "requested")
        machine.header(name: "Location", value: "http://elsewhere.example/?apikey=k")
        guard case let .answer(1, head, _) = machine.headersEnded(code: 302, makeFeed: { "feed" }) else { Issue.record("followed"); return }
        #expect(head.status == 302)
    }

    @Test func tooManyRedirectsFailTheCallerAndStopTheTransfer() {
        var machine = Self.walked(to: "requested")
        for _ in 0..<Machine.maxRedirects {
            machine.header(name: "Location", value: "/again?apikey=k")
            guard case .proceed = machine.headersEnded(code: 302, makeFeed: { "feed" }) else { Issue.record("not followed"); return }
            let next = machine.follow(after: CCURLE_OK)
            #expect(next != nil)
        }
        machine.header(name: "Location", value: "/again?apikey=k")
        guard case .fail(1, .unreachable(reason: "too many redirects")) = machine.headersEnded(code: 302, makeFeed: { "feed" }) else {
            Issue.record("not failed"); return
        }
        #expect(Self.name(machine) == "stopping")
        guard case .nothing = machine.complete(CCURLE_WRITE_ERROR) else { Issue.record("answered twice"); return }
    }

    // MARK: The body

    @Test func theBodyGoesToTheFeedAndPausesWhileTheReaderIsBehind() {
        var machine = Self.walked(to: "streaming")
        guard case .deliver("feed") = machine.write() else { Issue.record("not delivered"); return }
        machine.delivered(.taken, count: 4)
        #expect(machine.received == 4)
        let caughtUp = machine.readerCaughtUp()
        #expect(!caughtUp)
        machine.delivered(.full, count: 3)
        #expect(Self.name(machine) == "paused")
        #expect(machine.received == 4)
        // Paused, the transfer is not charged: the reader's time is not the server's.
        let deadline = machine.charge(.seconds(60))
        #expect(deadline == .paused)
        let caughtUp2 = machine.readerCaughtUp()
        #expect(caughtUp2)
        #expect(Self.name(machine) == "streaming")
        let caughtUp3 = machine.readerCaughtUp()
        #expect(!caughtUp3)
        guard case .deliver = machine.write() else { Issue.record("not delivered again"); return }
        machine.delivered(.taken, count: 3)
        #expect(machine.received == 7)
        // A reader who left: nothing is counted (the transfer stops).
        machine.delivered(.stopped, count: 3)
        #expect(machine.received == 7)
        #expect(Self.name(machine) == "streaming")
    }

    @Test func aCompleteBodyFinishesTheFeed() {
        var machine = Self.walked(to: "streaming")
        guard case .finish("feed", nil) = machine.complete(CCURLE_OK) else { Issue.record("not finished"); return }
        #expect(Self.name(machine) == "done")
        guard case .stop = machine.write() else { Issue.record("written after the end"); return }
        guard case .nothing = machine.complete(CCURLE_OK) else { Issue.record("finished twice"); return }
    }

    @Test func aBodyCutShortSaysHowMuchCame() {
        var machine = Self.walked(to: "paused")
        _ = machine.readerCaughtUp()
        machine.delivered(.taken, count: 6)
        guard case .finish("feed", .truncated(received: 6, expected: 10)) = machine.complete(CCURLE_PARTIAL_FILE) else {
            Issue.record("not truncated"); return
        }
        var lost = Self.walked(to: "paused")
        guard case .finish("feed", .connectionLost) = lost.complete(CCURLE_HTTP2_STREAM) else { Issue.record("not lost"); return }
    }

    // MARK: Deadlines

    @Test func theDeadlineIsChargedUntilOverdue() {
        var machine = Self.machine(limit: .seconds(2))
        _ = machine.send(1)
        _ = machine.start()
        let deadline = machine.charge(.milliseconds(1_500))
        #expect(deadline == .left(.milliseconds(500)))
        let deadline2 = machine.charge(.milliseconds(500))
        #expect(deadline2 == .overdue)
        // The engine ends it with libcurl's timeout: connecting, that is "not sent".
        guard case .fail(1, let error) = machine.complete(CCURLE_OPERATION_TIMEDOUT) else { Issue.record("not failed"); return }
        #expect(error.isNotSent)
    }

    @Test func aBodyThatTimesOutIsCutShort() {
        var machine = Self.walked(to: "streaming")
        let deadline = machine.charge(.seconds(10))
        #expect(deadline == .overdue)
        guard case .finish("feed", .timedOut) = machine.complete(CCURLE_OPERATION_TIMEDOUT) else { Issue.record("not timed out"); return }
    }

    // MARK: Abandoned by the engine

    @Test func anAbandonedTransferAnswersWhoeverWaits() {
        for state in ["queued", "connecting", "requested", "redirecting"] {
            var machine = Self.walked(to: state)
            let (continuation, feed) = machine.abandon()
            #expect(continuation == 1, "\(state)")
            #expect(feed == nil)
            #expect(Self.name(machine) == "done")
        }
        var idle = Self.machine()
        let (nobody, noFeed) = idle.abandon()
        #expect(nobody == nil && noFeed == nil)
    }

    @Test func nothingHappensOnceDone() {
        var machine = Self.walked(to: "streaming")
        _ = machine.complete(CCURLE_OK)
        let parked = machine.send(2)
        #expect(!parked, "parked when done")
        let started = machine.start()
        #expect(started == nil, "started when done")
        let written = machine.prerequest()
        #expect(!written)
        let answered = machine.giveUp()
        #expect(answered == nil)
        machine.header(name: "X", value: "1")
        #expect(machine.headers["x"] == nil)
        guard case .stop = machine.headersEnded(code: 200, makeFeed: { "again" }) else { Issue.record("answered when done"); return }
        let caughtUp = machine.readerCaughtUp()
        #expect(!caughtUp)
        let next = machine.follow(after: CCURLE_OK)
        #expect(next == nil)
        let (continuation, feed) = machine.abandon()
        #expect(continuation == nil && feed == nil)
        #expect(Self.name(machine) == "done")
    }
}
