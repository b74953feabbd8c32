import Files
import Foundation
import LineEditing

/// Where the prompt's history lives: `$XDG_STATE_HOME/movies/history`, or `MOVIES_HISTORY` (`off` for none).
enum HistoryFile {
    /// The file for `environment`, or nil when turned off (or no home is known).
    static func url(environment: [String: String]) -> URL? {
        switch environment["MOVIES_HISTORY"] {
        case "off", "0", "no", "false": return nil
        case let path? where !path.isEmpty: return URL(fileURLWithPath: path)
        default: break
        }
        return XDGFolder.state.url(environment: environment).appendingPathComponent("history")
    }

    /// The one line that turns history off for the session, or nil when `history` is usable.
    static func problem(of history: History) -> String? {
        guard let problem = history.problem else { return nil }
        return "History is off for this session: \(safe(problem.path)): \(safe(problem.reason))\(problem.advice.map { " (\(safe($0)))" } ?? ""). Set MOVIES_HISTORY to a file, or to off to keep none."
    }
}
