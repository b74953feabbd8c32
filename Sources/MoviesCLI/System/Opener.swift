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

    /// How long ``open(_:)`` waits for the opener to end before leaving it to run on its own.
    var grace = Duration.milliseconds(500)

    /// Starts the opener with `address`, detached (its own session, a clean signal mask; its
    /// stdin, stdout and stderr kept off the prompt's terminal), and waits at most ``grace`` for
    /// it: openers hand over to the browser and return at once, and one that fails says so
    /// quickly. One still running then (a browser started directly) is left to run, reaped when
    /// it ends; Ctrl-C ends the wait, not the opener.
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
