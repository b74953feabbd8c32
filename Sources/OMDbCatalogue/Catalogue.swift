import Files
import Foundation
import OMDbKit

/// An OMDb-shaped catalogue read from a folder, answering as OMDb does: word matching, 10 results a
/// page, `totalResults`, the `type` and `y` filters, `plot=short|full`, and OMDb's error envelopes.
///
/// The library ships one (``bundled()``): 245 titles, their posters and a few series' seasons. It
/// backs both the offline mode (``CatalogueTransport``) and the fake OMDb server, so they behave alike.
public struct Catalogue: Sendable {
    /// One object of `catalogue.json`: OMDb's by-ID fields as strings, plus `FullPlot`, and its
    /// `Ratings` as OMDb lists them (`[{"Source": "Rotten Tomatoes", "Value": "93%"}…]`).
    struct Entry: Sendable, Decodable {
        let fields: [String: String]
        let ratings: [[String: String]]?
        let words: [String]
        let year: ReleaseYear?
        var imdbID: String { fields["imdbID"] ?? "" }
        var title: String { fields["Title"] ?? "" }
        var type: String { fields["Type"] ?? "movie" }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            var fields: [String: String] = [:]
            for key in container.allKeys where key.stringValue != "Ratings" {
                fields[key.stringValue] = try container.decode(String.self, forKey: key)
            }
            self.fields = fields
            let ratingsKey = AnyCodingKey(stringValue: "Ratings")
            ratings = try container.decodeIfPresent([[String: String]].self, forKey: ratingsKey)
            words = Catalogue.words(fields["Title"] ?? "")
            year = fields["Year"].map(ReleaseYear.init)
        }
    }

    private let entries: [Entry]
    private let byID: [String: Int]
    /// Seasons and episodes of a few series (`episodes.json`).
    private let seasons: CatalogueSeasons
    /// The folder holding `catalogue.json` and `posters/`.
    public let folder: URL
    /// When set, posters are announced as Amazon names them (`posters/ID._V1_SX300.jpg`), so
    /// asking for another width can be tried offline and on the fake server. Any width of a
    /// name is served the same file either way.
    public var amazonStylePosters = false

    /// Query words that alone match too much: OMDb answers `Too many results.` for them.
    static let commonWords: Set<String> = ["a", "an", "the", "of", "and", "in", "on", "to", "up", "at", "by", "for", "is", "it", "i"]

    static let maximumFileBytes = 256 << 20

    /// Reads `catalogue.json` in `folder`.
    /// - Throws: when the file is missing or not a JSON array of objects whose values are strings
    ///   (`Ratings` aside: a list of `Source` and `Value` strings, as OMDb sends it).
    public init(folder: URL) throws {
        self.folder = folder
        // Read as every file that steers the tool is (FileTrust): one someone else could have planted is refused.
        let file = folder.appendingPathComponent("catalogue.json")
        guard let data = try AtomicFile(file).contents(upTo: Self.maximumFileBytes) else {
            throw AtomicFile.Problem.failed(path: file.path, reason: "there is no such file")
        }
        entries = try JSONDecoder().decode([Entry].self, from: data)
        byID = Dictionary(entries.enumerated().map { ($1.imdbID, $0) }, uniquingKeysWith: { first, _ in first })
        seasons = try CatalogueSeasons(folder: folder)
    }

    /// How many titles the catalogue holds.
    public var count: Int { entries.count }

    /// The title of `imdbID`, when the catalogue holds it.
    public func title(of imdbID: String) -> String? { byID[imdbID].map { entries[$0].title } }

    /// The seasons whose episodes the catalogue lists for `seriesID`, in order: empty for a
    /// series it has no episode lists for (it has them for a few only).
    public func listedSeasons(of seriesID: String) -> [Int] { seasons.listedSeasons(of: seriesID) }

    /// The titles of the series whose episodes the catalogue lists, in catalogue order.
    public var seriesWithEpisodes: [String] {
        entries.filter { !seasons.listedSeasons(of: $0.imdbID).isEmpty }.map(\.title)
    }

    // MARK: Answering

    /// The answer to a request for `path`: a poster file under `posters/` (404 when there is none),
    /// else OMDb's answer to `query`. The offline transport and the fake server both route here.
    package func answer(path: String, query: [URLQueryItem], posterBase: URL, acceptsKey: (String) -> Bool = { _ in true }) -> HTTPResponse {
        let relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
        guard relative.hasPrefix("posters/") else { return answer(query, posterBase: posterBase, acceptsKey: acceptsKey) }
        guard let data = posterData(atPath: relative) else {
            return HTTPResponse(statusCode: 404, body: Data("<html>Not Found</html>".utf8), contentType: "text/html")
        }
        return HTTPResponse(statusCode: 200, body: data, contentType: ImageFormat(sniffing: data).map { "image/\($0.rawValue)" })
    }

    /// OMDb's answer to a request with these query items. Posters are announced under `posterBase`.
    /// - Parameter acceptsKey: which `apikey` values are valid; OMDb answers 401 to the others.
    package func answer(_ query: [URLQueryItem], posterBase: URL, acceptsKey: (String) -> Bool = { _ in true }) -> HTTPResponse {
        func value(_ name: String) -> String? { query.last { $0.name.lowercased() == name }?.value }
        guard let key = value("apikey"), !key.isEmpty else { return Self.error("No API key provided.", status: 401) }
        guard acceptsKey(key) else { return Self.error("Invalid API key!", status: 401) }
        if let id = value("i") {
            guard id.wholeMatch(of: /tt\d{7,8}/) != nil else { return Self.error("Incorrect IMDb ID.") }
            if let season = value("season") { return self.season(season, of: id) }
            return lookup(id: id, plot: value("plot"), posterBase: posterBase)
        }
        if let text = value("s") {
            return search(text, type: value("type"), year: value("y"), page: value("page"), posterBase: posterBase)
        }
        if let title = value("t") {
            let words = Catalogue.words(title)
            guard let entry = entries.first(where: { $0.words == words && matches($0, type: value("type"), year: value("y")) }) else {
                return Self.error("Movie not found!")
            }
            return lookup(id: entry.imdbID, plot: value("plot"), posterBase: posterBase)
        }
        return Self.error("Something went wrong.")
    }

    private func search(_ text: String, type: String?, year: String?, page: String?, posterBase: URL) -> HTTPResponse {
        let words = Catalogue.words(text)
        guard !words.isEmpty else { return Self.error("Something went wrong.") }
        if words.joined().count < 3 || words.allSatisfy(Catalogue.commonWords.contains) {
            return Self.error("Too many results.")
        }
        let pageNumber = page.map { Int($0) ?? 0 } ?? 1
        guard pageNumber >= 1 else { return Self.error("Something went wrong.") }
        let hits = entries.filter { entry in
            words.allSatisfy(entry.words.contains) && matches(entry, type: type, year: year)
        }
        let first = (pageNumber - 1) * SearchPage.size
        guard first < hits.count else { return Self.error("Movie not found!") }
        let rows: [[String: String]] = hits[first..<min(first + SearchPage.size, hits.count)].map { entry in
            ["Title": entry.title, "Year": entry.fields["Year"] ?? "N/A", "imdbID": entry.imdbID, "Type": entry.type,
             "Poster": posterURL(entry, base: posterBase)]
        }
        return Self.json(["Search": rows, "totalResults": String(hits.count), "Response": "True"])
    }

    private func season(_ number: String, of id: String) -> HTTPResponse {
        guard let answer = seasons.season(number, of: id, title: title(of: id) ?? id) else { return Self.error("Series or season not found!") }
        return Self.json(answer)
    }

    private func lookup(id: String, plot: String?, posterBase: URL) -> HTTPResponse {
        if byID[id] == nil, var episode = seasons.episodeRecord(id) {
            episode["Response"] = "True"
            return Self.json(episode)
        }
        guard let index = byID[id] else { return Self.error("Error getting data.") }
        let entry = entries[index]
        var record: [String: Any] = entry.fields
        if let ratings = entry.ratings { record["Ratings"] = ratings }
        if let total = seasons.totalSeasons(of: id) { record["totalSeasons"] = total }
        let full = record.removeValue(forKey: "FullPlot") as? String
        if plot?.lowercased() == "full", let full, full != "N/A" { record["Plot"] = full }
        record["Poster"] = posterURL(entry, base: posterBase)
        record["Response"] = "True"
        return Self.json(record)
    }

    private func matches(_ entry: Entry, type: String?, year: String?) -> Bool {
        if let type, !type.isEmpty, entry.type != type.lowercased() { return false }
        if let year, !year.isEmpty {
            guard let wanted = Int(year), let start = entry.year?.start else { return false }
            let end = entry.year?.end ?? (entry.year?.isOpenRange == true ? Int.max : start)
            return (start...end).contains(wanted)
        }
        return true
    }

    private func posterURL(_ entry: Entry, base: URL) -> String {
        guard var poster = entry.fields["Poster"], poster != "N/A" else { return "N/A" }
        // Amazon's style: `posters/tt1.jpg` → `posters/tt1._V1_SX300.jpg`.
        if amazonStylePosters, let dot = poster.lastIndex(of: "."), !poster[..<dot].hasSuffix("/") {
            poster = poster[..<dot] + "._V1_SX300" + poster[dot...]
        }
        return base.appendingPathComponent(poster).absoluteString
    }

    // MARK: Posters

    /// The bytes of a poster file named in the catalogue (`posters/…`), or `nil` when there is
    /// none, or one ``FileTrust`` refuses (or larger than a poster is let be).
    public func posterData(atPath path: String) -> Data? {
        var relative = path.split(separator: "/").filter { $0 != ".." && $0 != "." }.joined(separator: "/")
        guard relative.hasPrefix("posters/") else { return nil }
        // Any size Amazon-style (`._V1_SX600`, `._V1_`): the same file, as a CDN would scale it.
        if let marker = relative.range(of: "._V1_"), let dot = relative.lastIndex(of: "."), dot >= marker.upperBound {
            relative = String(relative[..<marker.lowerBound] + relative[dot...])
        }
        return (try? AtomicFile(folder.appendingPathComponent(relative)).contents(upTo: PosterStore.defaultMaxBytes)) ?? nil
    }

    // MARK: Helpers

    /// Lower-cased, accent-folded words: `Amélie` and `amelie` match.
    static func words(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split { !$0.isLetter && !$0.isNumber }
            .map(String.init)
    }

    static func error(_ message: String, status: Int = 200) -> HTTPResponse {
        json(["Response": "False", "Error": message], status: status)
    }

    static func json(_ object: [String: Any], status: Int = 200) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return HTTPResponse(statusCode: status, body: body, contentType: "application/json; charset=utf-8")
    }
}

/// Answers from a ``Catalogue`` with no network: the offline mode's transport.
///
/// Requests to its ``baseURL`` get OMDb's answers; `posters/…` under it get the poster files.
public struct CatalogueTransport: OMDbTransport {
    /// The catalogue that answers.
    public let catalogue: Catalogue
    /// The base URL the client should use with this transport.
    public static let baseURL = URL(string: "offline://catalogue/")!
    /// The key the client sends to the catalogue, which accepts any.
    public static let apiKey: APIKey = "no-key-needed"

    /// A transport answering from `catalogue`.
    public init(catalogue: Catalogue) { self.catalogue = catalogue }

    /// The catalogue's answer to `request`, as OMDb (or its posters host) would give it.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try Task.checkCancellation()
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return TransportResponse(catalogue.answer(path: request.url.path, query: items, posterBase: Self.baseURL))
    }
}

extension Catalogue {
    /// One title of the catalogue, for listing it.
    public struct Title: Sendable {
        /// The title's IMDb ID.
        public let imdbID: String
        /// The title.
        public let title: String
        /// OMDb's `Year`, as the catalogue holds it.
        public let year: String?
        /// OMDb's `Type`: `movie`, `series`…
        public let type: String
    }

    /// Every title, by title then year: what `catalogue` lists.
    public var titles: [Title] {
        entries.map { Title(imdbID: $0.imdbID, title: $0.title, year: $0.fields["Year"], type: $0.type) }
            .sorted { ($0.title.lowercased(), $0.year ?? "") < ($1.title.lowercased(), $1.year ?? "") }
    }
}
