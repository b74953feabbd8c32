import Foundation

/// Everything that can go wrong talking to OMDb or saving a poster, described for a person in the
/// library's terms: what happened, never a program's options or variables (a tool adds its own advice).
///
/// No case carries the API key: URLs are redacted (`apikey=***`) before they are stored,
/// and so is any text that came from the network layer.
public enum OMDbError: Error, Sendable, Equatable {
    // MARK: Using the client
    /// ``Search/next()`` was called after the last page of the search.
    case noMorePages(query: String, shown: Int, total: Int)

    // MARK: What OMDb answered (its `{"Response":"False","Error":…}` envelope)
    /// `Movie not found!`: no result, or a page past the last.
    case notFound(query: String)
    /// `Series or season not found!`: the title is not a series, or has no such season.
    case seasonNotFound(imdbID: String, season: Int)
    /// `Too many results.`: the query is too short or too common.
    case tooManyResults(query: String)
    /// `Incorrect IMDb ID.`
    case incorrectIMDbID(String)
    /// `Error getting data.`: OMDb failed to look the title up.
    case dataUnavailable
    /// `Something went wrong.`: OMDb did not understand the request.
    case malformedRequest
    /// `Invalid API key!`: a wrong key, or a new key not yet activated.
    case invalidAPIKey
    /// `No API key provided.`
    case missingAPIKey
    /// `Request limit reached!` (or `Daily request limit reached!`).
    case quotaExhausted
    /// Not sent: this tool's count of the key's requests today reached the daily limit
    /// (`--daily-limit`). OMDb was not asked.
    case dailyLimitReached(limit: Int)
    /// `{"Response":"False"}` with no `Error`: OMDb said the request failed, and not why.
    case noReason(status: Int)
    /// OMDb's CDN (Cloudflare) answered with a challenge or a block page instead of OMDb.
    case cdnRefused(status: Int, url: String)
    /// An error text this client does not know, kept as OMDb wrote it.
    case server(message: String, status: Int)

    // MARK: HTTP and the network
    /// An HTTP status outside 2xx with no OMDb envelope in the body.
    case httpStatus(Int, url: String)
    /// No complete answer (connection, headers and body) within the deadline of `seconds`, on
    /// each of `tries` attempts (the first included).
    case timedOut(url: String, seconds: Int, tries: Int)
    /// The exchange with the API host failed below HTTP; `reason` says how, in words
    /// ("connection refused", "too many redirects", "the answer was cut short: 10 of 900 bytes").
    case unreachable(url: String, reason: String)
    /// The API answered more than the client accepts (`limit` bytes): not OMDb's answer.
    case answerTooLarge(url: String, limit: Int)
    /// The body was not the JSON OMDb sends.
    case invalidResponse(url: String, reason: String)

    // MARK: Posters
    /// OMDb has no poster for this title (`N/A`).
    case posterUnavailable
    /// The poster URL answered something that is not a JPEG, PNG, GIF or WebP image.
    case posterNotAnImage(url: String, contentType: String?)
    /// The poster is bigger than the size cap.
    case posterTooLarge(bytes: Int, limit: Int)
    /// The poster could not be written to disk.
    case posterNotWritten(path: String, reason: String)
    /// The poster's host failed below HTTP (timed out, refused, cut short); `reason` says how.
    case posterDownloadFailed(url: String, reason: String)

    // MARK: Kept answers
    /// OMDb's error answer as kept in the disk cache (since `since`, when known), not asked for
    /// again: a `Movie not found!` of an hour ago may be wrong now. The error it holds is OMDb's.
    indirect case fromCache(OMDbError, since: Date?)
}

// MARK: - Describing errors

extension OMDbError: CustomStringConvertible, LocalizedError {
    /// One line that says what happened and what to do next.
    public var description: String {
        switch self {
        case let .noMorePages(query, shown, total):
            "No more results for \"\(query)\": all \(shown) of \(total) are shown."
        case let .notFound(query):
            "No results for \"\(query)\". Check the spelling, or try fewer words or another year."
        case let .seasonNotFound(imdbID, season):
            "OMDb has no season \(season) of \(imdbID) (\"Series or season not found!\"): it is not a series, or has no such season."
        case let .tooManyResults(query):
            "Too many results for \"\(query)\": use a longer title, or narrow it with a type or a year."
        case let .incorrectIMDbID(id):
            "OMDb does not know the IMDb ID \(id)."
        case .dataUnavailable:
            "OMDb could not get the data for this title."
        case .malformedRequest:
            "OMDb did not understand the request (\"Something went wrong.\")."
        case .invalidAPIKey:
            "OMDb rejected the API key. A new key needs activating from OMDb's e-mail, and OMDb's CDN may refuse it for a while after that."
        case .missingAPIKey:
            "OMDb received no API key."
        case .quotaExhausted:
            "The API key's daily request limit is spent (OMDb does not say when it resets)."
        case let .dailyLimitReached(limit):
            "Stopped at the key's daily limit, \(QuotaUsage.grouped(limit)) requests by this client's count (UTC day): nothing more is sent to OMDb today."
        case let .noReason(status):
            "OMDb answered that the request failed but gave no reason (HTTP \(status))."
        case let .cdnRefused(status, url):
            "OMDb's CDN refused the request at \(Self.host(of: url)) (HTTP \(status), a challenge or block page, not OMDb's answer)."
        case let .server(message, status):
            "OMDb answered \"\(message)\" (HTTP \(status))."
        case let .httpStatus(status, url):
            RetryPolicy.isTransient(status: status)
                ? "\(Self.host(of: url)) answered HTTP \(status) (\(Self.phrase(status))), also when asked again: try again in a moment."
                : "The server answered HTTP \(status) (\(Self.phrase(status))) for \(Self.shown(url))."
        case let .timedOut(url, seconds, tries):
            "No complete answer from \(Self.host(of: url)) within \(seconds) s" + Self.eachOf(tries) + "."
        case let .unreachable(url, reason):
            "The connection to \(Self.host(of: url)) failed (\(reason))."
        case let .answerTooLarge(url, limit):
            "The answer from \(Self.host(of: url)) is larger than \(limit / 1_000_000) MB, which is not OMDb's."
        case let .invalidResponse(url, reason):
            "The answer from \(Self.shown(url)) was not OMDb's JSON (\(reason))."
        case .posterUnavailable:
            "no poster (N/A)"
        case let .posterNotAnImage(url, contentType):
            "not an image (\(contentType ?? "unknown type")) at \(Self.shown(url))"
        case let .posterTooLarge(bytes, limit):
            "too large (\(bytes) bytes or more; the limit is \(limit))"
        case let .posterNotWritten(path, reason):
            "could not write \(path): \(reason)"
        case let .posterDownloadFailed(url, reason):
            "could not download it from \(Self.host(of: url)) (\(reason))"
        case let .fromCache(error, since):
            // The fact joins the sentence it qualifies: "… another year (OMDb's answer kept in the cache since 10:42)."
            String(error.description.dropLast(error.description.hasSuffix(".") ? 1 : 0))
                + " (OMDb's answer kept in the cache" + (since.map { " since " + Self.time($0) } ?? "") + ")."
        }
    }

    /// How many tries a wait was each of: ", on each of 3 tries", nothing for one.
    static func eachOf(_ tries: Int) -> String {
        tries > 1 ? ", on each of \(tries) tries" : ""
    }

    /// The longest URL a message shows whole; a longer one (a 100 KB query) is cut in the middle.
    static let longestShownURL = 80

    /// `url` as a message shows it: whole up to ``longestShownURL`` characters, else start…end.
    static func shown(_ url: String) -> String {
        guard url.count > longestShownURL else { return url }
        let half = (longestShownURL - 1) / 2
        return String(url.prefix(half)) + "…" + String(url.suffix(half))
    }

    /// The error itself, whether from OMDb now or from the disk cache: what callers match on.
    package var underlying: OMDbError {
        if case .fromCache(let error, _) = self { error.underlying } else { self }
    }

    /// A cached answer's time: the hour today, with the date on other days.
    static func time(_ date: Date, now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = Calendar.current.isDate(date, inSameDayAs: now) ? "HH:mm" : "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// The host (and port) of a URL as shown in a message; the text itself when it is no URL.
    static func host(of url: String) -> String {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else { return shown(url) }
        return components.port.map { "\(host):\($0)" } ?? host
    }

    /// The words for the statuses a person may meet.
    static func phrase(_ status: Int) -> String {
        switch status {
        case 400: "bad request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not found"
        case 408: "request timeout"
        case 410: "gone"
        case 429: "too many requests"
        case 500: "internal server error"
        case 502: "bad gateway"
        case 503: "service unavailable"
        case 504: "gateway timeout"
        case 520..<530: "error at the CDN"
        case 300..<400: "a redirect to another host or port, not followed with the key"
        default: status >= 500 ? "server error" : "refused"
        }
    }

    /// A problem with the key itself (wrong, missing, or its daily quota spent): every other
    /// request with it would fail the same way, so a page stops at the first.
    public var isKeyProblem: Bool {
        switch underlying {
        case .invalidAPIKey, .missingAPIKey, .quotaExhausted: true
        case .httpStatus(let status, _): status == 401
        default: false
        }
    }

    /// The one-line ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// True when the request was not sent because this tool's count reached the daily limit.
    package var isDailyLimit: Bool {
        if case .dailyLimitReached = underlying { true } else { false }
    }

    /// True when a poster was had but could not be written here (a full disk, a folder gone).
    package var isPosterNotWritten: Bool { if case .posterNotWritten = self { true } else { false } }

    /// True for the answers that mean "nothing matched": a result, not a failure.
    /// OMDb's `Error getting data.` and `Incorrect IMDb ID.` count as not found.
    package var isNoResults: Bool {
        switch underlying {
        case .notFound, .seasonNotFound, .dataUnavailable, .incorrectIMDbID: true
        default: false
        }
    }
}
