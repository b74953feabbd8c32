import Foundation
import OMDbKit

/// Opens the connections a search needs before it needs them, so that a page costs its round
/// trips and not a TCP and TLS handshake too: OMDb's host and the posters host.
///
/// The posters host is known before the first answer: `m.media-amazon.com` for OMDb itself;
/// with another `--base-url`, the host of the posters the last search showed, kept in the
/// state folder (`posters-host`). Never offline, and never with a key: the transport sends a
/// bare `HEAD /`, which OMDb does not count.
struct Warmup: Sendable {
    let client: OMDbClient
    /// Where the posters host of the last search is kept.
    let file: URL

    init(client: OMDbClient, stateFolder: URL) {
        self.client = client
        file = stateFolder.appendingPathComponent("posters-host")
    }

    /// The posters host for this base URL: OMDb's own, or the one remembered.
    var postersHost: URL? {
        if client.configuration.baseURL == OMDbClient.Configuration.defaultBaseURL {
            return OMDbClient.Configuration.defaultPostersHost
        }
        guard let data = try? AtomicFile(file).contents(upTo: 1_024) ?? nil,
              let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
              let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else { return nil }
        return url
    }

    /// Opens OMDb's host and the posters host (at the prompt, as it starts and as a line is begun).
    func openAll() {
        client.preconnect(postersHost: postersHost)
    }

    /// Opens the posters host only (one-shot: the search itself opens OMDb's).
    func openPostersHost() {
        guard let host = postersHost else { return }
        client.preconnect(origin: host)
    }

    /// Keeps the origin of `page`'s posters for the next run, when it is not OMDb's usual one.
    func remember(postersOf page: SearchPage) {
        guard client.configuration.baseURL != OMDbClient.Configuration.defaultBaseURL,
              let poster = page.items.lazy.compactMap(\.posterURL).first,
              let scheme = poster.scheme, let host = poster.host else { return }
        let origin = "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)" + (poster.port.map { ":\($0)" } ?? "") + "/"
        guard postersHost?.absoluteString != origin else { return }
        // A hint, not a record: a folder that cannot be trusted or written only costs the next run a round trip.
        guard (try? AtomicFile.prepareFolder(file.deletingLastPathComponent())) != nil else { return }
        try? AtomicFile(file).write(Data((origin + "\n").utf8), sync: false)
    }
}
