import Foundation
import Files
import OMDbKit

/// The disk cache and the daily count, with the sentences that speak of them (`cache`, `quota`, warnings).
struct RequestBudget: Sendable {
    /// The cache folder: shown and cleared by `cache` even when this run does not use it.
    let cache: DiskCache
    /// True when the client reads and writes the cache: a live key without `--no-cache`.
    let cacheInUse: Bool
    /// The key's daily count; `nil` with no key or on the offline catalogue.
    let ledger: QuotaLedger?
    /// One line for each folder refused, said at the start (one of ours open to others is tightened instead).
    let notices: [String]
    /// Remembers the key as accepted; set while the cache is in use and the key new.
    let keyAccepted: (@Sendable () -> Void)?

    /// From the settings: a ledger and a cache only for a live key, the cache not where others could plant entries.
    init(settings: Settings) {
        let live = settings.apiKey != nil && !settings.offline
        cache = DiskCache(folder: settings.cacheFolder, maxBytes: settings.cacheMaxBytes, lifetime: settings.cacheLifetime)
        ledger = live ? settings.apiKey.map { QuotaLedger(folder: settings.stateFolder, apiKey: $0, dailyLimit: settings.dailyLimit) } : nil
        var notices: [String] = []
        var cacheInUse = live && settings.cache
        if cacheInUse, let problem = AtomicFile.folderProblem(cache.folder, tighten: true) {
            notices.append("Not using the cache in \(safe(problem.path)): \(safe(problem.reason)). Remove that folder, or set XDG_CACHE_HOME to a folder of your own.")
            cacheInUse = false
        }
        if let ledger, let problem = AtomicFile.folderProblem(ledger.folder, tighten: true) {
            notices.append("Not counting requests in \(safe(problem.path)): \(safe(problem.reason)). Remove that folder, or set XDG_STATE_HOME to a folder of your own.")
        }
        self.cacheInUse = cacheInUse
        self.notices = notices
        // The keys OMDb accepted here, a hash a line, the newest 100. A key not among them sends its first request
        // past the cache, so a wrong key is refused at once, not answered from what another key kept. Failures to
        // read or write only cost that check again. Only the hash is held: the closure must not carry the key.
        let accepted = settings.stateFolder.appendingPathComponent("accepted-keys.txt")
        if cacheInUse, let key = settings.apiKey, case let hash = String(SHA256.hex("movies accepted key: " + key.value).prefix(32)),
           !Self.lines(of: accepted).contains(hash) {
            keyAccepted = {
                let kept = (Self.lines(of: accepted).filter { $0 != hash } + [hash]).suffix(100)
                guard (try? AtomicFile.prepareFolder(accepted.deletingLastPathComponent())) != nil else { return }
                try? AtomicFile(accepted).write(Data(kept.map { $0 + "\n" }.joined().utf8), sync: false)
            }
        } else {
            keyAccepted = nil
        }
    }

    /// The lines of `file`; none when it is missing, damaged or not to be trusted.
    private static func lines(of file: URL) -> [String] {
        guard let data = try? AtomicFile(file).contents(upTo: 100 * 64) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Writes what is on its way to the disk (answers for the cache, the day's count, requests in
    /// flight counted as sent): the process is ending.
    func finish() {
        if cacheInUse { cache.waitForWrites() }
        ledger?.finish()
    }

    // MARK: What is said

    /// `Note: FOLDER was open to other users; it is now 0700.`, for the cache and state folders tightened since last asked.
    var tightenedNotes: [String] { Self.tightenedNotes([cache.folder] + (ledger.map { [$0.folder] } ?? [])) }

    /// ``tightenedNotes`` for any of the tool's own `folders` (the history's, too).
    static func tightenedNotes(_ folders: [URL]) -> [String] {
        OpenFolder.takeTightened(among: folders).map { "Note: \(safe($0.path)) was open to other users; it is now 0700." }
    }

    /// `requests today: 37 of 1,000`, under a live page; `nil` when nothing is counted.
    var pageStatus: String? {
        guard let usage = ledger?.estimatedUsage() else { return nil }
        return "requests today: \(QuotaUsage.grouped(usage.sent))" + (usage.limit.map { " of \(QuotaUsage.grouped($0))" } ?? "")
    }

    /// The answer to `quota`.
    var quotaReport: String {
        guard let ledger else {
            return "Nothing is counted: with no API key, or --offline, no request goes to OMDb (the count is per key)."
        }
        let usage = ledger.usage(checkingTheFile: true)
        let kept = usage.unkept.map {
            "The count file \(safe(ledger.file.path)) cannot be written (\(safe($0))): runs count in memory only, so OMDb may have had more requests than this says. Make the folder writable, or set XDG_STATE_HOME to one that is."
        } ?? "Counted by this tool in \(safe(ledger.folder.path)); other programs using the key are not counted, and OMDb does not say when its day turns."
        return usage.description + "\n" + kept
    }

    /// The answer to `cache`.
    var cacheReport: String {
        let summary = cache.summary()
        var text = "Cache: \(summary.entries) \(summary.entries == 1 ? "answer" : "answers"), \(Self.size(summary.bytes)) of at most \(Self.size(cache.maxBytes)), in \(safe(cache.folder.path))."
        if !cacheInUse {
            text += ledger == nil ? " Not used now: the offline catalogue needs none." : " Not used now: --no-cache or MOVIES_CACHE=off."
        } else if cache.hits > 0 {
            text += " \(cache.hits) \(cache.hits == 1 ? "answer" : "answers") came from it in this run."
        }
        return text
    }

    /// Empties the cache and says how much it freed.
    func clearCache() -> String {
        let freed = cache.clear()
        return "Cache cleared: \(freed.entries) \(freed.entries == 1 ? "answer" : "answers"), \(Self.size(freed.bytes)) freed in \(safe(cache.folder.path))."
    }

    /// The warning at 90 % of the day's limit, once a day, after any notice of a damaged count; else `nil`.
    /// On ``FileWork``: it may wait for the count file's lock, which the main actor must not.
    func warningAfterCommand() async -> String? {
        await FileWork.run { [ledger] in
            let notice = ledger?.takeNotice()
            guard let usage = ledger?.warningDue(), let limit = usage.limit else { return notice }
            let left = limit - usage.sent
            // Past the limit already: no "90 %", no "0 left".
            let warning = left > 0
                ? "Warning: 90 % of the key's daily limit is reached, \(usage), \(QuotaUsage.grouped(left)) left: repeated searches come from the cache, and --offline costs nothing."
                : "Warning: the key's daily limit is reached by this tool's count, \(usage): OMDb may refuse what is not cached; repeated searches come from the cache, and --offline costs nothing."
            return [notice, warning].compactMap { $0 }.joined(separator: "\n")
        }
    }

    /// The quota is spent: how much of it this tool sent, what still works.
    var limitMessage: String {
        let sent = ledger.map { "this tool sent \(QuotaUsage.grouped($0.usage().sent)) of them today, UTC" } ?? "OMDb does not say when it resets"
        return "OMDb's daily request limit for this key is spent (\(sent)): cached searches and --offline still work; the limit resets once a day, or use another key."
    }

    /// `34.5 KB`: decimal units, one decimal.
    static func size(_ bytes: Int) -> String {
        let units = [(1_000_000_000.0, "GB"), (1_000_000.0, "MB"), (1_000.0, "KB")]
        guard let (factor, unit) = units.first(where: { Double(bytes) >= $0.0 }) else { return "\(bytes) bytes" }
        let value = Double(bytes) / factor
        return (value >= 100 || value == value.rounded() ? String(Int(value.rounded())) : String(format: "%.1f", value)) + " " + unit
    }
}
