import Foundation

/// The system's way to open an address: `open` on macOS, `xdg-open` elsewhere, found on
/// `PATH`; `MOVIES_OPENER` names another (a path or a command on `PATH`), which is how tests
/// watch what would be opened.
struct Opener: Sendable {
    /// The program, or `nil` when there is none: then the address is printed instead.
    let executable: URL?

    static func find(environment: [String: String]) -> Opener {
        #if os(macOS)
        let standard = "open"
        #else
        let standard = "xdg-open"
        #endif
        let name = environment[Settings.Variable.opener].flatMap { $0.isEmpty ? nil : $0 } ?? standard
        return Opener(executable: lookup(name, path: environment["PATH"] ?? ""))
    }

    /// `name` itself when it has a `/`, else the first executable `name` on `path`.
    static func lookup(_ name: String, path: String) -> URL? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil }
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the opener with `address` and waits for it (openers hand over to the browser and
    /// return at once). Its stdin, stdout and stderr are kept off the prompt's terminal.
    /// - Returns: `nil` when it worked, else why not, in a few words.
    func open(_ address: String) async -> String? {
        guard let executable else { return "no opener" }
        let process = Process()
        process.executableURL = executable
        process.arguments = [address]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let status: Int32? = await withCheckedContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(returning: nil)
            }
        }
        switch status {
        case nil: return "\(executable.lastPathComponent) could not be started"
        case 0?: return nil
        case let code?: return "\(executable.lastPathComponent) failed with status \(code)"
        }
    }
}
