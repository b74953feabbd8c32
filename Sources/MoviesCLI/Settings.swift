import Foundation
import OMDbKit

/// Everything a run needs, resolved in order: command-line options, then the environment,
/// then `.env` in the working directory, then defaults.
public struct Settings: Equatable {
    /// `nil` when no key was given anywhere: the prompt then runs on the offline catalogue.
    public var apiKey: String?
    public var baseURL: URL = OMDbClient.Configuration.defaultBaseURL
    public var posters: URL?
    public var type: SearchType?
    public var year: Int?
    public var plot: PlotLength = .short
    public var timeout = 10
    public var offline = false

    /// The settings the environment variables name, as `.env.example` documents them.
    public enum Variable {
        public static let apiKey = "OMDB_API_KEY"
        public static let baseURL = "OMDB_BASE_URL"
        public static let posters = "MOVIES_POSTERS"
    }

    /// Merges options over `environment` over `dotEnv`.
    /// - Throws: ``UsageError`` when a variable holds a bad value (it names the variable).
    public static func resolve(_ options: Options, environment: [String: String], dotEnv: [String: String],
                               currentDirectory: URL) throws(UsageError) -> Settings {
        func lookup(_ name: String) -> (value: String, source: String)? {
            if let value = environment[name], !value.isEmpty { return (value, name) }
            if let value = dotEnv[name], !value.isEmpty { return (value, "\(name) in .env") }
            return nil
        }
        var settings = Settings()
        settings.apiKey = options.apiKey ?? lookup(Variable.apiKey)?.value
        if settings.apiKey?.trimmingCharacters(in: .whitespaces).isEmpty == true { settings.apiKey = nil }
        if let url = options.baseURL {
            settings.baseURL = url
        } else if let (text, source) = lookup(Variable.baseURL) {
            settings.baseURL = try parseBaseURL(text, source: source)
        }
        if let folder = options.posters ?? lookup(Variable.posters)?.value {
            settings.posters = posterFolder(folder, relativeTo: currentDirectory)
        }
        settings.type = options.type ?? nil
        settings.year = options.year ?? nil
        settings.plot = options.plot ?? .short
        settings.timeout = options.timeout ?? 10
        settings.offline = options.offline
        return settings
    }

    /// `~` expanded, relative paths taken from the working directory.
    static func posterFolder(_ text: String, relativeTo directory: URL) -> URL {
        let expanded = NSString(string: text).expandingTildeInPath
        return expanded.hasPrefix("/")
            ? URL(fileURLWithPath: expanded, isDirectory: true)
            : directory.appendingPathComponent(expanded, isDirectory: true)
    }
}

/// Reads a `.env` file: `KEY=VALUE` lines, `#` comments, optional `export `, optional quotes.
public enum DotEnv {
    /// The variables in `text`. Lines that are not `KEY=VALUE` are skipped.
    public static func parse(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if let quote = value.first, quote == "\"" || quote == "'", let end = value.dropFirst().firstIndex(of: quote) {
                value = String(value[value.index(after: value.startIndex)..<end])
            } else if let comment = value.range(of: " #") {
                value = value[..<comment.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            result[key] = value
        }
        return result
    }

    /// The variables in `directory/.env`, or none when there is no such file.
    public static func load(from directory: URL) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(".env").path) else { return [:] }
        return parse(String(decoding: data, as: UTF8.self))
    }
}
