import Foundation

/// What became of one result once its record and poster were fetched.
public struct MovieUpdate: Sendable {
    /// The result's position in the list passed to ``OMDbClient/details(for:plot:posters:)``.
    public let index: Int
    public let item: SearchItem
    /// The record (with its plot), or why it could not be had.
    public let movie: Result<Movie, OMDbError>
    /// The saved poster, or why there is none; `nil` when no poster folder was given.
    public let poster: Result<SavedPoster, OMDbError>?
}

extension OMDbClient {
    /// Fetches every item's record and poster at once, one child task per item, and yields
    /// each item's outcome the moment it is complete, in completion order.
    ///
    /// One item's failure never fails the others: each update carries its own outcome.
    /// Cancelling the consuming task (or dropping the stream) cancels the children; updates
    /// already yielded stay valid, and no partial poster file is left.
    /// - Parameter posters: where to save posters; `nil` to skip them.
    public nonisolated func details(for items: [SearchItem], plot: PlotLength = .short, posters: PosterStore? = nil) -> AsyncStream<MovieUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: MovieUpdate.self)
        let work = Task {
            await withTaskGroup(of: MovieUpdate?.self) { group in
                for (index, item) in items.enumerated() {
                    group.addTask { await self.update(for: item, at: index, plot: plot, posters: posters) }
                }
                for await update in group {
                    if let update { continuation.yield(update) }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in work.cancel() }
        return stream
    }

    /// One child: the record and the poster at the same time. `nil` when cancelled.
    private nonisolated func update(for item: SearchItem, at index: Int, plot: PlotLength, posters: PosterStore?) async -> MovieUpdate? {
        async let movie = outcome { try await self.movie(imdbID: item.imdbID, plot: plot) }
        async let poster = posterOutcome(for: item, in: posters)
        let (record, image) = await (movie, poster)
        guard let record, let image, !Task.isCancelled else { return nil }
        return MovieUpdate(index: index, item: item, movie: record, poster: image)
    }

    /// `.some(nil)` when there is no poster folder; `nil` when cancelled.
    private nonisolated func posterOutcome(for item: SearchItem, in store: PosterStore?) async -> Result<SavedPoster, OMDbError>?? {
        guard let store else { return .some(nil) }
        return await outcome { try await self.poster(for: item, in: store) }
    }

    // MARK: Posters

    /// The poster of `item` in `store`: the file already there, else downloaded, checked and
    /// written atomically. A poster this session already saved elsewhere is copied, not downloaded.
    /// - Throws: ``OMDbError`` (poster cases, HTTP and network) or `CancellationError`.
    public func poster(for item: SearchItem, in store: PosterStore) async throws -> SavedPoster {
        if let existing = store.existingFile(for: item.imdbID) {
            posters[item.imdbID] = .success(existing)
            return SavedPoster(file: existing, wasAlreadyThere: true)
        }
        let data: Data
        let contentType: String?
        let source: String
        switch posters[item.imdbID] {
        case .failure(let error)?:
            throw error
        case .success(let earlier)? where FileManager.default.fileExists(atPath: earlier.path):
            guard let bytes = FileManager.default.contents(atPath: earlier.path) else { fallthrough }
            (data, contentType, source) = (bytes, nil, earlier.path)
        default:
            guard let url = item.posterURL else {
                posters[item.imdbID] = .failure(.posterUnavailable)
                throw OMDbError.posterUnavailable
            }
            let response: HTTPResponse
            let shown: String
            do {
                (response, shown) = try await fetch(url, countsTowardQuota: false, limit: store.maxBytes)
            } catch let error as OMDbError {
                if case .posterTooLarge = error { posters[item.imdbID] = .failure(error) }
                throw error
            }
            guard (200..<300).contains(response.statusCode) else {
                let error = OMDbError.httpStatus(response.statusCode, url: shown)
                if response.statusCode < 500 { posters[item.imdbID] = .failure(error) }
                throw error
            }
            (data, contentType, source) = (response.body, response.contentType, shown)
        }
        try Task.checkCancellation()
        do {
            let file = try await Self.write(data, contentType: contentType, source: source, item: item, to: store)
            posters[item.imdbID] = .success(file)
            return SavedPoster(file: file, wasAlreadyThere: false)
        } catch let error as OMDbError {
            if case .posterNotWritten = error {} else { posters[item.imdbID] = .failure(error) }
            throw error
        }
    }

    /// Disk work runs off the actor (a static method is not isolated to it).
    private static func write(_ data: Data, contentType: String?, source: String, item: SearchItem, to store: PosterStore) async throws -> URL {
        try store.save(data, contentType: contentType, source: source, title: item.title, year: item.year?.text, imdbID: item.imdbID)
    }
}

/// Runs `body`, keeping its ``OMDbError`` as a value; `nil` when the task was cancelled.
private func outcome<T: Sendable>(_ body: @Sendable () async throws -> T) async -> Result<T, OMDbError>? {
    do {
        return .success(try await body())
    } catch let error as OMDbError {
        return .failure(error)
    } catch {
        return nil
    }
}
