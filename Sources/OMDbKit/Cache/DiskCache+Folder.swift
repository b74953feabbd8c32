import Foundation
import Files
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The folder as a whole: size, clearing, the size bound

extension DiskCache {
    /// What the folder holds.
    public struct Summary: Sendable, Equatable {
        /// Cached answers, fresh or expired.
        public var entries: Int
        /// Their size on disk, in bytes.
        public var bytes: Int
    }

    private struct File {
        let url: URL
        let bytes: Int
        let modified: Date
        let isEntry: Bool
    }

    /// Entries and bytes in the folder now (every process's).
    public func summary() -> Summary {
        let entries = files().filter(\.isEntry)
        return Summary(entries: entries.count, bytes: entries.reduce(0) { Self.adding($0, $1.bytes) })
    }

    /// Removes every entry (and any temporary file left by a crash). Returns what was removed.
    @discardableResult
    public func clear() -> Summary {
        var removed = Summary(entries: 0, bytes: 0)
        for file in files() where unlink(file.url.path) == 0 {
            if file.isEntry { removed.entries += 1 }
            removed.bytes = Self.adding(removed.bytes, file.bytes)
        }
        state.withLock { $0.knownBytes = nil }
        return removed
    }

    /// Counts the folder and, past ``maxBytes``, removes the oldest entries (by the time they were
    /// written) until it holds at most nine tenths of it, so the next writes do not trim again at once.
    /// Temporary files older than a minute are a crashed writer's: removed too.
    func trim() {
        var total = 0
        var entries: [File] = []
        let staleBefore = now().addingTimeInterval(-60)
        for file in files() {
            if !file.isEntry {
                if file.modified < staleBefore { unlink(file.url.path) } else { total = Self.adding(total, file.bytes) }
                continue
            }
            entries.append(file)
            total = Self.adding(total, file.bytes)
        }
        if total > maxBytes {
            let target = maxBytes / 10 * 9
            for file in entries.sorted(by: { ($0.modified, $0.url.path) < ($1.modified, $1.url.path) }) where total > target {
                // Another process may have removed or replaced it already: count only what this call removed.
                if unlink(file.url.path) == 0 { total -= file.bytes }
            }
        }
        state.withLock { $0.knownBytes = total }
    }

    /// The folder's files: entries and temporary files, nothing else a person may have put there.
    private func files() -> [File] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name in
            let isEntry = name.hasSuffix(Self.entrySuffix) && !name.hasPrefix(".")
            guard isEntry || AtomicFile.isTemporaryName(name) || name.hasPrefix(Self.oldTemporaryPrefix) else { return nil }
            let url = folder.appendingPathComponent(name)
            var info = stat()
            guard lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            #if canImport(Darwin)
            let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtimespec.tv_sec) + TimeInterval(info.st_mtimespec.tv_nsec) / 1e9)
            #else
            let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec) + TimeInterval(info.st_mtim.tv_nsec) / 1e9)
            #endif
            return File(url: url, bytes: Int(info.st_size), modified: modified, isEntry: isEntry)
        }
    }
}
