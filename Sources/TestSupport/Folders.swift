import Foundation

/// A folder of its own for one test, removed at the end, whatever the test did.
public func withTemporaryFolder<T>(_ body: (URL) async throws -> T) async rethrows -> T {
    let folder = try? makeTemporaryFolder()
    defer { folder.map(removeFolder) }
    return try await body(folder ?? FileManager.default.temporaryDirectory)
}

/// A fresh, empty folder of its own; the caller removes it with ``removeFolder(_:)``.
public func makeTemporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("movies-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

public func removeFolder(_ url: URL) {
    try? FileManager.default.removeItem(at: url)
}

/// A stand-in for the system's opener (`MOVIES_OPENER`) in `folder`: a script that adds the
/// addresses it is given to `record`, a line each.
public func makeRecordingOpener(in folder: URL) throws -> (script: URL, record: URL) {
    let record = folder.appendingPathComponent("opened.txt")
    let script = folder.appendingPathComponent("fake-opener")
    try "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '\(record.path)'\n".write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    return (script, record)
}

/// Names of every file in a folder, sorted.
public func files(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}

/// The most memory this test process ever had resident, in bytes (`getrusage`): reading a file
/// of gigabytes raises it by as much, whatever the machine's speed.
public func peakResidentBytes() -> Int {
    var usage = rusage()
    getrusage(0, &usage)  // RUSAGE_SELF (an enum on Glibc, a constant on Darwin)
    #if canImport(Darwin)
    return Int(usage.ru_maxrss)          // bytes
    #else
    return Int(usage.ru_maxrss) * 1_024  // kilobytes
    #endif
}
