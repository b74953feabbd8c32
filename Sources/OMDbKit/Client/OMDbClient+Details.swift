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

    /// An update made outside ``OMDbClient/details(for:plot:posters:)``, such as the row of an exact-title match.
    package static func at(_ index: Int, item: SearchItem, part: Part) -> MovieUpdate {
        MovieUpdate(index: index, item: item, part: part)
    }
}

extension OMDbClient {
    /// Fetches every item's record and poster, and yields each outcome the moment it is known: a
    /// row's plot never waits for its poster.
    ///
    /// One item's failure never fails the others, except a problem with the key itself
    /// (``OMDbError/isKeyProblem``): yielded once, on its row, and the rest is cancelled. Cancelling
    /// the iterating task, or dropping the updates, stops the work and leaves no partial poster file;
    /// a poster put in place before the stop is still yielded as saved.
    /// - Parameters:
    ///   - items: the results to fill in; updates carry their positions in it.
    ///   - plot: how much plot each record asks for.
    ///   - posters: where to save posters; `nil` to skip them.
    public nonisolated func details(for items: [SearchItem], plot: PlotLength = .short,
                                    posters: PosterStore? = nil) -> some AsyncSequence<MovieUpdate, Never> & Sendable {
        detailUpdates(for: items, plot: plot, posters: posters)
    }

    /// ``details(for:plot:posters:)`` as ``MovieUpdates``, which can also be stopped while kept.
    package nonisolated func detailUpdates(for items: [SearchItem], plot: PlotLength = .short, posters: PosterStore? = nil) -> MovieUpdates {
        let feed = UpdateFeed()
        // The day's places go to the rows in rank order, here, before any row's task runs: at
        // the daily limit a page fills ranks 1…k, whichever requests reach the network first.
        let tickets = items.map { _ in configuration.ledger.flatMap(QuotaTicket.init) }
        let body: @Sendable () async -> Void = {
            let (keyRefused, limitReached) = (Once(), Once())
            await withTaskGroup(of: Bool.self) { group in
                for (index, item) in items.enumerated() {
                    group.addTask {
                        let ticket = tickets[index]
                        defer { ticket?.giveBack() }
                        let send: @Sendable (MovieUpdate.Part) -> Void = { feed.yield(MovieUpdate(index: index, item: item, part: $0)) }
                        async let poster: Void = {
                            guard let posters else { return }
                            // A row the day had no place for shows no record, unless it was kept (the
                            // session's or the disk's): its poster waits for that answer, so a page cut
                            // by the daily limit saves no poster for a row it never shows.
                            if ticket == nil, self.configuration.ledger != nil,
                               case .failure(let error)? = await outcome({ try await self.movie(imdbID: item.imdbID, plot: plot) }),
                               error.isDailyLimit {
                                return
                            }
                            // A poster in place is said, even when the page was stopped meanwhile.
                            if let saved = await outcome({ try await self.poster(for: item, in: posters) }) { send(.poster(saved)) }
                        }()
                        let record = await QuotaTicket.$current.withValue(ticket) {
                            await outcome({ try await self.movie(imdbID: item.imdbID, plot: plot) })
                        }
                        var stop = false
                        switch record {
                        case nil:
                            break
                        case .failure(let error)? where error.isDailyLimit:
                            // Said once for the page; the rows already sent are let finish, so a
                            // slow rank 1 is not lost to a refused rank 6.
                            if limitReached.first() { send(.record(.failure(error))) }
                        case .failure(let error)? where error.isKeyProblem:
                            // One message for the page, not one per row; every other row would fail alike.
                            if keyRefused.first() { send(.record(.failure(error))) }
                            stop = true
                        case let result?:
                            if !Task.isCancelled { send(.record(result)) }
                        }
                        await poster
                        return stop
                    }
                }
                for await stop in group where stop {
                    group.cancelAll()
                }
            }
            feed.finish()
        }
        // Started here, on the caller's thread, up to its first wait: the rows' requests are on
        // their way before the caller draws the page, not after a thread of the pool picks the task up.
        #if compiler(>=6.2)
        let work = if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { Task.immediate(operation: body) } else { Task(operation: body) }
        #else
        let work = Task(operation: body)
        #endif
        // A row cancelled before it ran never gave its place back.
        feed.onCancel { work.cancel(); for ticket in tickets { ticket?.giveBack() } }
        return MovieUpdates(feed: feed)
    }
}

/// What ``OMDbClient/details(for:plot:posters:)`` yields. The work runs whether or not anyone
/// iterates yet, and stops when the iterating task is cancelled, on ``cancel()``, or when every copy
/// is dropped (its iterators hold it); then it still yields what the stop could not undo (a poster
/// put in place), and ends.
package final class MovieUpdates: AsyncSequence, Sendable {
    package typealias Element = MovieUpdate

    private let feed: UpdateFeed

    init(feed: UpdateFeed) { self.feed = feed }

    deinit { feed.cancel() }

    /// Stops the work: rows not done yet send nothing more but their posters put in place.
    package func cancel() { feed.cancel() }

    package func makeAsyncIterator() -> Iterator { Iterator(updates: self) }

    /// Waits for the next update; cancelling the waiting task stops the work (see ``MovieUpdates``).
    package struct Iterator: AsyncIteratorProtocol {
        let updates: MovieUpdates

        package mutating func next() async -> MovieUpdate? { await updates.feed.next() }
    }
}

/// The updates on their way from the rows' tasks to one reader. Unlike an `AsyncStream`, a cancelled
/// reader is not sent away empty: its cancellation stops the work, and it reads on to the end.
final class UpdateFeed: Sendable {
    private struct State {
        var queued: [MovieUpdate] = []
        var reader: CheckedContinuation<MovieUpdate?, Never>?
        var finished = false
        var stop: (@Sendable () -> Void)?
        var stopped = false
    }

    private let state = Mutex(State())

    func yield(_ update: MovieUpdate) {
        state.withLock { state -> CheckedContinuation<MovieUpdate?, Never>? in
            guard let reader = state.reader else {
                state.queued.append(update)
                return nil
            }
            state.reader = nil
            return reader
        }?.resume(returning: update)
    }

    func finish() {
        state.withLock { state -> CheckedContinuation<MovieUpdate?, Never>? in
            state.finished = true
            defer { state.reader = nil }
            return state.reader
        }?.resume(returning: nil)
    }

    /// What ``cancel()`` does, once (at once when cancelled already).
    func onCancel(_ stop: @escaping @Sendable () -> Void) {
        let now = state.withLock { state in
            state.stop = stop
            return state.stopped
        }
        if now { stop() }
    }

    func cancel() {
        state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.stopped else { return nil }
            state.stopped = true
            return state.stop
        }?()
    }

    func next() async -> MovieUpdate? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { reader in
                let now = state.withLock { state -> MovieUpdate?? in
                    if !state.queued.isEmpty { return state.queued.removeFirst() }
                    if state.finished { return .some(nil) }
                    state.reader = reader
                    return nil
                }
                if let now { reader.resume(returning: now) }
            }
        } onCancel: {
            cancel()
        }
    }
}

/// True for the first caller only: the first row that meets a refused key, or the daily limit.
private final class Once: Sendable {
    private let done = Atomic(false)

    func first() -> Bool { !done.exchange(true, ordering: .relaxed) }
}

/// Runs `body`, keeping its ``OMDbError`` as a value; `nil` when the task was cancelled.
package func outcome<T: Sendable>(_ body: @Sendable () async throws -> T) async -> Result<T, OMDbError>? {
    do {
        return .success(try await body())
    } catch let error as OMDbError {
        return .failure(error)
    } catch {
        return nil
    }
}
