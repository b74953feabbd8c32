import Files
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One poster written as its bytes arrive and put in place at the end, or given up, leaving nothing.
///
/// The format is told from the first bytes, a temporary file opened, each chunk appended, then the
/// file flushed and renamed into place. ``giveUp()`` (from any thread) removes the temporary name
/// at once. The rename and the give-up are decided under one lock, so a poster is in place or gone,
/// never both; disk writes run outside it, so giving up never waits for the disk.
final class PosterWrite: Sendable {
    private enum State {
        /// The first bytes, until there are enough to tell the format.
        case sniffing(Data)
        case writing(PosterFile)
        case placed(URL)
        case givenUp
    }

    private let state = Mutex((State.sniffing(Data()), bytes: 0))
    private let maxBytes: Int
    private let refusal: OMDbError
    private let open: @Sendable (ImageFormat) throws(OMDbError) -> PosterFile
    private let disk: PosterStore.Disk

    /// - Parameters:
    ///   - refusal: what to throw when the bytes are not an image.
    ///   - open: opens the temporary file for a poster of this format.
    init(maxBytes: Int, refusal: OMDbError, disk: PosterStore.Disk, open: @escaping @Sendable (ImageFormat) throws(OMDbError) -> PosterFile) {
        self.maxBytes = maxBytes
        self.refusal = refusal
        self.disk = disk
        self.open = open
    }

    /// The body's sink: a chunk is appended, `nil` (the body is complete) puts the file in place.
    /// - Throws: ``OMDbError/posterTooLarge(bytes:limit:)``, the refusal, ``OMDbError/posterNotWritten(path:reason:)``;
    ///   the temporary file is gone when it throws.
    func take(_ chunk: Data?) throws(OMDbError) {
        do throws(OMDbError) {
            guard let chunk else { return try commit() }
            let write = try state.withLock { (state) throws(OMDbError) -> (PosterFile, Data)? in
                guard case .givenUp = state.0 else { return try advance(&state, with: chunk) }
                return nil
            }
            if let (file, bytes) = write { try disk.append(file, bytes) }
        } catch {
            _ = giveUp()
            throw error
        }
    }

    /// Gives the poster up unless it is in place (then returns it): the temporary name goes at once.
    @discardableResult
    func giveUp() -> URL? {
        let (placed, file) = state.withLock { state -> (URL?, PosterFile?) in
            switch state.0 {
            case .placed(let url): return (url, nil)
            case .writing(let file): state.0 = .givenUp; return (nil, file)
            case .sniffing, .givenUp: state.0 = .givenUp; return (nil, nil)
            }
        }
        file?.removeName()
        return placed
    }

    /// Where the poster was put; `CancellationError` when it was given up.
    func placed() throws -> URL {
        guard case .placed(let url) = state.withLock({ $0.0 }) else { throw CancellationError() }
        return url
    }

    /// Counts `chunk` against the cap; returns what to append to which file, once the format is known.
    private func advance(_ state: inout (State, bytes: Int), with chunk: Data) throws(OMDbError) -> (PosterFile, Data)? {
        state.bytes += chunk.count
        guard state.bytes <= maxBytes else { throw .posterTooLarge(bytes: state.bytes, limit: maxBytes) }
        switch state.0 {
        case .writing(let file):
            return (file, chunk)
        case .sniffing(var head):
            head.append(chunk)
            guard head.count >= ImageFormat.signatureLength else {
                state.0 = .sniffing(head)
                return nil
            }
            return (try start(&state.0, head: head), head)
        case .placed, .givenUp:
            return nil
        }
    }

    /// Opens the file for the format `head` shows, under the lock, so a give-up always finds it.
    private func start(_ state: inout State, head: Data) throws(OMDbError) -> PosterFile {
        guard let format = ImageFormat(sniffing: head) else { throw refusal }
        let file = try open(format)
        state = .writing(file)
        return file
    }

    /// Flushes the file and renames it into place, unless it was given up meanwhile.
    private func commit() throws(OMDbError) {
        let write = try state.withLock { (state) throws(OMDbError) -> (PosterFile, Data?)? in
            switch state.0 {
            // A body shorter than an image's signature is told at its end.
            case .sniffing(let head): return (try start(&state.0, head: head), head)
            case .writing(let file): return (file, nil)
            case .placed, .givenUp: return nil
            }
        }
        guard let (file, head) = write else { return }
        if let head { try disk.append(file, head) }
        try disk.flush(file)
        let renamed = try state.withLock { (state) throws(OMDbError) -> Bool in
            guard case .writing = state.0 else { return false }
            try disk.rename(file)
            state.0 = .placed(file.destination)
            return true
        }
        if renamed { file.syncFolder() }
    }
}

/// A poster's temporary file, reached only through its folder as opened and checked (``FileTrust``),
/// so a folder renamed or swapped for a symlink mid-page lands nothing elsewhere. Its name carries its owner.
final class PosterFile: Sendable {
    let destination: URL
    let descriptor: Int32
    private let folder: OpenFolder
    private let name: String

    static let temporaryPrefix = ".movies-partial-"

    /// Creates a new temporary file in `folder` (made if needed) for a poster bound for `destination`.
    init(in folder: URL, owner: WriterProcess, destination: URL) throws(OMDbError) {
        let opened = try PosterStore.openFolder(folder)
        name = "\(Self.temporaryPrefix)\(owner.tag)-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        descriptor = opened.open(name, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw .posterNotWritten(path: destination.path, reason: Self.lastError()) }
        self.folder = opened
        self.destination = destination
    }

    deinit { close(descriptor) }

    func append(_ data: Data) throws(OMDbError) {
        guard let failure = AtomicFile.writeAll(data, to: descriptor) else { return }
        throw .posterNotWritten(path: destination.path, reason: String(cString: strerror(failure)))
    }

    func flush() throws(OMDbError) {
        guard fsync(descriptor) == 0 else { throw .posterNotWritten(path: destination.path, reason: Self.lastError()) }
    }

    /// Renames the file over its destination's name (`rename(2)` replaces atomically).
    func rename() throws(OMDbError) {
        guard folder.rename(name, to: destination.lastPathComponent) else {
            throw .posterNotWritten(path: destination.path, reason: Self.lastError())
        }
    }

    /// Syncs the folder, so the rename survives a crash.
    func syncFolder() { _ = fsync(folder.descriptor) }

    /// Removes the temporary name; a write under way goes on into a file no one can reach.
    func removeName() { _ = folder.remove(name) }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
