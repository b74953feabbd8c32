import Foundation
import Files
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - The folder as a whole: size, clearing, the size bound

extension DiskCache {
    /// Tests only: runs between listing the folder and removing from it (a folder swapped meanwhile).
    @TaskLocal static var afterListing: (@Sendable () -> Void)?

    /// What the folder holds.
    package struct Summary: Sendable, Equatable {
        /// Cached answers, fresh or expired.
        package var entries: Int
        /// Their size on disk, in bytes.
        package var bytes: Int
    }

    private struct File {
        let name: String
        let bytes: Int
        let modified: Date
        let isEntry: Bool
    }

    /// Entries and bytes in the folder now (every process's), this process's writes done first.
    package func summary() -> Summary {
        waitForWrites()
        guard let open = try? OpenFolder(folder) else { return Summary(entries: 0, bytes: 0) }
        let entries = files(in: open).filter(\.isEntry)
        return Summary(entries: entries.count, bytes: entries.reduce(0) { Self.adding($0, $1.bytes) })
    }

    /// Removes every entry and leftover temporary file, through the folder's descriptor; returns what went.
    @discardableResult
    package func clear() -> Summary {
        waitForWrites()
        var removed = Summary(entries: 0, bytes: 0)
        guard let open = try? OpenFolder(folder) else { return removed }
        for file in files(in: open) where open.remove(file.name) {
            if file.isEntry { removed.entries += 1 }
            removed.bytes = Self.adding(removed.bytes, file.bytes)
        }
        state.withLock { $0.knownBytes = nil }
        return removed
    }

    /// Past ``maxBytes``, removes the oldest entries down to nine tenths of it (so the next write does
    /// not trim again), and temporary files older than a minute (a crashed writer's).
    func trim() {
        guard let open = try? OpenFolder(folder) else { return }
        var total = 0
        var entries: [File] = []
        let staleBefore = now().addingTimeInterval(-60)
        for file in files(in: open) {
            if !file.isEntry {
                if file.modified < staleBefore { open.remove(file.name) } else { total = Self.adding(total, file.bytes) }
                continue
            }
            entries.append(file)
            total = Self.adding(total, file.bytes)
        }
        if total > maxBytes {
            let target = maxBytes / 10 * 9
            for file in entries.sorted(by: { ($0.modified, $0.name) < ($1.modified, $1.name) }) where total > target {
                // Another process may have removed or replaced it already: count only what this call removed.
                if open.remove(file.name) { total -= file.bytes }
            }
        }
        state.withLock { $0.knownBytes = total }
    }

    /// The folder's files: entries and temporary files, nothing else a person may have put there.
    private func files(in open: OpenFolder) -> [File] {
        let names = open.names()
        Self.afterListing?()
        return names.compactMap { name in
            let isEntry = name.hasSuffix(Self.entrySuffix) && !name.hasPrefix(".")
            guard isEntry || AtomicFile.isTemporaryName(name) || name.hasPrefix(Self.oldTemporaryPrefix),
                  let info = open.status(name), (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return File(name: name, bytes: Int(info.st_size), modified: Date(timeIntervalSince1970: TimeInterval(info.modified.tv_sec) + TimeInterval(info.modified.tv_nsec) / 1e9), isEntry: isEntry)
        }
    }
}

extension stat {
    var modified: timespec {
        #if canImport(Darwin)
        st_mtimespec
        #else
        st_mtim
        #endif
    }
}
