import Foundation

/// Part of what became of one result: its record, or its poster, each sent the moment it is known.
public struct MovieUpdate: Sendable {
    public enum Part: Sendable {
        /// The record (with its plot), or why it could not be had.
        case record(Result<Movie, OMDbError>)
        /// The saved poster, or why there is none. Only sent when a poster folder was given.
        case poster(Result<SavedPoster, OMDbError>)
    }

    /// The result's position in the list passed to ``OMDbClient/details(for:plot:posters:)``.
    public let index: Int
    public let item: SearchItem
    public let part: Part
}

extension OMDbClient {
    /// Fetches every item's record and poster, one child task per item (at most
    /// `maxConcurrentRequests` at a time), and yields each record and each poster outcome the
    /// moment it is known: a row's plot never waits for its poster.
    ///
    /// One item's failure never fails the others: each update carries its own outcome.
    /// Cancelling the consuming task (or dropping the stream) cancels the children; updates
    /// already yielded stay valid, and no partial poster file is left.
    /// - Parameter posters: where to save posters; `nil` to skip them.
    public nonisolated func details(for items: [SearchItem], plot: PlotLength = .short, posters: PosterStore? = nil) -> AsyncStream<MovieUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: MovieUpdate.self)
        let limit = configuration.maxConcurrentRequests
        let work = Task {
            await withTaskGroup(of: Void.self) { group in
                for (index, item) in items.enumerated() {
                    if index >= limit { await group.next() }
                    group.addTask {
                        await self.fill(item, at: index, plot: plot, posters: posters) { continuation.yield($0) }
                    }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in work.cancel() }
        return stream
    }

    /// One child: the record and the poster at the same time, each reported the moment it is done.
    private nonisolated func fill(_ item: SearchItem, at index: Int, plot: PlotLength, posters: PosterStore?,
                                  report: @escaping @Sendable (MovieUpdate) -> Void) async {
        await withTaskGroup(of: Void.self) { parts in
            parts.addTask {
                if let record = await outcome({ try await self.movie(imdbID: item.imdbID, plot: plot) }), !Task.isCancelled {
                    report(MovieUpdate(index: index, item: item, part: .record(record)))
                }
            }
            if let posters {
                parts.addTask {
                    if let saved = await outcome({ try await self.poster(for: item, in: posters) }), !Task.isCancelled {
                        report(MovieUpdate(index: index, item: item, part: .poster(saved)))
                    }
                }
            }
        }
    }

    // MARK: Posters

    /// The poster of `item` in `store`: the file already there, else downloaded, checked and
    /// written atomically. A poster this session already saved elsewhere is copied, not downloaded;
    /// one refused for good (N/A, 404, not an image, too large) is not asked for again.
    /// - Throws: ``OMDbError`` (poster cases, HTTP and network) or `CancellationError`.
    public func poster(for item: SearchItem, in store: PosterStore) async throws -> SavedPoster {
        let key = "\(store.folder.path)|\(item.imdbID)"
        let joinable = posterLoads[key].flatMap { $0.isAbandoned ? nil : $0 }
        let load = joinable ?? SharedLoad { try await self.loadPoster(for: item, in: store) }
        posterLoads[key] = load
        defer { if posterLoads[key] === load { posterLoads[key] = nil } }
        return try await load.value()
    }

    private func loadPoster(for item: SearchItem, in store: PosterStore) async throws -> SavedPoster {
        let existing = store.existingFile(for: item.imdbID)
        if let existing, store.isWideEnough(file: existing) {
            posters[item.imdbID] = .success(existing)
            return SavedPoster(file: existing, wasAlreadyThere: true)
        }
        if case .failure(let error)? = posters[item.imdbID] { throw error }
        let data: Data
        let contentType: String?
        let source: String
        var fallback: String?
        if case .success(let earlier)? = posters[item.imdbID], let bytes = FileManager.default.contents(atPath: earlier.path),
           store.isWideEnough(bytes) {
            // Saved into another folder earlier in this session: copy it, do not download it again.
            (data, contentType, source) = (bytes, nil, earlier.path)
        } else {
            guard let url = item.posterURL else {
                posters[item.imdbID] = .failure(.posterUnavailable)
                throw OMDbError.posterUnavailable
            }
            let response: HTTPResponse
            let shown: String
            do {
                (response, shown, fallback) = try await fetchPoster(url, width: store.width, limit: store.maxBytes)
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
            // A wider poster replaces the narrower one, even when its format (and so its extension) differs.
            if let existing, existing.standardizedFileURL != file.standardizedFileURL { try? FileManager.default.removeItem(at: existing) }
            return SavedPoster(file: file, wasAlreadyThere: false, fallback: fallback)
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
