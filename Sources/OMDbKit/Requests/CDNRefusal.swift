import Foundation

/// OMDb's CDN (Cloudflare) answering instead of OMDb: a challenge or a block page.
///
/// It says nothing of the request nor of OMDb: the CDN refused this network or this client for
/// now. Asking again at once only meets it again (and counts again), so it is never retried.
enum CDNRefusal {
    /// True when `response` is the CDN's refusal: `cf-mitigated: challenge` whatever the status,
    /// or a 403, 429 or 503 whose HTML body is Cloudflare's challenge or block page.
    static func matches(_ response: HTTPResponse) -> Bool {
        if response.headers["cf-mitigated"]?.lowercased().contains("challenge") == true { return true }
        guard [403, 429, 503].contains(response.statusCode) else { return false }
        // A page is a few kB: the markers are near its top, and a huge body is read no further.
        let head = String(decoding: response.body.prefix(64 * 1024), as: UTF8.self).lowercased()
        guard head.contains("<html") || head.contains("<!doctype html") else { return false }
        return markers.contains { head.contains($0) }
    }

    /// What Cloudflare's challenge and block pages carry, and OMDb's own answers never do.
    static let markers = ["cloudflare", "cf-chl", "challenge-platform", "cf-error-details", "cf-ray"]
}
