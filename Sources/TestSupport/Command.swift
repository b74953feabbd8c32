import Foundation

/// What `arguments` printed on stdout, run through `/usr/bin/env` (so a name is looked up on PATH,
/// and a path runs as it is); `nil` when it could not start or ended with a status other than 0.
/// Its stderr is dropped. For the tools tests probe for or take a value from (python3, openssl,
/// unshare, gzip).
public func commandOutput(_ arguments: [String]) -> Data? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    // Read to the end before waiting: a child that fills the pipe would otherwise never end.
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? data : nil
}

/// ``commandOutput(_:)`` as text, white space at the ends trimmed.
public func commandText(_ arguments: [String]) -> String? {
    commandOutput(arguments).map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
}

extension Process {
    /// Starts the process, and returns what opens when it exits: wait on that, not on `isRunning`.
    public func runWatchingExit() throws -> Latch {
        let exited = Latch()
        terminationHandler = { _ in exited.open() }
        try run()
        return exited
    }
}

/// The pid of a process that has exited: free now, or reused by another process (which started
/// later). For leftovers planted as a dead run's.
public func exitedProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exit 0"]
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}
