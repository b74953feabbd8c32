import Dispatch
import Files
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which poster files a folder holds, by imdbID: from one listing started on a thread of its own as
/// the store is made (overlapping the first search), then kept current as posters are saved.
final class PosterIndex: Sendable {
    /// Calls its second argument with each name in a folder (``OpenFolder/names(_:)``): a seam for tests.
    typealias Listing = @Sendable (OpenFolder, (UnsafePointer<CChar>) -> Void) -> Void

    /// Something that happens once, and the tasks waiting for it.
    private struct Event {
        var happened = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private struct State {
        var table = PosterNameTable()
        var listed = Event()
        /// Saved while the listing ran, which may have gone past their names.
        var savedMeanwhile: [String] = []
        var swept = Event()
        /// The folder as opened and checked for the listing (or a later lookup): what lookups ask.
        var opened: OpenFolder?
    }

    private let state = Mutex(State())
    let folder: URL

    /// Starts listing `folder` on ``FileWork`` (never the cooperative pool), then hands the temporary
    /// files found to `sweep` with the folder as opened for the listing. A folder missing or refused lists nothing.
    init(folder: URL, listing: @escaping Listing = { $0.names($1) }, sweep: @escaping @Sendable (OpenFolder, [String]) -> Void) {
        self.folder = folder
        FileWork.start { [self] in
            var table = PosterNameTable()
            var temporaries: [String] = []
            let open = try? OpenFolder(folder)
            state.withLock { $0.opened = $0.opened ?? open }
            if let open { listing(open) { name in
                if strncmp(name, PosterFile.temporaryPrefix, PosterFile.temporaryPrefix.utf8.count) == 0 {
                    temporaries.append(String(cString: name))
                } else {
                    table.insertListed(name)
                }
            } }
            signal(\.listed) { state in
                for name in state.savedMeanwhile { table.replace(with: name) }
                state.table = table
                state.savedMeanwhile = []
            }
            if let open { sweep(open, temporaries) }
            signal(\.swept)
        }
    }

    /// The name of a file in the folder ending with one of `endings`, once the listing is done; a name
    /// the disk no longer has is forgotten.
    func file(endingWith endings: [String]) async -> String? {
        await wait(for: \.listed)
        let found = state.withLock { state in endings.compactMap { state.table.name(ending: $0) }.first }
        guard let found else { return nil }
        // As every file in it, as FileTrust allows: one someone else planted is no saved poster.
        guard openFolder()?.holdsTrustedFile(found) == true else {
            state.withLock { $0.table.forget(found) }
            return nil
        }
        return found
    }

    /// The folder as opened for the listing; opened (and checked) now when it was not there then.
    private func openFolder() -> OpenFolder? {
        if let open = state.withLock({ $0.opened }) { return open }
        guard let open = try? OpenFolder(folder) else { return nil }
        return state.withLock { $0.opened = $0.opened ?? open; return $0.opened }
    }

    func add(_ name: String) {
        state.withLock { state in
            if state.listed.happened { state.table.replace(with: name) } else { state.savedMeanwhile.append(name) }
        }
    }

    /// How many lookups wait for the listing: tests wait on it to order events without sleeping.
    var lookupsWaiting: Int { state.withLock { $0.listed.waiters.count } }

    /// Returns once the leftovers the listing found are removed.
    func sweptLeftovers() async { await wait(for: \.swept) }

    /// Suspends (holding no thread) until `event` has happened.
    private func wait(for event: WritableKeyPath<State, Event> & Sendable) async {
        await withCheckedContinuation { waiter in
            let happened = state.withLock { state in
                if !state[keyPath: event].happened { state[keyPath: event].waiters.append(waiter) }
                return state[keyPath: event].happened
            }
            if happened { waiter.resume() }
        }
    }

    /// Marks `event` as happened, after `change` (under the same lock), and wakes its waiters.
    private func signal(_ event: WritableKeyPath<State, Event> & Sendable, change: (inout State) -> Void = { _ in }) {
        let waiters = state.withLock { state in
            change(&state)
            state[keyPath: event].happened = true
            defer { state[keyPath: event].waiters = [] }
            return state[keyPath: event].waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
