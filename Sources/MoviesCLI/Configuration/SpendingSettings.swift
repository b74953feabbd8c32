import Foundation
import OMDbKit

// MARK: - Settings of the disk cache and the daily count

extension Settings {
    /// The cache and quota settings: options, then the environment, then `.env`, then defaults.
    static func resolveSpending(_ settings: inout Settings, _ options: Options, environment: [String: String],
                                lookup: (String) -> (value: String, source: String)?) throws(UsageError) {
        settings.cacheFolder = DiskCache.defaultFolder(environment: environment)
        settings.stateFolder = QuotaLedger.defaultFolder(environment: environment)
        if options.noCache {
            settings.cache = false
        } else if let (text, source) = lookup(Variable.cache) {
            settings.cache = try parseSwitch(text, source: source)
        }
        // MOVIES_CACHE_TTL and MOVIES_DAILY_LIMIT are options' variables, already in `options`.
        if let lifetime = options.cacheLifetime { settings.cacheLifetime = lifetime }
        if let (text, source) = lookup(Variable.cacheSize) {
            settings.cacheMaxBytes = try parseSize(text, source: source)
        }
        if let limit = options.dailyLimit { settings.dailyLimit = limit }
    }
}

/// `on`/`off` and their usual spellings.
func parseSwitch(_ text: String, source: String) throws(UsageError) -> Bool {
    try parse(text, source, takes: "on or off") {
        ["on", "1", "yes", "true"].contains($0.lowercased()) ? true : ["off", "0", "no", "false"].contains($0.lowercased()) ? false : nil
    }
}

/// `3600`, `90s`, `30m`, `24h`, `7d`: how long answers are kept. `0` keeps nothing.
func parseLifetime(_ text: String, source: String) throws(UsageError) -> TimeInterval {
    try parse(text, source, takes: "a duration such as 3600, 30m, 24h or 7d") { text in
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        let unit = lowered.last.flatMap { ["s": 1, "m": 60, "h": 3_600, "d": 86_400][$0] }
        guard let number = Int(unit == nil ? lowered : String(lowered.dropLast())), number >= 0,
              number <= Int(DiskCache.maximumLifetime) / (unit ?? 1) else { return nil }
        return TimeInterval(number * (unit ?? 1))
    }
}

/// `50MB`, `500KB`, `1GB` or a number of bytes: the cache's size bound.
func parseSize(_ text: String, source: String) throws(UsageError) -> Int {
    try parse(text, source, takes: "a size such as 50MB, 500KB or 1GB") { text in
        let units = [("gb", 1_000_000_000), ("mb", 1_000_000), ("kb", 1_000), ("g", 1_000_000_000), ("m", 1_000_000), ("k", 1_000), ("b", 1)]
        let lowered = text.lowercased().replacingOccurrences(of: " ", with: "")
        let (suffix, factor) = units.first { lowered.hasSuffix($0.0) } ?? ("", 1)
        guard let number = Int(lowered.dropLast(suffix.count)), number >= 0, number <= Int.max / factor else { return nil }
        return number * factor
    }
}

/// A number of requests a day, or `unlimited` (`nil`).
func parseDailyLimit(_ text: String, source: String) throws(UsageError) -> Int? {
    try parse(text, source, takes: "a number of requests a day such as 1000 or 100000, or unlimited") { text in
        let lowered = text.lowercased().replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "_", with: "")
        if ["unlimited", "none", "no"].contains(lowered) { return .some(nil) }
        guard let limit = Int(lowered), limit >= 1 else { return nil }
        return limit
    }
}
