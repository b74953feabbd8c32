import Foundation
import Files
import OMDbCurl
import OMDbKit

/// Opens OMDb's host (and, when posters will be fetched, the posters host) before a search needs them,
/// so a page does not wait for TCP and TLS handshakes.
///
/// The posters host is `m.media-amazon.com` for OMDb; for another `--base-url`, the one its last search
/// showed, kept per base URL in the state folder (`posters-host`). The transport sends a bare `HEAD /`
/// with no key, which OMDb does not count.
struct Warmup: Sendable {
    let client: OMDbClient
    let stateFolder: URL
    /// False when no poster will be fetched: the posters host stays shut.
    let postersToo: Bool

    static let remembered = 8

    /// Where the posters hosts are kept.
    private var file: URL { stateFolder.appendingPathComponent("posters-host") }

    /// The base URL as the file names it: with no key nor password, which a base URL may carry.
    private var baseURL: String { client.configuration.apiKey.redact(client.configuration.baseURL) }

    /// The posters host for this base URL: OMDb's own, or the one remembered for it.
    var postersHost: URL? {
        guard postersToo else { return nil }
        if client.configuration.baseURL == OMDbClient.Configuration.defaultBaseURL {
            return OMDbClient.Configuration.defaultPostersHost
        }
        return entries()[baseURL].flatMap { URL(string: $0)?.httpOrigin }
    }

    /// The live transport, which opens connections; `nil` for any other (nothing to open).
    private var transport: CurlTransport? { client.transport as? CurlTransport }

    /// Opens OMDb's host and the posters host (at the prompt, as it starts and as a line is begun).
    func openAll() {
        transport?.preconnect(client.configuration.baseURL)
        if let postersHost { transport?.preconnect(postersHost) }
    }

    /// Opens the posters host behind the search's first request (one-shot: the search opens OMDb's first).
    func openPostersHostAfterSearch() {
        guard let host = postersHost else { return }
        transport?.preconnect(host, afterNextRequest: true)
    }

    /// Keeps the origin of `page`'s posters for this base URL's next run, when it is not OMDb's.
    func remember(postersOf page: SearchPage) {
        guard client.configuration.baseURL != OMDbClient.Configuration.defaultBaseURL,
              let origin = page.items.lazy.compactMap(\.posterURL?.httpOrigin).first else { return }
        var entries = entries()
        guard entries[baseURL] != origin.absoluteString else { return }
        entries[baseURL] = origin.absoluteString
        // This base URL's line first, then the others, at most `remembered` in all.
        let others = entries.filter { $0.key != baseURL }.sorted { $0.key < $1.key }.prefix(Self.remembered - 1)
        let text = ([(key: baseURL, value: origin.absoluteString)] + others).map { "\($0.key) \($0.value)\n" }.joined()
        // A hint: failing to write it only costs the next run a round trip.
        guard (try? AtomicFile.prepareFolder(file.deletingLastPathComponent())) != nil else { return }
        try? AtomicFile(file).write(Data(text.utf8), sync: false)
    }

    /// The remembered lines, base URL → posters origin; nothing from a file that is not one, or too large.
    private func entries() -> [String: String] {
        guard let data = try? AtomicFile(file).contents(upTo: 16 * 1_024) ?? nil else { return [:] }
        var entries: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2 else { continue }
            entries[String(fields[0])] = String(fields[1])
        }
        return entries
    }
}
