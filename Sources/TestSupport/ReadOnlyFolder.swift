import Foundation

/// A folder made read-only for real, as a read-only disk is, whoever the process is (root
/// included): a bind mount of the folder onto itself, remounted read-only, undone at the end.
public enum ReadOnlyFolder {
    /// Whether this process may make bind mounts (root with `CAP_SYS_ADMIN`, as CI runs).
    public static let available: Bool = {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("movies-ro-probe-\(getpid())")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard mount(probe) else { return false }
        return unmount(probe)
    }()

    /// Runs `body` with `folder` read-only, then makes it writable again.
    public static func with<T>(_ folder: URL, _ body: () async throws -> T) async throws -> T {
        guard mount(folder) else { throw Failure(folder: folder) }
        defer { _ = unmount(folder) }
        return try await body()
    }

    /// Makes `folder` read-only; false when it could not.
    public static func mount(_ folder: URL) -> Bool {
        guard run("/bin/mount", ["--bind", folder.path, folder.path]) else { return false }
        if run("/bin/mount", ["-o", "remount,bind,ro", folder.path]) { return true }
        unmount(folder)
        return false
    }

    /// Makes `folder` writable again.
    @discardableResult
    public static func unmount(_ folder: URL) -> Bool {
        run("/bin/umount", [folder.path])
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    struct Failure: Error, CustomStringConvertible {
        let folder: URL
        var description: String { "could not make \(folder.path) read-only" }
    }
}
