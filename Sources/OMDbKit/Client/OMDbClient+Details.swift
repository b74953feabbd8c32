import Foundation
import Synchronization

/// Part of what became of one result: its record, or its poster, each sent the moment it is known.
public struct MovieUpdate: Sendable {
    /// Which half of a result arrived.
    public enum Part: Sendable {
        /// The record (with its plot), or why it could not be had.
        case record(Result<Movie, OMDbError>)
        /// The saved poster, or why there is none. Only sent when a poster folder was given.
        case poster(Result<SavedPoster, OMDbError>)
    }

    /// The result's position in the list passed to ``OMDbClient/details(for:plot:posters:)``.
    public let index: Int
    /// The result the update is about.
    public let item: SearchItem
    /// Its record or its poster.
    public let part: Part
}

extension OMDbClient {
    /// Fetches every item's record and poster, all at once (the client's limit on requests in
    /// flight decides how many actually run), and yields each record and each poster outcome
    /// the moment it is known: a row's plot never waits for its poster.
    ///
    /// One item's failure never fails the others: each update carries its own outcome. The
    /// exception is a problem with the key itself (``OMDbError/isKeyProblem``): every other
    /// request would fail alike, so it is yielded once, on its row, and the rest is cancelled.
    /// Cancelling the consuming task, dropping the updates, or calling ``MovieUpdates/cancel()``
    /// cancels the children; updates already yielded stay valid,
    /// and no partial poster file is left. A poster whose bytes had all arrived is still put in
    /// place; ``savedPosters(for:in:waitingUpTo:)`` says which were.
    /// - Parameters:
    ///   - items: the results to fill in; updates carry their positions in it.
    ///   - plot: how much plot each record asks for.
    ///   - posters: where to save posters; `nil` to skip them.
    public nonisolated func details(for items: [SearchItem], plot: PlotLength = .short, posters: PosterStore? = nil) -> MovieUpdates {
        let (stream, continuation) = AsyncStream.makeStream(of: MovieUpdate.self)
        // The day's places go to the rows in rank order, here, before any row's task runs: at
        // the daily limit a page fills ranks 1…k, whichever requests reach the network first.
        let tickets = items.map { _ in sender.ledger.flatMap(QuotaTicket.init) }
        let body: @Sendable () async -> Void = {
            let keyRefused = KeyRefusal()
            let limitReached = KeyRefusal()
            await withTaskGroup(of: Bool.self) { group in
                for (index, item) in items.enumerated() {
                    group.addTask {
                        let ticket = tickets[index]
                        defer { ticket?.giveBack() }
                        guard let record = await QuotaTicket.$current.withValue(ticket, operation: {
                            await outcome({ try await self.movie(imdbID: item.imdbID, plot: plot) })
                        }), !Task.isCancelled else { return false }
                        if case .failure(.dailyLimitReached) = record {
                            // Said once for the page; the rows already sent are let finish, so
                            // a slow rank 1 is not lost to a refused rank 6.
                            if limitReached.first() { continuation.yield(MovieUpdate(index: index, item: item, part: .record(record))) }
                            return false
                        }
                        if case .failure(let error) = record, error.isKeyProblem {
                            // One message for the page, not one per row.
                            guard keyRefused.first() else { return true }
                            continuation.yield(MovieUpdate(index: index, item: item, part: .record(record)))
                            return true
                        }
                        continuation.yield(MovieUpdate(index: index, item: item, part: .record(record)))
                        return false
                    }
                    if let posters {
                        // A row the day had no place for shows no record, unless it was kept (the
                        // session's or the disk's): its poster waits for that answer, so a page cut
                        // by the daily limit saves no poster for a row it never shows.
                        let placeless = self.sender.ledger != nil && tickets[index] == nil
                        group.addTask {
                            if placeless, case .failure(let error)? = await outcome({ try await self.movie(imdbID: item.imdbID, plot: plot) }),
                               error.isDailyLimit {
                                return false
                            }
                            // A poster saved is said even when the page was stopped meanwhile: the file is there.
                            if let saved = await outcome({ try await self.poster(for: item, in: posters) }),
                               !Task.isCancelled || (try? saved.get()) != nil {
                                continuation.yield(MovieUpdate(index: index, item: item, part: .poster(saved)))
                            }
                            return false
                        }
                    }
                }
                for await stop in group where stop {
                    group.cancelAll()
                }
            }
            continuation.finish()
        }
        // Started here, on the caller's thread, up to its first wait: the rows' requests are on
        // their way before the caller draws the page, not after a thread of the pool picks the task
        // up (0.5-1.1 ms after a search's answer or `more`, measured).
        #if compiler(>=6.2)
        let work = if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { Task.immediate(operation: body) } else { Task(operation: body) }
        #else
        let work = Task(operation: body)
        #endif
        continuation.onTermination = { _ in
            work.cancel()
            // A row cancelled before it ran never gave its place back.
            for ticket in tickets { ticket?.giveBack() }
        }
        return MovieUpdates(stream: stream, work: work)
    }
}

/// What ``OMDbClient/details(for:plot:posters:)`` yields: each row's record and poster outcome as
/// it is known, until every row is done.
///
/// The work runs whether or not anyone iterates yet (a page's requests start before it is drawn).
/// It stops when the task iterating is cancelled, when every copy of the updates is dropped, or
/// when ``cancel()`` is called: for updates kept but no longer wanted, such as a later page's,
/// waiting behind the page shown when Ctrl-C came.
public struct MovieUpdates: AsyncSequence, Sendable {
    public typealias Element = MovieUpdate

    let stream: AsyncStream<MovieUpdate>
    let work: Task<Void, Never>

    /// Stops the work: rows not done yet send nothing more, and the updates end.
    public func cancel() { work.cancel() }

    public func makeAsyncIterator() -> AsyncStream<MovieUpdate>.Iterator {
        stream.makeAsyncIterator()
    }
}

/// Set once, by the first row that meets a refused key (or the daily limit).
private final class KeyRefusal: Sendable {
    private let refused = Mutex(false)

    /// True for the first caller only.
    func first() -> Bool {
        refused.withLock { refused in
            defer { refused = true }
            return !refused
        }
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
