import FakeOMDb
import Foundation
@testable import OMDbKit
import OMDbTestSupport
import Testing
@testable import OMDbCatalogue
import TestSupport

/// Wider posters: the URL rewrite, the fallback to OMDb's URL, and the file a wider one replaces.
@Suite struct PosterWidthTests {
    /// The catalogue naming its posters as Amazon does (`…._V1_SX300.jpg`).
    static let amazonCatalogue = { var amazon = catalogue; amazon.amazonStylePosters = true; return amazon }()
    var amazonCatalogue: Catalogue { Self.amazonCatalogue }

    static let amazon = "https://m.media-amazon.com/images/M/MV5BMTc@._V1_SX300.jpg"

    @Test(arguments: [
        (amazon, PosterWidth.pixels(300), amazon),
        (amazon, .pixels(600), "https://m.media-amazon.com/images/M/MV5BMTc@._V1_SX600.jpg"),
        (amazon, .pixels(1000), "https://m.media-amazon.com/images/M/MV5BMTc@._V1_SX1000.jpg"),
        (amazon, .original, "https://m.media-amazon.com/images/M/MV5BMTc@._V1_.jpg"),
        ("https://ia.media-imdb.com/images/M/MV5BMj@._V1_SX300.jpg", .pixels(300), "https://m.media-amazon.com/images/M/MV5BMj@._V1_SX300.jpg"),
        ("https://ia.media-imdb.com/images/M/MV5BMj@._V1_SX300.jpg", .pixels(600), "https://m.media-amazon.com/images/M/MV5BMj@._V1_SX600.jpg"),
        ("https://images-na.ssl-images-amazon.com/images/M/MV5BN@._V1_QL75_SX300_CR0,0,300,444_.jpg", .pixels(600),
         "https://images-na.ssl-images-amazon.com/images/M/MV5BN@._V1_QL75_SX600_CR0,0,300,444_.jpg"),
        ("https://example.com/poster.jpg", .pixels(600), "https://example.com/poster.jpg"),
        ("http://127.0.0.1:8080/posters/tt0090190._V1_SX300.jpg", .original, "http://127.0.0.1:8080/posters/tt0090190._V1_.jpg"),
    ])
    func rewriteAsksForTheWidth(url: String, width: PosterWidth, expected: String) throws {
        #expect(width.rewrite(try #require(URL(string: url))).absoluteString == expected)
    }

    @Test(arguments: [("300", PosterWidth.pixels(300)), ("600", .pixels(600)), ("1000", .pixels(1000)), ("ORIGINAL", .original)])
    func widthsAreRead(text: String, width: PosterWidth) {
        #expect(PosterWidth(text) == width)
    }

    @Test(arguments: ["", "450", "wide", "-1"])
    func otherWidthsAreRefused(text: String) { #expect(PosterWidth(text) == nil) }

    @Test func pixelWidthIsReadFromEveryFixtureFormat() throws {
        for name in ["tt0090190.jpg", "tt0098503.jpg", "tt0076759.jpg"] {
            let file = catalogueFolder.appendingPathComponent("posters/\(name)")
            let data = try #require(FileManager.default.contents(atPath: file.path))
            if ImageFormat(sniffing: data) != nil { #expect(try ImageWidth.pixels(ofFile: file) == 80, "\(name)") }
        }
    }

    @Test func catalogueAnnouncesAmazonNamesAndServesEveryWidth() throws {
        let answer = amazonCatalogue.answer([URLQueryItem(name: "i", value: "tt0090190"), URLQueryItem(name: "apikey", value: "k")],
                                            posterBase: URL(string: "http://p/")!)
        let record = try #require(JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
        #expect(record["Poster"] as? String == "http://p/posters/tt0090190._V1_SX300.jpg")
        let plain = try #require(catalogue.posterData(atPath: "posters/tt0090190.jpg"))
        for name in ["tt0090190._V1_SX300.jpg", "tt0090190._V1_SX600.jpg", "tt0090190._V1_.jpg"] {
            #expect(catalogue.posterData(atPath: "posters/" + name) == plain)
        }
    }

    private func item(_ server: FakeOMDbServer, _ id: String = "tt0090190") -> SearchItem {
        SearchItem(imdbID: id, title: "The Toxic Avenger", year: ReleaseYear("1984"), type: .movie,
                   posterURL: server.baseURL.appendingPathComponent("posters/\(id)._V1_SX300.jpg"))
    }

    @Test func wideFailureFallsBackToOMDbsURLAndSaysSo() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: amazonCatalogue) { request in
                request.path.contains("_SX600") ? ServerResponse(status: 404, body: Data("<html>no</html>".utf8)) : nil
            }
            defer { server.shutdown() }
            let client = OMDbClient.live(.init(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: server.baseURL, timeout: 5))
            let saved = try await client.poster(for: item(server), in: PosterStore(folder: folder, width: .pixels(600)))
            #expect(server.posterRequests.map(\.path) == ["/posters/tt0090190._V1_SX600.jpg", "/posters/tt0090190._V1_SX300.jpg"])
            #expect(saved.fallback?.contains("width 600 failed (HTTP 404)") == true)
            #expect(files(in: folder).count == 1)
            #expect(files(in: folder).first?.hasPrefix("The Toxic Avenger (1984) [tt0090190].") == true)
        }
    }

    @Test func wideSuccessIsOneRequestAndNoFallback() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: amazonCatalogue)
            defer { server.shutdown() }
            let client = OMDbClient.live(.init(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: server.baseURL, timeout: 60))   // no retry for a deadline a loaded machine misses
            let saved = try await client.poster(for: item(server), in: PosterStore(folder: folder, width: .original))
            #expect(server.posterRequests.map(\.path) == ["/posters/tt0090190._V1_.jpg"])
            #expect(saved.fallback == nil)
        }
    }

    @Test func narrowerFileIsReplacedAndStandardWidthKeepsIt() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: amazonCatalogue)
            defer { server.shutdown() }
            // Already there, 80 px wide, under another extension than the download will have.
            let old = folder.appendingPathComponent("The Toxic Avenger (1984) [tt0090190].gif")
            try Data(contentsOf: catalogueFolder.appendingPathComponent("posters/tt0090190.jpg")).write(to: old)
            let standard = OMDbClient.live(.init(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: server.baseURL, timeout: 5))
            #expect(try await standard.poster(for: item(server), in: PosterStore(folder: folder)).wasAlreadyThere)
            #expect(server.posterRequests.isEmpty)
            let wide = OMDbClient.live(.init(apiKey: APIKey(FakeOMDbServer.validKey), baseURL: server.baseURL, timeout: 5))
            let saved = try await wide.poster(for: item(server), in: PosterStore(folder: folder, width: .pixels(600)))
            #expect(!saved.wasAlreadyThere)
            #expect(server.posterRequests.count == 1)
            #expect(files(in: folder).count == 1)
            #expect(!files(in: folder).contains(old.lastPathComponent))
        }
    }
}
