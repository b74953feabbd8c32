import Files
import Foundation
import Synchronization

extension OMDbClient {
    /// The poster of `item` in `store`: the file already there, else downloaded and streamed to
    /// its file as the bytes arrive. A poster this session already saved elsewhere is copied,
    /// not downloaded; one refused for good (N/A, 404, not an image, too large) is not asked for
    /// again. Transient failures (5xx, 408, 429, the network) are retried, and never remembered.
    /// - Throws: ``OMDbError`` (poster cases, HTTP and network) or `CancellationError`.
    public nonisolated func poster(for item: SearchItem, in store: PosterStore) async throws -> SavedPoster {
        let key = [store.folder.path, item.imdbID]
        return try await posters.value(for: key) { try await self.loadPoster(for: item, in: store) }
    }

    /// Runs off the actor: the folder's index, the download and the file writes never block it.
    private nonisolated func loadPoster(for item: SearchItem, in store: PosterStore) async throws -> SavedPoster {
        let existing = await store.existingFile(for: item.imdbID)
        if let existing, store.isWideEnough(file: existing) {
            return remember(SavedPoster(file: existing, wasAlreadyThere: true), posterOf: item.imdbID)
        }
        let year = item.year?.text
        switch posterOutcomes.withLock({ $0[item.imdbID] })?.map(\.file) {
        case .failure(let error)?:
            throw error
        case .success(let earlier)? where store.isWideEnough(file: earlier):
            // Saved into another folder earlier in this session: copy it, do not download it again.
            // Opened as AtomicFile checks it (through its folder, O_NOFOLLOW): the file may have been swapped since.
            if let (fd, _) = try? AtomicFile(earlier).openForReading(),
               let body = try? HTTPBody(reading: FileHandle(fileDescriptor: fd, closeOnDealloc: true)) {
                let file = try await store.receive(streaming: body, source: earlier.path, title: item.title, year: year,
                                                   imdbID: item.imdbID).placed()
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
            let receive: @Sendable (TransportResponse, String) async throws -> Arrival = { response, shown in
                try await store.receive(streaming: response.body, contentType: response.contentType, source: shown,
                                        title: item.title, year: year, imdbID: item.imdbID)
            }
            // The URL rewritten to the width asked for first; when that fails in any way (network, HTTP
            // status, not an image), the URL OMDb gave, saying why.
            let wide = store.width.rewrite(url)
            var fallback: String?
            let arrival: Arrival
            do {
                arrival = try await sender.download(wide, receive)
            } catch let error as OMDbError where wide != url {
                try Task.checkCancellation()
                let reason = switch error {
                case .httpStatus(let status, _): "HTTP \(status)"
                case .posterNotAnImage: "not an image"
                default: error.description
                }
                fallback = "width \(store.width) failed (\(reason)), saved OMDb's"
                arrival = try await sender.download(url, receive)
            }
            // Done with the network: the last writes, the flush and the rename wait for the disk
            // alone, outside the request's deadline and its place among the requests in flight, so
            // a slow disk is never taken for a slow server (nor the poster downloaded again).
            let file = try await arrival.placed()
            let saved = remember(SavedPoster(file: file, wasAlreadyThere: false, fallback: fallback), posterOf: item.imdbID)
            // A wider poster replaces the narrower one, even when its format (and so its extension) differs.
            if let existing, existing.standardizedFileURL != file.standardizedFileURL {
                // Through the folder as opened and checked, never by path.
                (try? OpenFolder(existing.deletingLastPathComponent()))?.remove(existing.lastPathComponent)
            }
            return saved
        } catch let error as OMDbError {
            // Remembered when asking again will not change it: never a disk error or a transient failure.
            switch error {
            case .posterUnavailable, .posterNotAnImage, .posterTooLarge: remember(error, posterOf: item.imdbID)
            case .httpStatus(let status, _) where !RetryPolicy.isTransient(status: status):
                remember(error, posterOf: item.imdbID)
            default: break
            }
            throw error
        }
    }

    /// Transient failures are never remembered: only a saved file or a refusal for good.
    private nonisolated func remember(_ failure: OMDbError, posterOf imdbID: String) {
        posterOutcomes.withLock { $0[imdbID] = .failure(failure) }
    }

    /// Remembers the title's poster as `saved` (a later row of the same title names it), and returns it.
    private nonisolated func remember(_ saved: SavedPoster, posterOf imdbID: String) -> SavedPoster {
        posterOutcomes.withLock { $0[imdbID] = .success(saved) }
        return saved
    }
}
