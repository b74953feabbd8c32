import Foundation

/// The XDG base folders the tool keeps its own files in, each with a `movies` folder inside.
public enum XDGFolder: Sendable {
    /// `$XDG_CACHE_HOME` (default `~/.cache`): answers that can be fetched again.
    case cache
    /// `$XDG_STATE_HOME` (default `~/.local/state`): the daily request count.
    case state

    /// `$XDG_…_HOME/movies` when the variable is an absolute path (the specification ignores relative
    /// ones), else `HOME/.cache/movies` or `HOME/.local/state/movies`.
    public func url(environment: [String: String]) -> URL {
        let (variable, fallback) = switch self {
        case .cache: ("XDG_CACHE_HOME", ".cache")
        case .state: ("XDG_STATE_HOME", ".local/state")
        }
        if let base = environment[variable], base.hasPrefix("/") {
            return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("movies", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback, isDirectory: true)
            .appendingPathComponent("movies", isDirectory: true)
    }
}
