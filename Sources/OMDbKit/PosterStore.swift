import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A poster saved in the folder: where it is, and whether it was there before.
public struct SavedPoster: Sendable, Hashable {
    public let file: URL
    /// True when the file was already in the folder, so nothing was downloaded.
    public let wasAlreadyThere: Bool
}

/// The folder the user chose for posters. Writes are atomic: a temporary file in the same
/// folder, flushed, then renamed over the final name, so the folder never holds half a poster.
public struct PosterStore: Sendable {
    /// Where posters go; created when the first one is saved.
    public let folder: URL
    /// Posters larger than this are refused (bytes).
    public let maxBytes: Int

    /// The default size cap: 20 MB.
    public static let defaultMaxBytes = 20_000_000
    static let temporaryPrefix = ".movies-partial-"

    public init(folder: URL, maxBytes: Int = PosterStore.defaultMaxBytes) {
        self.folder = folder.standardizedFileURL
        self.maxBytes = maxBytes
    }

    /// The poster already in the folder for `imdbID`, whatever its title or extension.
    public func existingFile(for imdbID: String) -> URL? {
        let marker = PosterName.marker(for: imdbID)
        let endings = ImageFormat.allCases.map { marker + $0.fileExtension }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().first { name in
            !name.hasPrefix(".") && endings.contains { name.hasSuffix($0) }
        }.map { folder.appendingPathComponent($0) }
    }

    /// Checks `data` is an image within the cap and writes it as `Title (Year) [imdbID].ext`.
    /// - Throws: ``OMDbError/posterNotAnImage(url:contentType:)``, ``OMDbError/posterTooLarge(bytes:limit:)``,
    ///   ``OMDbError/posterNotWritten(path:reason:)``. Nothing is written when it throws.
    public func save(_ data: Data, contentType: String? = nil, source: String, title: String, year: String?, imdbID: String) throws(OMDbError) -> URL {
        guard data.count <= maxBytes else { throw .posterTooLarge(bytes: data.count, limit: maxBytes) }
        guard let format = ImageFormat(sniffing: data) else { throw .posterNotAnImage(url: source, contentType: contentType) }
        let name = PosterName.fileName(title: title, year: year, imdbID: imdbID, format: format)
        let destination = folder.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .posterNotWritten(path: folder.path, reason: Self.reason(error))
        }
        try writeAtomically(data, to: destination)
        return destination
    }

    /// The temporary files of writes in progress in this process, and whether new writes are
    /// refused (the process is exiting).
    private static let writes = Mutex((temporaries: Set<String>(), closed: false))

    /// Refuses new poster writes and waits (blocking) for those in progress to finish, so that
    /// exiting never cuts one in half; past `timeout` (a very slow disk) their temporary files are
    /// removed instead. Either way no partial file is left. Call it right before exiting.
    public static func finishWrites(timeout: Duration = .seconds(5)) {
        writes.withLock { $0.closed = true }
        let deadline = ContinuousClock.now + timeout
        while !writes.withLock({ $0.temporaries.isEmpty }), ContinuousClock.now < deadline {
            usleep(2_000)
        }
        for path in writes.withLock({ $0.temporaries }) { unlink(path) }
    }

    /// Removes temporary files a killed process may have left (a crash, SIGKILL: nothing else leaves them).
    public func removeLeftovers() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(Self.temporaryPrefix) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    private func writeAtomically(_ data: Data, to destination: URL) throws(OMDbError) {
        let temporary = folder.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString)
        let admitted = Self.writes.withLock { state in
            guard !state.closed else { return false }
            state.temporaries.insert(temporary.path)
            return true
        }
        guard admitted else { throw .posterNotWritten(path: destination.path, reason: "the program is exiting") }
        defer { Self.writes.withLock { _ = $0.temporaries.remove(temporary.path) } }
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw .posterNotWritten(path: destination.path, reason: String(cString: strerror(errno))) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        // rename(2) replaces atomically; FileManager.replaceItemAt loses files on this Foundation.
        if failure == nil, rename(temporary.path, destination.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw .posterNotWritten(path: destination.path, reason: failure)
        }
    }

    private static func reason(_ error: any Error) -> String { describe(fileError: error) }
}
