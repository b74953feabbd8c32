import Foundation
@testable import OMDbKit
import Testing
@testable import MoviesCLI
import TestSupport

/// One output model (issue 23): `search --json`, `show --json`, `save .json` write the same
/// ``RecordOutput`` (same names, numbers as numbers, N/A as null), `episodes --json` its
/// ``EpisodeOutput``, and the table of fields in docs/scripting.md names exactly those.
@MainActor
@Suite struct OutputModelTests {
    static let stub = StubTransport(
        searchRows: [["Title": "The Toxic Avenger", "Year": "1984", "imdbID": "tt0090190", "Type": "movie", "Poster": "N/A"]],
        records: ["tt0090190": ["imdbID": "tt0090190", "Title": "The Toxic Avenger", "Year": "1984", "Type": "movie",
                                "Runtime": "82 min", "imdbRating": "6.2", "imdbVotes": "19,306", "Actors": "Mitch Cohen",
                                "Metascore": "N/A", "Plot": "A janitor."]])

    @Test func searchShowAndSaveWriteTheSameRecord() async throws {
        let folder = try makeTemporaryFolder()
        defer { removeFolder(folder) }
        let row = try #require(await updates(Self.stub.client(), for: [SearchItem(imdbID: "tt0090190", title: "The Toxic Avenger",
                                                                                 year: ReleaseYear("1984"), type: .movie, posterURL: nil)]).first)
        let decoder = JSONDecoder()
        let searched = try decoder.decode(RecordOutput.self, from: Data(jsonLine(row, page: 1).utf8))
        let shown = try decoder.decode(RecordOutput.self, from: Data(LineFormat.json(fields: nil).line(JSONPresenter.output(row)).utf8))

        let capture = Capture()
        let session = Session(client: Self.stub.client(), settings: Settings(), console: capture.console(),
                              presenter: TextPresenter(console: capture.console(), currentDirectory: folder), currentDirectory: folder)
        await session.handle(.search("toxic"))
        await session.handle(.save("out.json", force: false))
        let saved = try decoder.decode([RecordOutput].self, from: Data(contentsOf: folder.appendingPathComponent("out.json")))

        #expect(saved == [searched])
        var unplaced = searched
        (unplaced.page, unplaced.rank) = (nil, nil)
        #expect(shown == unplaced)
        #expect(searched.runtimeMinutes == 82 && searched.imdbRating == 6.2 && searched.imdbVotes == 19_306)
        #expect(searched.actors == "Mitch Cohen" && searched.metascore == nil && searched.page == 1 && searched.rank == 1)
        // Null, not left out: every field is in every line.
        let object = try #require(JSONSerialization.jsonObject(with: Data(jsonLine(row, page: 1).utf8)) as? [String: Any])
        #expect(object["metascore"] is NSNull)
    }

    /// The outputs write the record's typed values: dates as ISO 8601, lists joined again, a box
    /// office in another currency than US dollars as null, an address that is not one as null.
    @Test func outputsWriteTheRecordsTypedValues() async throws {
        let stub = StubTransport(records: ["tt0000001": ["Title": "A", "imdbID": "tt0000001", "Released": "4 Jul 1996", "DVD": "N/A",
                                                         "Genre": "Action,Comedy ", "BoxOffice": "€1,500", "Website": "not a site",
                                                         "imdbVotes": "1,234", "Runtime": "2 h 1 min"]])
        let movie = try await stub.client().movie(imdbID: "tt0000001")
        let output = RecordOutput(item: SearchItem(movie), movie: movie)
        #expect([output.released, output.dvd, output.genre, output.website] == ["1996-07-04", nil, "Action, Comedy", nil])
        #expect([output.boxOffice, output.imdbVotes, output.runtimeMinutes] == [nil, 1_234, 121])
    }

    @Test func episodeRatingsAreNumbers() throws {
        let season = Season(seriesID: "tt0098936", seriesTitle: "Twin Peaks", number: 1, totalSeasons: 3, episodes: [
            Episode(imdbID: "tt0098937", title: "Pilot", number: 0, released: CalendarDate(year: 1990, month: 4, day: 8), imdbRating: 9, raw: [:]),
            Episode(imdbID: "tt0098938", title: "Special", number: nil, released: nil, imdbRating: nil, raw: ["Episode": "x", "imdbRating": "N/A"]),
        ])
        let lines = season.episodes.map { OutputJSON.line(EpisodeOutput($0, in: season)) }
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect((objects[0]["imdbRating"] as? NSNumber)?.doubleValue == 9.0)
        #expect(!(objects[0]["imdbRating"] is String))
        #expect(objects[0]["episode"] as? Int == 0)
        #expect(objects[1]["imdbRating"] is NSNull && objects[1]["episode"] is NSNull)
        #expect(try JSONDecoder().decode(EpisodeOutput.self, from: Data(lines[0].utf8)) == EpisodeOutput(season.episodes[0], in: season))
    }

    /// The "Output fields" tables of docs/scripting.md name every field the outputs write, and no other.
    @Test func scriptingDocumentsEveryField() throws {
        let page = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/scripting.md"), encoding: .utf8)
        func documented(after marker: String) throws -> [String] {
            let start = try #require(page.range(of: marker), "docs/scripting.md has no \(marker)")
            let table = page[start.upperBound...].split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
            return table.dropFirst(2).compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
        }
        #expect(try documented(after: "<!-- fields: RecordOutput -->") == RecordOutput.CodingKeys.allCases.map(\.rawValue))
        #expect(try documented(after: "<!-- fields: EpisodeOutput -->") == ["seriesID", "series", "season", "episode", "imdbID", "title", "released", "imdbRating"])
    }
}
