import Foundation
import Files
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// OMDb's answers kept on disk, so a search repeated within their lifetime costs no request, from any process.
///
/// One file per request, named by the SHA-256 of the request without its API key, renamed into
/// place whole and carrying its body's length and checksum (a damaged one reads as a miss). A
/// lookup is a `stat` and a read of a few kB on the caller's thread; a write goes to a serial queue
/// of the cache's own, not waited for.
package final class DiskCache: Sendable {
    /// Where the entries are: `$XDG_CACHE_HOME/movies`, by default `~/.cache/movies`.
    package let folder: URL
    /// The size bound in bytes: past it, the oldest entries are removed.
    package let maxBytes: Int
    /// When set, replaces the lifetime OMDb's `Cache-Control: max-age` gives (seconds).
    package let lifetime: TimeInterval?
    /// The largest body kept or read back: no entry planted in the folder is read past an answer's cap.
    package let maxBodyBytes: Int
    let now: @Sendable () -> Date
    let state = Mutex(State())
    private let writes = FileWork.lane("movies.disk-cache")

    struct State {
        /// Bytes in the folder as this process last counted them, plus what it wrote since.
        var knownBytes: Int?
        var hits = 0
        /// Answers on their way to the disk, by key: read from here until they are there.
        var pending: [String: (HTTPResponse, Date)] = [:]
    }

    package static let defaultMaxBytes = 50_000_000
    /// A day: OMDb's own `max-age`, used when an answer carries none.
    package static let defaultLifetime: TimeInterval = 86_400
    /// `Movie not found!` is kept an hour: the title may be added.
    package static let notFoundLifetime: TimeInterval = 3_600
    /// Ten years: no entry lives longer, whatever `max-age` said or an entry's file claims.
    package static let maximumLifetime: TimeInterval = 3_650 * 86_400
    /// Room for an entry's first two lines (the format, the header with the request's key).
    static let headerAllowance = 16_384
    static let entrySuffix = ".entry"
    /// Temporary files of versions before ``AtomicFile``.
    static let oldTemporaryPrefix = ".tmp-"

    /// A cache in `folder`; `now` is the clock (tests pass their own).
    package init(folder: URL, maxBytes: Int = DiskCache.defaultMaxBytes, lifetime: TimeInterval? = nil,
                maxBodyBytes: Int = OMDbClient.Configuration.defaultMaxAnswerBytes,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.folder = folder.standardizedFileURL
        self.maxBytes = max(0, maxBytes)
        self.lifetime = lifetime.map { min(max(0, $0), Self.maximumLifetime) }
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.now = now
    }

    /// Answers this process found in the cache so far.
    package var hits: Int { state.withLock { $0.hits } }

    // MARK: Reading and writing

    /// The stored answer to `url` when fresh and intact, with when it was kept (the file's
    /// modification time). A file larger than any answer, or in a folder others could write, is never read.
    func kept(for url: URL) -> (response: HTTPResponse, since: Date?)? {
        let key = Self.key(for: url)
        let waiting = state.withLock { state -> (HTTPResponse, Date)? in
            guard let found = state.pending[key] else { return nil }
            state.hits += 1
            return found
        }
        if let (response, since) = waiting { return (response, since) }
        // A miss and an entry too large to be an answer are told by one `stat`.
        var info = stat()
        guard stat(file(forKey: key).path, &info) == 0, info.st_size <= maxBodyBytes + Self.headerAllowance,
              let response = readAnswer(forKey: key) else { return nil }
        let seconds = Double(info.modified.tv_sec)
        return (response, seconds > 0 ? Date(timeIntervalSince1970: seconds) : nil)
    }

    private func readAnswer(forKey key: String) -> HTTPResponse? {
        guard AtomicFile.folderProblem(folder) == nil,
              let data = try? AtomicFile(file(forKey: key)).contents(upTo: maxBodyBytes + Self.headerAllowance),
              let entry = CacheEntry(decoding: data), entry.key == key, entry.body.count <= maxBodyBytes else { return nil }
        let now = now()
        guard entry.expires > now, entry.expires <= now.addingTimeInterval(Self.maximumLifetime) else { return nil }
        state.withLock { $0.hits += 1 }
        return HTTPResponse(statusCode: entry.status, body: entry.body, contentType: entry.contentType)
    }

    /// Keeps `response` to `url` for as long as ``lifetime(of:override:)`` says, on the cache's queue;
    /// a failure to write is ignored: the cache is only a saving.
    package func store(_ response: HTTPResponse, for url: URL) {
        guard response.body.count <= maxBodyBytes, let seconds = Self.lifetime(of: response, override: lifetime), seconds > 0 else { return }
        let key = Self.key(for: url)
        state.withLock { $0.pending[key] = (response, now()) }
        writes.async {
            self.write(response, forKey: key, lifetime: seconds)
            self.state.withLock { _ = $0.pending.removeValue(forKey: key) }
        }
    }

    package func waitForWrites() {
        writes.sync {}
    }

    private func write(_ response: HTTPResponse, forKey key: String, lifetime seconds: TimeInterval) {
        let entry = CacheEntry(key: key, expires: now().addingTimeInterval(seconds), status: response.statusCode,
                               contentType: response.contentType, body: response.body)
        let bytes = entry.encoded()
        guard bytes.count <= maxBytes, (try? AtomicFile.prepareFolder(folder)) != nil else { return }
        // Readers see the old entry or the new, never a mix; the modification time, the cache's own
        // clock, orders eviction. Not synced: an entry lost in a crash is only a request again.
        guard (try? AtomicFile(file(forKey: key)).write(bytes, modified: now(), sync: false)) != nil else { return }
        let known = state.withLock { state -> Int? in
            state.knownBytes = state.knownBytes.map { Self.adding($0, bytes.count) }
            return state.knownBytes
        }
        // Counted once per process, then kept up to date by its own writes; recounted when over the bound.
        if (known ?? .max) > maxBytes { trim() }
    }

    /// Forgets the answer to `url`: it was kept, but no longer decodes as OMDb's.
    func remove(for url: URL) {
        let name = file(forKey: Self.key(for: url)).lastPathComponent
        writes.async { _ = (try? OpenFolder(self.folder))?.remove(name) }
    }

    func file(forKey key: String) -> URL { folder.appendingPathComponent(SHA256.hex(key) + Self.entrySuffix) }

    /// `a + b`, stopping at `Int.max`: sizes come from `stat`, and a planted sparse file may claim any.
    static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
