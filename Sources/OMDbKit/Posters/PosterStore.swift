import Files
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A poster saved in the folder: where it is, and whether it was there before.
public struct SavedPoster: Sendable, Hashable {
    /// Where the poster is.
    public let file: URL
    /// True when the file was already in the folder, so nothing was downloaded.
    public let wasAlreadyThere: Bool
    /// Set when a wider poster was asked for and failed, so OMDb's own was saved: says why.
    public var fallback: String? = nil
}

/// The folder the user chose for posters.
///
/// Posters stream to a temporary file in the folder as the bytes arrive (never held whole),
/// checked as they come (an image, within the cap), then renamed over the final name: the folder
/// never holds half a poster. Temporary files carry their owner, so runs can share a folder.
/// Each store keeps one index of the folder, from one listing made in the background as the
/// store is created, so finding an earlier copy costs no listing.
public struct PosterStore: Sendable {
    /// Where posters go; created when the first one is saved.
    public let folder: URL
    /// Posters larger than this are refused (bytes).
    public let maxBytes: Int
    /// Whose temporary files this store writes.
    public let owner: PosterOwner
    /// The width to download posters at (see ``PosterWidth``). File names never carry it: a
    /// wider download replaces a narrower file of the same title.
    public let width: PosterWidth
    /// Where this store's writes in progress are recorded: the program finishes them before exiting.
    public let writes: PendingWrites
    let index: PosterIndex
    /// Appends a chunk to a poster's file, on a file-work thread: a seam for tests of a slow or
    /// failing disk.
    var append: @Sendable (PosterFile, Data, URL) throws(OMDbError) -> Void = { try $0.append($1, destination: $2) }
    /// Flushes a poster's file and renames it into place unless its ``CommitGate`` was given up
    /// (false then), on a file-work thread: a seam for tests of a write being put in place as
    /// the page is stopped.
    var commit: @Sendable (PosterFile, URL, CommitGate?) throws(OMDbError) -> Bool = { try $0.commit(to: $1, unless: $2) }

    /// The default size cap: 20 MB.
    public static let defaultMaxBytes = 20_000_000
    static let temporaryPrefix = PosterFile.temporaryPrefix
    /// A temporary file older than this is a leftover whoever wrote it: no write lasts that long.
    static let leftoverAge: TimeInterval = 3_600

    /// Starts listing the folder in the background (see ``existingFile(for:)``), and removing
    /// the leftovers of killed runs found in it (see ``removeLeftovers()``).
    /// - Parameters:
    ///   - folder: where posters go; created when the first is saved.
    ///   - maxBytes: posters larger than this are refused.
    ///   - owner: whose temporary files this store writes; this process by default.
    ///   - width: the width posters are downloaded at.
    ///   - writes: records the writes in progress, for ``PendingWrites/finish(timeout:)``
    ///     before exiting; by default a set of the store's own (``writes``).
    public init(folder: URL, maxBytes: Int = PosterStore.defaultMaxBytes, owner: PosterOwner = .current, width: PosterWidth = .standard,
                writes: PendingWrites = PendingWrites()) {
        self.init(folder: folder, maxBytes: maxBytes, owner: owner, width: width, writes: writes, listing: { $0.names($1) })
    }

    /// - Parameter listing: lists the folder's names; a seam for tests.
    init(folder: URL, maxBytes: Int = PosterStore.defaultMaxBytes, owner: PosterOwner = .current, width: PosterWidth = .standard,
         writes: PendingWrites = PendingWrites(), listing: @escaping PosterIndex.Listing) {
        self.folder = folder.standardizedFileURL
        self.maxBytes = maxBytes
        self.owner = owner
        self.width = width
        self.writes = writes
        index = PosterIndex(folder: self.folder, listing: listing) { open, names in
            Self.removeLeftovers(names, in: open)
        }
    }

    private init(_ store: PosterStore, width: PosterWidth) {
        folder = store.folder
        maxBytes = store.maxBytes
        owner = store.owner
        self.width = width
        writes = store.writes
        index = store.index
        append = store.append
        commit = store.commit
    }

    /// This store at another width, sharing its index (the folder is not listed again) and its ``writes``.
    public func atWidth(_ width: PosterWidth) -> PosterStore {
        PosterStore(self, width: width)
    }

    /// The poster already in the folder for `imdbID`, whatever its title or extension.
    /// A lookup and one `stat`; while the store's one listing of the folder runs, it waits for it.
    public func existingFile(for imdbID: String) async -> URL? {
        let marker = PosterName.marker(for: imdbID)
        return await index.file(endingWith: ImageFormat.allCases.map { marker + $0.fileExtension })
            .map { folder.appendingPathComponent($0) }
    }

    /// Streams `body` to its file as the bytes arrive, checked as they come (an image, within the
    /// cap), then flushes it and renames it into place as `Title (Year) [imdbID].ext`. For bytes
    /// in memory, pass `HTTPBody(data)`.
    /// - Throws: ``OMDbError/posterNotAnImage(url:contentType:)``, ``OMDbError/posterTooLarge(bytes:limit:)``,
    ///   ``OMDbError/posterNotWritten(path:reason:)``; what the body's stream threw (a
    ///   ``TransportError``, `CancellationError`) as it came. Nothing is left in the folder when it throws.
    public func save(streaming body: HTTPBody, contentType: String? = nil, source: String, title: String, year: String?,
                     imdbID: String) async throws -> URL {
        try await receive(streaming: body, contentType: contentType, source: source, title: title, year: year, imdbID: imdbID).commit()
    }

    /// Streams `body` to its file, and returns once every byte has arrived (those the disk has not
    /// taken yet wait in a bounded buffer; past it the transfer pauses): the type is told from the
    /// first bytes and the cap enforced as they come. The writes run on a file-work thread, never
    /// on the transport's, and what is left of them, the `fsync` and the rename happen in
    /// ``ArrivedPoster/commit()``, which the caller runs once done with the network (outside the
    /// request's deadline and its place among the requests in flight).
    /// - Throws: as ``save(streaming:contentType:source:title:year:imdbID:)``, for what happened so far.
    /// - Parameter cleanup: discards the write at once when the caller's task is cancelled (see
    ///   ``PosterCleanup``); one of this call's own when nil.
    func receive(streaming body: HTTPBody, contentType: String? = nil, source: String, title: String, year: String?,
                 imdbID: String, cleanup: PosterCleanup? = nil) async throws -> ArrivedPoster {
        if let length = body.length, length > maxBytes { throw OMDbError.posterTooLarge(bytes: length, limit: maxBytes) }
        let writer = writer(contentType: contentType, source: source, title: title, year: year, imdbID: imdbID)
        cleanup?.watch(writer)
        // Cancelled, the temporary file goes at once, not when the task gets to its catch: whoever
        // cancelled it finds no partial file in the folder.
        return try await withTaskCancellationHandler {
            do {
                let draining = try await body.receive { chunk in try writer.take(chunk) }
                return ArrivedPoster { [index, commit] gate in
                    try await withTaskCancellationHandler {
                        do {
                            try await draining.finished()
                            let committed = try await FileWork.run { Result { () throws(OMDbError) -> URL? in
                                let (file, destination) = try writer.finish()
                                // Given up while the flush runs, its name goes at once, not when the disk answers.
                                if let gate, !gate.flushing(removal: { file.removeName() }) {
                                    file.discard()
                                    return nil
                                }
                                return try commit(file, destination, gate) ? destination : nil
                            } }.get()
                            // Given up by the one who wanted it (its page was stopped): nothing was put in place.
                            guard let destination = committed else { throw CancellationError() }
                            index.add(destination.lastPathComponent)
                            return destination
                        } catch {
                            writer.discard()
                            try Task.checkCancellation()
                            throw error
                        }
                    } onCancel: {
                        writer.discard()
                    }
                }
            } catch {
                writer.discard()
                throw error
            }
        } onCancel: {
            writer.discard()
        }
    }

    /// Returns once the temporary files that runs left when they were killed (a crash, SIGKILL:
    /// nothing else leaves them) are removed from the folder: those whose owner process is gone,
    /// that name no owner, or that are old. The live files of another run sharing the folder are
    /// left alone. The store does this once, from the listing its index is built from.
    public func removeLeftovers() async {
        await index.sweptLeftovers()
    }

    /// Removes the leftovers among `names`, the folder's temporary files, through the folder as
    /// opened and checked for the listing (``OpenFolder``), never by path.
    private static func removeLeftovers(_ names: [String], in open: OpenFolder) {
        for name in names {
            let owner = PosterOwner(tag: name.dropFirst(temporaryPrefix.count))
            guard let status = open.status(name) else { continue }   // finished (renamed) since the listing
            #if canImport(Darwin)
            let modified = TimeInterval(status.st_mtimespec.tv_sec)
            #else
            let modified = TimeInterval(status.st_mtim.tv_sec)
            #endif
            let old = Date().timeIntervalSince1970 - modified > leftoverAge
            if old || !(owner?.isAlive ?? false) { open.remove(name) }
        }
    }

    /// A writer for one poster, whose file is opened in this folder once its format is known.
    private func writer(contentType: String?, source: String, title: String, year: String?, imdbID: String) -> PosterWriter {
        PosterWriter(maxBytes: maxBytes, refusal: .posterNotAnImage(url: source, contentType: contentType), append: append) { [self] (format) throws(OMDbError) in
            try open(format: format, title: title, year: year, imdbID: imdbID)
        }
    }

    /// Opens a temporary file for the poster's final name, in the folder made if needed (see
    /// ``openFolder(_:)``).
    private func open(format: ImageFormat, title: String, year: String?, imdbID: String) throws(OMDbError) -> (PosterFile, URL) {
        let destination = folder.appendingPathComponent(PosterName.fileName(title: title, year: year, imdbID: imdbID, format: format))
        return (try PosterFile(in: folder, owner: owner, destination: destination, writes: writes), destination)
    }
}

/// A poster whose bytes have all arrived: still being written, not yet in its place.
struct ArrivedPoster: Sendable {
    fileprivate let finish: @Sendable (CommitGate?) async throws -> URL

    /// Waits for the last writes, then flushes the file and renames it into place, unless
    /// `gate` was given up first.
    /// - Throws: ``OMDbError/posterNotWritten(path:reason:)`` (the disk), `CancellationError`
    ///   (cancelled, or the gate given up). Nothing is left in the folder when it throws.
    func commit(unless gate: CommitGate? = nil) async throws -> URL {
        try await finish(gate)
    }
}

/// Decides, once and for good, whether a poster's write is put in place: its commit renames the
/// file unless the one who wanted it gave it up first, and one who gives it up learns whether it
/// was too late. So a page stopped while its posters are being flushed to a slow disk says of each
/// either "saved", with the file there, or "stopped", with no file appearing later.
final class CommitGate: Sendable {
    private enum State {
        /// Not decided; `removal` takes the temporary file's name away once the flush has begun.
        case open(removal: (@Sendable () -> Void)?)
        case putInPlace(URL)
        case givenUp
    }

    private let state = Mutex(State.open(removal: nil))

    init() {}

    /// The commit begins to flush the file; `removal` removes its temporary name if the write is
    /// given up meanwhile. False when it was given up already: the commit stops there.
    func flushing(removal: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard case .open = state else { return false }
            state = .open(removal: removal)
            return true
        }
    }

    /// Runs `rename` unless the write was given up: nil then, else whether it renamed the file to
    /// `destination`. The decision and the rename happen under one lock, so ``giveUp()`` never
    /// sees half of it.
    func putInPlace(at destination: URL, _ rename: () -> Bool) -> Bool? {
        state.withLock { state in
            guard case .open = state else { return nil }
            let renamed = rename()
            if renamed { state = .putInPlace(destination) }
            return renamed
        }
    }

    /// Gives the write up, its temporary file's name removed at once (a flush under way ends in a
    /// file no one can reach), unless it was put in place already: that file then.
    func giveUp() -> URL? {
        let (removal, placed) = state.withLock { state -> ((@Sendable () -> Void)?, URL?) in
            switch state {
            case .open(let removal):
                state = .givenUp
                return (removal, nil)
            case .putInPlace(let file):
                return (nil, file)
            case .givenUp:
                return (nil, nil)
            }
        }
        removal?()
        return placed
    }
}

/// Discards a poster's write the moment its task is cancelled, wherever the task is between the
/// download and the commit: the one who cancelled finds no partial file in the folder.
final class PosterCleanup: Sendable {
    private let state = Mutex((writer: PosterWriter?.none, cancelled: false))

    /// From now on, a cancellation discards `writer` (at once if it came already).
    func watch(_ writer: PosterWriter) {
        let cancelled = state.withLock { state in
            state.writer = writer
            return state.cancelled
        }
        if cancelled { writer.discard() }
    }

    /// The task was cancelled.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.writer
        }?.discard()
    }
}
