import Foundation
import Testing
@testable import OMDbKit
import Synchronization

@Suite struct CancellationTests {
    /// Records answer after `delay(id)`; posters are PNGs.
    private func slowTransport(delay: @escaping @Sendable (String) -> Duration) -> ClosureTransport {
        ClosureTransport { url in
            if url.path.hasPrefix("/posters/") {
                return HTTPResponse(statusCode: 200, body: pngBytes)
            }
            if let id = url.query("i") {
                try await Task.sleep(for: delay(id))
                return json(#"{"Title":"Film \#(id)","Year":"2000","imdbID":"\#(id)","Type":"movie","Plot":"p","Response":"True"}"#)
            }
            let rows = (1...10).map { String(format: "tt%07d", $0) }.map {
                #"{"Title":"Film \#($0)","Year":"2000","imdbID":"\#($0)","Type":"movie","Poster":"http://127.0.0.1/posters/\#($0).jpg"}"#
            }
            return json(#"{"Search":[\#(rows.joined(separator: ","))],"totalResults":"10","Response":"True"}"#)
        }
    }

    @Test func cancellingMidPageKeepsWhatArrivedAndLeavesNoPartialFile() async throws {
        try await withTemporaryFolder { folder in
            // Three records are quick, seven would take a minute; every poster is quick.
            let client = OMDbClient(configuration: .init(apiKey: "k"), transport: slowTransport { id in
                ["tt0000001", "tt0000002", "tt0000003"].contains(id) ? .zero : .seconds(60)
            })
            let page = try await client.search("film")
            let received = Mutex<[MovieUpdate]>([])
            let consumer = Task {
                for await update in client.details(for: page.items, posters: PosterStore(folder: folder)) {
                    received.withLock { $0.append(update) }
                }
            }
            // Wait for the quick three, then press "Ctrl-C".
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(60)
            // Three records and ten posters.
            while received.withLock({ $0.count }) < 13, clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            let started = clock.now
            consumer.cancel()
            await consumer.value
            #expect(clock.now - started < .seconds(5))
            let kept = received.withLock { $0 }
            #expect(kept.filter(\.isRecord).map(\.item.imdbID).sorted() == ["tt0000001", "tt0000002", "tt0000003"])
            // A poster does not wait for its plot: all ten are written, whole; nothing else is in the folder.
            #expect(kept.filter { !$0.isRecord }.count == 10)
            let names = files(in: folder)
            #expect(names.count == 10)
            #expect(names.allSatisfy { !$0.hasPrefix(".") && $0.hasSuffix(".png") })
            for name in names {
                #expect(FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) == pngBytes)
            }
        }
    }

    @Test func cancellingASearchThrowsCancellation() async throws {
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { _ in
            try await Task.sleep(for: .seconds(60))
            return json("{}")
        })
        let task = Task { try await client.search("slow") }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // The cursor did not move: there is still no search to continue.
        await #expect(throws: OMDbError.noSearchYet) { try await client.nextPage() }
    }

    @Test func aNewSearchSupersedesOneStillLoading() async throws {
        let client = OMDbClient(configuration: .init(apiKey: "k"), transport: ClosureTransport { url in
            if url.query("s") == "slow" { try await Task.sleep(for: .seconds(60)) }
            let id = url.query("s") == "slow" ? "tt0000001" : "tt0000002"
            return json(#"{"Search":[{"Title":"\#(url.query("s")!)","imdbID":"\#(id)","Type":"movie"}],"totalResults":"1","Response":"True"}"#)
        })
        let old = Task { try await client.search("slow") }
        try await Task.sleep(for: .milliseconds(50))
        let started = ContinuousClock.now
        let fresh = try await client.search("fast")
        #expect(fresh.items.map(\.title) == ["fast"])
        await #expect(throws: CancellationError.self) { try await old.value }
        // Not the 60 s the old search sleeps (a loaded machine can stall the pool for seconds).
        #expect(ContinuousClock.now - started < .seconds(30))
        // The cursor belongs to the new search.
        await #expect(throws: OMDbError.noMorePages(query: "fast", shown: 1, total: 1)) { try await client.nextPage() }
    }
}
