import Files
import Foundation
import Synchronization

extension OMDbClient {
    /// One poster load, a folder and a title; or, without a folder, what a title's poster came to
    /// in this session, whichever folder it went to.
    struct PosterKey: Hashable, Sendable {
        let folder: String?
        let imdbID: String

        /// A title's poster, whichever folder it went to.
        static func title(_ imdbID: String) -> PosterKey { PosterKey(folder: nil, imdbID: imdbID) }
    }

    /// The poster of `item` in `store`: the file already there, else downloaded and streamed to
    /// its file as the bytes arrive. A poster this session already saved elsewhere is copied,
    /// not downloaded; one refused for good (N/A, 404, not an image, too large) is not asked for
    /// again. Transient failures (5xx, 408, 429, the network) are retried, and never remembered.
    /// - Throws: ``OMDbError`` (poster cases, HTTP and network) or `CancellationError`.
    public func poster(for item: SearchItem, in store: PosterStore) async throws -> SavedPoster {
        let key = PosterKey(folder: store.folder.path, imdbID: item.imdbID)
        return try await posters.value(for: key) { [sender] in
            try await self.loadPoster(for: item, in: store, sender: sender)
        }
    }

    /// What became of the posters of `items` in `store`, as the updates
    /// ``details(for:plot:posters:)`` sends: one for each poster this client saved there in this
    /// session (or found there), once their poster loads still running have ended, or `timeout` has
    /// passed. Past the wait, the writes of these titles not yet put in place are given up (their
    /// temporary files removed, nothing renamed later), so the answer stays true: no poster it
    /// leaves out appears afterwards.
    ///
    /// For a caller whose details stream ended early (its task cancelled, by Ctrl-C say): a poster
    /// whose bytes had all arrived is still written to the end and put in place (a write is never
    /// cut in half), though the stream, ended, can no longer say so. The wait is not the caller's
    /// to cancel: it is what the caller asks for after being cancelled.
    public nonisolated func savedPosters(for items: [SearchItem], in store: PosterStore,
                                         waitingUpTo timeout: Duration = .seconds(1)) async -> [MovieUpdate] {
        let titles = Set(items.map(\.imdbID))
        await posterLoads.ended(titles, waitingUpTo: timeout)
        // Put in place, its load still ending (the folder's own flush): saved, though not remembered yet.
        let placed = posterLoads.giveUp(titles)
        return items.enumerated().compactMap { index, item in
            let saved: SavedPoster
            if case .success(let remembered)? = posters.remembered(.title(item.imdbID)) {
                saved = remembered
            } else if let file = placed[item.imdbID] {
                saved = SavedPoster(file: file, wasAlreadyThere: false)
            } else {
                return nil
            }
            guard saved.file.deletingLastPathComponent().standardizedFileURL.path == store.folder.path else { return nil }
            return MovieUpdate(index: index, item: item, part: .poster(.success(saved)))
        }
    }

    /// Gives up, at once, the writes of `items`' posters not yet put in place: for posters of rows
    /// that will never be shown (the pages loading ahead when Ctrl-C came). Never waits.
    package nonisolated func giveUpPosterWrites(for items: [SearchItem]) {
        _ = posterLoads.giveUp(Set(items.map(\.imdbID)))
    }

    /// Runs off the actor: the folder's index, the download and the file writes never block it.
    private nonisolated func loadPoster(for item: SearchItem, in store: PosterStore, sender: RequestSender) async throws -> SavedPoster {
        // Counted until it ends, cancelled or not: a cancelled load still ends its commit under way.
        let gate = posterLoads.begin(item.imdbID)
        defer { posterLoads.end(item.imdbID, gate) }
        let existing = await store.existingFile(for: item.imdbID)
        if let existing, store.isWideEnough(file: existing) {
            return remember(SavedPoster(file: existing, wasAlreadyThere: true), posterOf: item.imdbID)
        }
        let year = item.year?.text
        switch posters.remembered(.title(item.imdbID))?.map(\.file) {
        case .failure(let error)?:
            throw error
        case .success(let earlier)? where store.isWideEnough(file: earlier):
            // Saved into another folder earlier in this session: copy it, do not download it again.
            // Read only as FileTrust allows: the file may have been swapped since it was saved.
            if let body = try? Self.savedPoster(earlier) {
                // Through the load's gate too: a copy given up is never put in place later.
                let file = try await store.receive(streaming: body, source: earlier.path, title: item.title, year: year, imdbID: item.imdbID)
                    .commit(unless: gate)
                return remember(SavedPoster(file: file, wasAlreadyThere: false), posterOf: item.imdbID)
            }
        case .success?, nil:
            break
        }
        guard let url = item.posterURL else {
            remember(OMDbError.posterUnavailable, posterOf: item.imdbID)
            throw OMDbError.posterUnavailable
        }
        do {
            let cleanup = PosterCleanup()
            let (file, fallback) = try await withTaskCancellationHandler {
                let (arrived, fallback) = try await downloadPoster(url, width: store.width) { response, shown in
                    try await store.receive(streaming: response.body, contentType: response.contentType, source: shown,
                                            title: item.title, year: year, imdbID: item.imdbID, cleanup: cleanup)
                }
                // Done with the network: the last writes, the fsync and the rename wait for the disk
                // alone, outside the request's deadline and its place in the gate, so a slow disk is
                // never taken for a slow server (nor the poster downloaded again).
                return (try await arrived.commit(unless: gate), fallback)
            } onCancel: {
                cleanup.cancel()
            }
            let saved = remember(SavedPoster(file: file, wasAlreadyThere: false, fallback: fallback), posterOf: item.imdbID)
            // A wider poster replaces the narrower one, even when its format (and so its extension) differs.
            if let existing, existing.standardizedFileURL != file.standardizedFileURL {
                // Through the folder as opened and checked, never by path.
                (try? OpenFolder(existing.deletingLastPathComponent()))?.remove(existing.lastPathComponent)
            }
            return saved
        } catch let error as OMDbError {
            if error.isPermanentPosterRefusal { remember(error, posterOf: item.imdbID) }
            throw error
        }
    }

    /// A poster saved earlier, opened through its folder as opened and checked (`openat`,
    /// `O_NOFOLLOW`) and checked again as opened (``AtomicFile``): the file read is the one the
    /// trust rule passed, whatever its path names by then. `nil` when there is none.
    nonisolated static func savedPoster(_ file: URL) throws -> HTTPBody? {
        guard let (fd, _) = try AtomicFile(file).openForReading() else { return nil }
        return try HTTPBody(reading: FileHandle(fileDescriptor: fd, closeOnDealloc: true))
    }

    /// Transient failures are never remembered: only a saved file or a refusal for good.
    private nonisolated func remember(_ failure: OMDbError, posterOf imdbID: String) {
        posters.remember(.failure(failure), for: .title(imdbID))
    }

    /// Remembers the title's poster as `saved` (what ``savedPosters(for:in:waitingUpTo:)`` answers
    /// with), and returns it.
    private nonisolated func remember(_ saved: SavedPoster, posterOf imdbID: String) -> SavedPoster {
        posters.remember(.success(saved), for: .title(imdbID))
        return saved
    }
}

extension OMDbError {
    /// A poster answer that will not change by asking again: no poster, a 4xx other than 408 and
    /// 429, not an image, too large. Never a disk error or a transient failure.
    var isPermanentPosterRefusal: Bool {
        switch self {
        case .posterUnavailable, .posterNotAnImage, .posterTooLarge: true
        case .httpStatus(let status, _): !RetryPolicy.isTransient(status: status)
        default: false
        }
    }
}

/// The poster loads running, by title, cancelled ones included until they end, each with the
/// gate its commit passes: what ``OMDbClient/savedPosters(for:in:waitingUpTo:)`` waits on and
/// gives up.
final class RunningLoads: Sendable {
    private let running = Mutex<[String: [CommitGate]]>([:])

    /// A load of `imdbID` starts: the gate its commit is to pass.
    func begin(_ imdbID: String) -> CommitGate {
        let gate = CommitGate()
        running.withLock { $0[imdbID, default: []].append(gate) }
        return gate
    }

    func end(_ imdbID: String, _ gate: CommitGate) {
        running.withLock { running in
            running[imdbID]?.removeAll { $0 === gate }
            if running[imdbID]?.isEmpty == true { running[imdbID] = nil }
        }
    }

    /// Whether a load of one of `imdbIDs` is running now.
    func anyRunning(_ imdbIDs: Set<String>) -> Bool {
        running.withLock { running in imdbIDs.contains { running[$0] != nil } }
    }

    /// Gives up the writes of `imdbIDs` not yet put in place; returns the files of those put in
    /// place already, by title, whose loads are ending.
    func giveUp(_ imdbIDs: Set<String>) -> [String: URL] {
        let gates = running.withLock { running in imdbIDs.flatMap { id in (running[id] ?? []).map { (id, $0) } } }
        var placed: [String: URL] = [:]
        for (id, gate) in gates { if let file = gate.giveUp() { placed[id] = file } }
        return placed
    }

    /// Returns once no load of `imdbIDs` is running, or `timeout` has passed; loads of other
    /// titles (a later page's, loading ahead) are not waited for. Not cancellable: a cancelled
    /// caller is the one that asks (see ``OMDbClient/savedPosters(for:in:waitingUpTo:)``). Loads
    /// end within milliseconds of a cancellation unless a write is being put in place, so it looks
    /// every 2 ms rather than keep a list of waiters for a moment this rare.
    func ended(_ imdbIDs: Set<String>, waitingUpTo timeout: Duration) async {
        guard anyRunning(imdbIDs) else { return }
        await Task.detached { [self] in
            let deadline = ContinuousClock.now + timeout
            while anyRunning(imdbIDs), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(2))
            }
        }.value
    }
}
