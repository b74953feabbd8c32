import Foundation
import Synchronization

/// The faults a hostile network or a sick server can produce, as answers for the fake's fault
/// hook. Combine them with ``FaultPlan`` to decide which requests get them.
extension ServerResponse {
    /// A CDN's error page with `status` (503, 502, 408…).
    public static func failure(_ status: Int, headers: [String: String] = [:]) -> ServerResponse {
        ServerResponse(status: status, headers: ["Content-Type": "text/html"].merging(headers) { $1 },
                       body: Data("<html><body>\(status)</body></html>".utf8))
    }

    /// 503 Service Unavailable.
    public static var serviceUnavailable: ServerResponse { failure(503) }

    /// 429 Too Many Requests with `Retry-After: seconds`.
    public static func tooManyRequests(retryAfter seconds: Int) -> ServerResponse {
        failure(429, headers: ["Retry-After": String(seconds)])
    }

    /// Never answers (until the server shuts down): only the client's deadline ends it.
    public static var hang: ServerResponse { ServerResponse(delay: .seconds(3_600)) }

    /// A 200 answer of `body`, one byte every `interval`.
    public static func trickle(_ body: Data, every interval: Duration) -> ServerResponse {
        ServerResponse(headers: ["Content-Type": "application/json"], body: body, trickle: interval)
    }

    /// The connection is reset (RST) once the request is read.
    public static var reset: ServerResponse { ServerResponse(reset: true) }

    /// A 200 answer that announces `announced` bytes (more than `body`) and closes after `body`.
    public static func truncated(_ body: Data, announced: Int) -> ServerResponse {
        ServerResponse(headers: ["Content-Type": "application/json"], body: body, announcedLength: announced)
    }

    /// A 200 JSON answer of `bytes` bytes: valid OMDb JSON padded with spaces.
    public static func oversized(bytes: Int) -> ServerResponse {
        let json = Data(#"{"Response":"False","Error":"Movie not found!"}"#.utf8)
        return ServerResponse(headers: ["Content-Type": "application/json"],
                              body: Data(repeating: 0x20, count: max(0, bytes - json.count)) + json)
    }

    /// A 200 HTML page instead of JSON, as a CDN's challenge page.
    public static var html: ServerResponse {
        ServerResponse(headers: ["Content-Type": "text/html"], body: Data("<!DOCTYPE html><html><title>Just a moment...</title></html>".utf8))
    }

    /// A 200 answer that is not valid JSON.
    public static var invalidJSON: ServerResponse { .json(#"{"Response":"True","Search":[{"Title":"#) }

    /// Cloudflare's challenge ("Just a moment..."), as OMDb's CDN sends it: `cf-mitigated: challenge`,
    /// with 403 (or 503), and an HTML page.
    public static func cloudflareChallenge(status: Int = 403) -> ServerResponse {
        ServerResponse(status: status, headers: ["Content-Type": "text/html; charset=UTF-8", "cf-mitigated": "challenge",
                                                 "Server": "cloudflare", "CF-RAY": "8e1f2a3b4c5d6e7f-AMS"],
                       body: Data(#"<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body><div id="challenge-stage"></div><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>"#.utf8))
    }

    /// Cloudflare's block page: a 403 of HTML with no `cf-mitigated` header.
    public static var cloudflareBlock: ServerResponse {
        ServerResponse(status: 403, headers: ["Content-Type": "text/html; charset=UTF-8", "Server": "cloudflare"],
                       body: Data(#"<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body><div id="cf-error-details"><h1>Sorry, you have been blocked</h1></div></body></html>"#.utf8))
    }

    /// OMDb's envelope with a server error's status: `Something went wrong.` with 500, as OMDb
    /// answers when it is itself in trouble.
    public static func serverError(_ status: Int = 500) -> ServerResponse {
        .json(#"{"Response":"False","Error":"Something went wrong."}"#, status: status)
    }

    /// The envelope with no `Error`: OMDb says the request failed, and not why.
    public static var noReason: ServerResponse { .json(#"{"Response":"False"}"#) }

    /// OMDb's 401 for a wrong key.
    public static var invalidKey: ServerResponse { .json(#"{"Response":"False","Error":"Invalid API key!"}"#, status: 401) }

    /// OMDb's 401 for a spent daily quota.
    public static var limitReached: ServerResponse { .json(#"{"Response":"False","Error":"Request limit reached!"}"#, status: 401) }
}

/// Decides which requests get a fault: a fault hook for ``FakeOMDbServer``.
public enum FaultPlan {
    /// The fault for the first `times` arrivals of each distinct request (method and target),
    /// the normal answer after: "503 once on every request" is `firstAttempts(1, .serviceUnavailable)`.
    public static func firstAttempts(_ times: Int, _ fault: ServerResponse,
                                     where matches: @escaping @Sendable (ServerRequest) -> Bool = { _ in true })
        -> @Sendable (ServerRequest) -> ServerResponse? {
        let seen = Mutex<[String: Int]>([:])
        return { request in
            guard matches(request) else { return nil }
            let count = seen.withLock { seen in
                seen["\(request.method) \(request.target)", default: 0] += 1
                return seen["\(request.method) \(request.target)"] ?? 0
            }
            return count <= times ? fault : nil
        }
    }

    /// The fault for every request that `matches`.
    public static func always(_ fault: ServerResponse, where matches: @escaping @Sendable (ServerRequest) -> Bool = { _ in true })
        -> @Sendable (ServerRequest) -> ServerResponse? {
        { request in matches(request) ? fault : nil }
    }

    /// Requests for posters.
    public static let posters: @Sendable (ServerRequest) -> Bool = { $0.path.hasPrefix("/posters/") }
    /// Requests to OMDb's API (not posters).
    public static let api: @Sendable (ServerRequest) -> Bool = { !$0.path.hasPrefix("/posters/") }
}
