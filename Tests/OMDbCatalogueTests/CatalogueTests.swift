import Foundation
import OMDbTestSupport
import Testing
@testable import OMDbKit
@testable import OMDbCatalogue

@Suite struct CatalogueTests {
    private func answer(_ items: [String: String]) -> (status: Int, object: [String: Any]) {
        let response = catalogue.answer(items.map { URLQueryItem(name: $0.key, value: $0.value) }, posterBase: URL(string: "http://p/")!)
        return (response.statusCode, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    /// The fixture's objects with their string fields only (`Ratings` is a list).
    static func stringFields(of data: Data) throws -> [[String: String]] {
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return objects.map { $0.compactMapValues { $0 as? String } }
    }

    /// OMDb's `Ratings` list comes back as it is in the fixture, beside the string fields.
    @Test func ratingsComeBackAsOMDbsList() throws {
        let record = answer(["apikey": "k", "i": "tt0076759"]).object
        let ratings = try #require(record["Ratings"] as? [[String: String]])
        #expect(ratings.first == ["Source": "Internet Movie Database", "Value": "8.6/10"])
        #expect(ratings.map { $0["Source"] } == ["Internet Movie Database", "Rotten Tomatoes", "Metacritic"])
        #expect(record["imdbRating"] as? String == "8.6")
        #expect(answer(["apikey": "k", "i": "tt0098503"]).object["Ratings"] == nil)
    }

    @Test func holdsAtLeastTwoHundredTitlesWithUniqueIDs() throws {
        #expect(catalogue.count >= 200)
        let raw = try Self.stringFields(of: Data(contentsOf: catalogueFolder.appendingPathComponent("catalogue.json")))
        let ids = raw.compactMap { $0["imdbID"] }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.wholeMatch(of: /tt\d{7,8}/) != nil })
        #expect(raw.allSatisfy { ($0["Plot"] ?? "").count > 10 })
    }

    @Test func searchMatchesWordsAndPagesByTen() {
        let first = answer(["apikey": "k", "s": "star wars"])
        #expect(first.object["Response"] as? String == "True")
        let total = Int(first.object["totalResults"] as! String)!
        #expect(total > 10)
        #expect((first.object["Search"] as! [[String: String]]).count == 10)
        let last = answer(["apikey": "k", "s": "star wars", "page": String((total + 9) / 10)])
        #expect((last.object["Search"] as! [[String: String]]).count == total - ((total - 1) / 10) * 10)
        let past = answer(["apikey": "k", "s": "star wars", "page": String((total + 9) / 10 + 1)])
        #expect(past.object["Error"] as? String == "Movie not found!")
    }

    @Test func accentsAndCaseDoNotMatter() {
        let plain = answer(["apikey": "k", "s": "AMELIE"])
        let rows = plain.object["Search"] as? [[String: String]]
        #expect(rows?.first?["Title"] == "Amélie")
    }

    @Test func typeAndYearFilter() {
        let series = answer(["apikey": "k", "s": "star trek", "type": "series"]).object["Search"] as! [[String: String]]
        #expect(!series.isEmpty && series.allSatisfy { $0["Type"] == "series" })
        let year = answer(["apikey": "k", "s": "star wars", "y": "1977"]).object["Search"] as! [[String: String]]
        #expect(year.map { $0["imdbID"] } == ["tt0076759"])
    }

    @Test(arguments: ["a", "up", "the", "of the"])
    func shortOrCommonQueriesAreTooMany(query: String) {
        #expect(answer(["apikey": "k", "s": query]).object["Error"] as? String == "Too many results.")
    }

    @Test func errorsMatchOMDb() {
        #expect(answer(["s": "alien"]).status == 401)
        #expect(answer(["s": "alien"]).object["Error"] as? String == "No API key provided.")
        #expect(answer(["apikey": "k", "i": "nonsense"]).object["Error"] as? String == "Incorrect IMDb ID.")
        #expect(answer(["apikey": "k", "s": "qqqzzzxx"]).object["Error"] as? String == "Movie not found!")
        #expect(answer(["apikey": "k"]).object["Error"] as? String == "Something went wrong.")
        let rejected = catalogue.answer([URLQueryItem(name: "apikey", value: "bad"), URLQueryItem(name: "s", value: "alien")],
                                        posterBase: URL(string: "http://p/")!) { $0 == "good" }
        #expect(rejected.statusCode == 401)
    }

    @Test func fullPlotFallsBackToShort() throws {
        let raw = try Self.stringFields(of: Data(contentsOf: catalogueFolder.appendingPathComponent("catalogue.json")))
        let withFull = try #require(raw.first { $0["FullPlot"] != "N/A" })
        let withoutFull = try #require(raw.first { $0["FullPlot"] == "N/A" })
        #expect(answer(["apikey": "k", "i": withFull["imdbID"]!, "plot": "full"]).object["Plot"] as? String == withFull["FullPlot"])
        #expect(answer(["apikey": "k", "i": withFull["imdbID"]!]).object["Plot"] as? String == withFull["Plot"])
        #expect(answer(["apikey": "k", "i": withoutFull["imdbID"]!, "plot": "full"]).object["Plot"] as? String == withoutFull["Plot"])
        #expect(answer(["apikey": "k", "i": withFull["imdbID"]!]).object["FullPlot"] == nil)
    }

    @Test func postersAreAnnouncedUnderTheBase() {
        let row = answer(["apikey": "k", "i": "tt0090190"]).object
        #expect(row["Poster"] as? String == "http://p/posters/tt0090190.jpg")
        #expect(answer(["apikey": "k", "i": "tt4896340"]).object["Poster"] as? String == "N/A")
    }

    @Test func posterPathsCannotLeaveThePostersFolder() {
        #expect(catalogue.posterData(atPath: "posters/../catalogue.json") == nil)
        #expect(catalogue.posterData(atPath: "../Package.swift") == nil)
        #expect(catalogue.posterData(atPath: "posters/tt0090190.jpg") != nil)
    }

    /// The catalogue that ships with the library is found beside the program built with it (the
    /// test runner here, as `swift build` puts the resource bundle beside every executable).
    @Test func theBundledCatalogueIsFoundBesideTheProgram() async throws {
        #expect(try Catalogue.bundled().titles.map(\.imdbID) == catalogue.titles.map(\.imdbID))
        #expect(Catalogue.defaultFolder(environment: [:])?.lastPathComponent == "Catalogue")
        let client = OMDbClient(configuration: CatalogueTransport.configuration, transport: try CatalogueTransport())
        let movie = try await client.movie(imdbID: "tt0078748")
        #expect([movie.title, movie.posterURL?.absoluteString] == ["Alien", "offline://catalogue/posters/tt0078748.jpg"])
    }

    /// A program copied elsewhere without its resource bundle finds no catalogue (and does not
    /// stop, as SwiftPM's `Bundle.module` would).
    @Test func aProgramWithoutItsResourceBundleFindsNoCatalogue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-bare-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(Catalogue.defaultFolder(environment: [:], executable: folder.appendingPathComponent("program")) == nil)
    }

    /// An installed `movies` finds `<bin>/../share/movies` first, also through a symbolic link,
    /// and `MOVIES_CATALOGUE` wins over everything.
    @Test func defaultFolderIsFoundBesideTheInstalledExecutable() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let share = prefix.appendingPathComponent("share/movies")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: share.appendingPathComponent("catalogue.json"))
        let binary = prefix.appendingPathComponent("bin/movies")
        #expect(Catalogue.defaultFolder(environment: [:], executable: binary)?.standardizedFileURL.path
                == share.standardizedFileURL.path)

        let elsewhere = prefix.appendingPathComponent("links")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data().write(to: binary)
        let link = elsewhere.appendingPathComponent("movies")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: binary)
        #expect(Catalogue.defaultFolder(environment: [:], executable: link)?.resolvingSymlinksInPath().path
                == share.resolvingSymlinksInPath().path)

        let custom = Catalogue.defaultFolder(environment: ["MOVIES_CATALOGUE": catalogueFolder.path], executable: binary)
        #expect(custom?.path == catalogueFolder.path)
    }
}
