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
/// Posters stream to a temporary file as the bytes arrive, checked as they come (an image, within the
/// cap), then are renamed into place: the folder never holds half a poster, and runs can share it.
/// Each store lists the folder once, in the background, to find the posters already there.
public struct PosterStore: Sendable {
    /// Where posters go; created when the first one is saved.
    public let folder: URL
    /// Posters larger than this are refused (bytes).
    public let maxBytes: Int
    /// The width to download posters at (see ``PosterWidth``). File names never carry it: a
    /// wider download replaces a narrower file of the same title.
    public private(set) var width: PosterWidth
    /// Whose temporary files this store writes.
    let owner: WriterProcess
    let index: PosterIndex
    var disk = Disk()

    /// What a poster's write asks of the disk: a seam for tests of a slow, held or failing disk.
    struct Disk: Sendable {
        var append: @Sendable (PosterFile, Data) throws(OMDbError) -> Void = { try $0.append($1) }
        var flush: @Sendable (PosterFile) throws(OMDbError) -> Void = { try $0.flush() }
        /// Called with the write's lock held: it must not wait.
        var rename: @Sendable (PosterFile) throws(OMDbError) -> Void = { try $0.rename() }
    }

    /// The default size cap: 20 MB.
    public static let defaultMaxBytes = 20_000_000
    /// A temporary file older than this is a leftover whoever wrote it: no write lasts that long.
    static let leftoverAge: TimeInterval = 3_600

    /// Starts listing the folder in the background (to find the posters already saved there),
    /// and removing the temporary files that killed runs left in it.
    /// - Parameters:
    ///   - folder: where posters go; created when the first is saved.
    ///   - maxBytes: posters larger than this are refused.
    ///   - width: the width posters are downloaded at.
    public init(folder: URL, maxBytes: Int = PosterStore.defaultMaxBytes, width: PosterWidth = .standard) {
        self.init(folder: folder, maxBytes: maxBytes, width: width, owner: .current, listing: { $0.names($1) })
    }

    /// A store whose temporary files are `owner`'s; `listing` is a seam for tests.
    init(folder: URL, maxBytes: Int = PosterStore.defaultMaxBytes, width: PosterWidth = .standard, owner: WriterProcess,
         listing: @escaping PosterIndex.Listing = { $0.names($1) }) {
        self.folder = folder.standardizedFileURL
        self.maxBytes = maxBytes
        self.owner = owner
        self.width = width
        index = PosterIndex(folder: self.folder, listing: listing) { open, names in
            Self.removeLeftovers(names, in: open)
        }
    }

    /// True when an image already saved is at least as wide as this store asks for (any file will
    /// do at OMDb's own width, and so will one whose width cannot be read); false for a file the
    /// trust rule refuses (someone else's, planted in the folder). Only the file's header is read.
    func isWideEnough(file: URL) -> Bool {
        let pixels: Int?
        do { pixels = try ImageWidth.pixels(ofFile: file) } catch { return false }
        guard width != .standard, let pixels else { return true }
        return pixels >= width.minimumPixels
    }

    /// This store at another width, sharing its index (the folder is not listed again).
    package func atWidth(_ width: PosterWidth) -> PosterStore {
        var store = self
        store.width = width
        return store
    }

    /// The poster already in the folder for `imdbID`, whatever its title or extension (waits for the listing).
    package func existingFile(for imdbID: String) async -> URL? {
        let marker = PosterName.marker(for: imdbID)
        return await index.file(endingWith: ImageFormat.allCases.map { marker + $0.fileExtension })
            .map { folder.appendingPathComponent($0) }
    }

    /// Streams `body` to a new poster write, and returns once every byte has arrived: the last
    /// writes, the flush and the rename follow off the transport's thread (``Arrival/placed()``),
    /// so the caller is done with the network before the disk is. Cancelled, nothing is left.
    /// - Throws: ``OMDbError/posterNotAnImage(url:contentType:)``, ``OMDbError/posterTooLarge(bytes:limit:)``,
    ///   ``OMDbError/posterNotWritten(path:reason:)``, or what the body threw; nothing is left then.
    func receive(streaming body: HTTPBody, contentType: String? = nil, source: String, title: String, year: String?,
                 imdbID: String) async throws -> Arrival {
        if let length = body.length, length > maxBytes { throw OMDbError.posterTooLarge(bytes: length, limit: maxBytes) }
        let write = PosterWrite(maxBytes: maxBytes, refusal: .posterNotAnImage(url: source, contentType: contentType), disk: disk) {
            [folder, owner] (format) throws(OMDbError) in
            let name = PosterName.fileName(title: title, year: year, imdbID: imdbID, format: format)
            return try PosterFile(in: folder, owner: owner, destination: folder.appendingPathComponent(name))
        }
        return try await withTaskCancellationHandler {
            do {
                return Arrival(write: write, draining: try await body.receive { try write.take($0) }, index: index)
            } catch {
                // Stopped as it was put in place: it is there, whatever stopped the caller.
                guard write.giveUp() != nil else { throw error }
                return Arrival(write: write, draining: nil, index: index)
            }
        } onCancel: {
            write.giveUp()
        }
    }

    /// Removes the leftovers among `names` through the folder as opened for the listing, never by path.
    private static func removeLeftovers(_ names: [String], in open: OpenFolder) {
        for name in names {
            let owner = WriterProcess(tag: name.dropFirst(PosterFile.temporaryPrefix.count))
            guard let status = open.status(name) else { continue }   // finished (renamed) since the listing
            let old = Date().timeIntervalSince1970 - TimeInterval(status.modified.tv_sec) > leftoverAge
            if old || !(owner?.isAlive ?? false) { open.remove(name) }
        }
    }

}

/// A poster whose bytes have all arrived: still being written, not yet in its place.
struct Arrival: Sendable {
    let write: PosterWrite
    /// The rest of the body's writes; `nil` when the poster is in place already.
    let draining: HTTPBody.Draining?
    let index: PosterIndex

    /// Waits for the poster to be put in place, and returns where. Cancelled, the write is given up,
    /// unless the poster was in place already.
    /// - Throws: ``OMDbError/posterNotWritten(path:reason:)``, `CancellationError`; nothing is left then.
    func placed() async throws -> URL {
        let file: URL
        do {
            try await withTaskCancellationHandler { try await draining?.finished() } onCancel: { write.giveUp() }
            file = try write.placed()
        } catch {
            guard let placed = write.giveUp() else { throw error }
            file = placed
        }
        index.add(file.lastPathComponent)
        return file
    }
}
