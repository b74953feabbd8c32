import Foundation

/// The system's way to open an address: `open` on macOS, `xdg-open` elsewhere, or `MOVIES_OPENER`.
struct Opener: Sendable {
    /// The program, or `nil` when there is none: then the address is printed instead.
    let executable: URL?

    static func find(environment: [String: String]) -> Opener {
        #if os(macOS)
        let standard = "open"
        #else
        let standard = "xdg-open"
        #endif
        let name = environment["MOVIES_OPENER"].flatMap { $0.isEmpty ? nil : $0 } ?? standard
        return Opener(executable: lookup(name, path: environment["PATH"] ?? ""))
    }

    /// `name` itself when it has a `/`, else the first executable `name` on `path`.
    static func lookup(_ name: String, path: String) -> URL? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil }
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// How long ``open(_:)`` waits for the opener to end before leaving it to run on its own.
    var grace = Duration.milliseconds(500)

    /// Starts the opener with `address`, detached, and waits at most ``grace`` for it: openers return at
    /// once, and fail quickly. One still running is left to run; Ctrl-C ends the wait, not the opener.
    /// - Returns: `nil` when it worked (or still runs), else why not, in a few words.
    func open(_ address: String) async -> String? {
        guard let executable else { return "no opener" }
        let name = executable.lastPathComponent
        let child: ChildProcess
        do {
            child = try ChildProcess(executable, arguments: [address], detached: true)
        } catch {
            return "\(name) could not be started: \(String(cString: strerror(error.code.rawValue)))"
        }
        switch await child.termination(within: grace) {
        case nil, .exited(0)?: return nil
        case .exited(let code)?: return "\(name) failed with status \(code)"
        case .signalled(let number)?: return "\(name) was ended by signal \(number)"
        }
    }
}
