import Foundation
import Files
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A poster being written: a temporary file in the poster folder, named for its owner, filled
/// as the bytes arrive, then flushed and renamed over its final name (and the folder synced),
/// so the folder never holds half a poster and a crash leaves only a file its owner can be told by.
///
/// Everything goes through the folder as opened (and checked by ``FileTrust``) when the file was
/// made: a folder renamed mid-page, or swapped for a symlink, keeps the poster and leaves no
/// temporary file behind, and nothing lands where the symlink points.
struct PosterFile {
    let temporary: URL
    private let fd: Int32
    private let folder: OpenFolder
    /// Where the write is recorded as in progress until it is committed or discarded.
    private let writes: PendingWrites
    private var name: String { temporary.lastPathComponent }

    static let temporaryPrefix = ".movies-partial-"

    /// Opens a new temporary file in `folder`, recorded in `writes` until it is committed or
    /// discarded. `destination` is only for messages.
    init(in folder: URL, owner: PosterOwner, destination: URL, writes: PendingWrites) throws(OMDbError) {
        let random = UInt64.random(in: 0...UInt64.max)
        let opened = try PosterStore.openFolder(folder)
        let temporary = folder.appendingPathComponent("\(Self.temporaryPrefix)\(owner.tag)-\(String(random, radix: 16))")
        guard writes.admit(temporary, in: opened) else { throw .posterNotWritten(path: destination.path, reason: "the program is exiting") }
        let fd = opened.open(temporary.lastPathComponent, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else {
            let reason = Self.lastError()
            writes.release(temporary)
            throw .posterNotWritten(path: destination.path, reason: reason)
        }
        self.temporary = temporary
        self.fd = fd
        self.folder = opened
        self.writes = writes
    }

    /// Appends `data`; `destination` is only for messages.
    func append(_ data: Data, destination: URL) throws(OMDbError) {
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = Self.lastError()
                    return
                }
                offset += written
            }
        }
        if let failure { throw .posterNotWritten(path: destination.path, reason: failure) }
    }

    /// Flushes, closes and renames the file to `destination`'s name in its folder (as opened),
    /// then syncs the folder so the rename itself survives a crash. On failure the temporary
    /// file is removed. Returns false, with the file removed, when `gate` was given up before the
    /// rename (its page was stopped while the file was flushed: see ``CommitGate/flushing(removal:)``).
    @discardableResult
    func commit(to destination: URL, unless gate: CommitGate? = nil) throws(OMDbError) -> Bool {
        defer { writes.release(temporary) }
        var failure: String?
        if fsync(fd) != 0 { failure = Self.lastError() }
        close(fd)
        if failure == nil {
            // rename(2) replaces atomically; FileManager.replaceItemAt loses files on this Foundation.
            let rename = { folder.rename(name, to: destination.lastPathComponent) }
            switch gate.map({ $0.putInPlace(at: destination, rename) }) ?? rename() {
            case nil:
                folder.remove(name)
                return false
            case false?:
                failure = Self.lastError()
            case true?:
                break
            }
        }
        if let failure {
            folder.remove(name)
            throw .posterNotWritten(path: destination.path, reason: failure)
        }
        _ = fsync(folder.descriptor)
        return true
    }

    /// Closes and removes the temporary file: nothing is left of the write.
    func discard() {
        closeDescriptor()
        removeName()
    }

    /// Removes the temporary file's name (through the folder as opened) while a write may still
    /// be using the file: the write goes on into a file no one can reach, which
    /// ``closeDescriptor()`` frees.
    func removeName() {
        folder.remove(name)
        writes.release(temporary)
    }

    /// Closes the file (after ``removeName()``, by the write that was under way).
    func closeDescriptor() {
        close(fd)
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
