import Foundation
import OMDbTestSupport
import Testing
@testable import OMDbKit
import TestSupport

@Suite struct PosterNameTests {
    @Test(arguments: [
        ("Face/Off", "1997", "Face-Off (1997) [tt0119094].jpg"),
        ("../../x", "2000", "x (2000) [tt0119094].jpg"),
        ("CON", "2020", "CON (2020) [tt0119094].jpg"),
        ("Evil\u{1B}[31mRed\u{1B}[0m", "2001", "Evil[31mRed[0m (2001) [tt0119094].jpg"),
        ("Nul\u{0}Byte", "2002", "NulByte (2002) [tt0119094].jpg"),
        ("...And Justice for All", "1979", "And Justice for All (1979) [tt0119094].jpg"),
        (".hidden", "1999", "hidden (1999) [tt0119094].jpg"),
        ("  spaced   out  ", "1999", "spaced out (1999) [tt0119094].jpg"),
        ("Back\\slash", "1999", "Back-slash (1999) [tt0119094].jpg"),
        ("Line\nbreak\tand tab", "1999", "Line break and tab (1999) [tt0119094].jpg"),
        ("", "1999", "Untitled (1999) [tt0119094].jpg"),
        ("/", "1999", "Untitled (1999) [tt0119094].jpg"),
        ("Toxic Crusaders", "1991–1993", "Toxic Crusaders (1991–1993) [tt0119094].jpg"),
        ("Amélie", "2001", "Amélie (2001) [tt0119094].jpg"),
        ("Right\u{202E}gnp.exe", "2001", "Rightgnp.exe (2001) [tt0119094].jpg"),
    ])
    func hostileTitlesBecomeSafeNames(title: Typed, year: String, expected: String) {
        #expect(PosterName.fileName(title: title.text, year: year, imdbID: "tt0119094", format: .jpeg) == expected)
    }

    @Test func longTitlesAreCutToTwoHundredBytesKeepingYearAndID() {
        let name = PosterName.fileName(title: String(repeating: "千", count: 300), year: "2001", imdbID: "tt0245429", format: .webp)
        #expect(name.utf8.count <= 200)
        #expect(name.hasSuffix(" (2001) [tt0245429].webp"))
        #expect(name.hasPrefix("千千"))
        let ascii = PosterName.fileName(title: String(repeating: "a", count: 300), year: nil, imdbID: "tt1234567", format: .png)
        #expect(ascii.utf8.count == 200)
    }

    @Test(arguments: ["Face/Off", "../../x", "\u{0}", "\u{1B}]0;title\u{7}", String(repeating: "é", count: 400), "..", "."].map { Typed($0) })
    func namesNeverEscapeTheFolder(title: Typed) {
        let title = title.text
        let name = PosterName.fileName(title: title, year: "..", imdbID: "../tt1", format: .gif)
        #expect(!name.contains("/"))
        #expect(!name.hasPrefix("."))
        #expect(!name.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(name.utf8.count <= 200)
    }

    /// Each of these trapped before (removing from an empty string): the suffix left no room.
    /// (Title, year, ID), typed: as a bare literal inside `@Test(arguments:)` this took 11 s to type-check.
    static let fieldsOfAnyLength: [(String, String, String)] = [
        ("Alien", "1979", "tt" + String(repeating: "9", count: 300)),
        ("Alien", String(repeating: "1", count: 300), "tt0078748"),
        ("Alien", String(repeating: "年", count: 200), "tt0078748"),
        (String(repeating: "a", count: 300), String(repeating: "1", count: 300), String(repeating: "é", count: 300)),
        ("Alien", "1979", String(repeating: "\u{301}", count: 500)),
        ("Alien", "1979", "\u{0}\u{1}"),
        ("Alien", "1979", String(repeating: "/", count: 300)),
        ("e" + String(repeating: "\u{301}", count: 300), "1979", "tt0078748"),
    ]

    @Test(arguments: fieldsOfAnyLength.map { (fields: (String, String, String)) -> (Typed, Typed, Typed) in
        (Typed(fields.0), Typed(fields.1), Typed(fields.2))
    })
    func anyFieldLengthGivesANameThatFitsAndKeepsTheMarker(title: Typed, year: Typed, imdbID: Typed) {
        let (title, year, imdbID) = (title.text, year.text, imdbID.text)
        let name = PosterName.fileName(title: title, year: year, imdbID: imdbID, format: .jpeg)
        #expect(name.utf8.count <= PosterName.maxBytes)
        #expect(name.hasSuffix(PosterName.marker(for: imdbID) + "jpg"))
        #expect(!name.hasPrefix(".") && !name.contains("/") && !name.contains("\u{0}"))
    }

    @Test func anAbsurdlyLongIDIsHashedStablyAndStaysUnique() {
        let long = "tt" + String(repeating: "1", count: 300)
        let marker = PosterName.marker(for: long)
        #expect(marker == PosterName.marker(for: long))
        #expect(marker != PosterName.marker(for: long + "2"))
        #expect(marker.hasPrefix("[tt111"))
        #expect(marker.utf8.count <= PosterName.maxIDBytes + 3)
        // Real IDs are kept as they are.
        #expect(PosterName.marker(for: "tt0090190") == "[tt0090190].")
    }

    @Test func missingYearIsLeftOut() {
        #expect(PosterName.fileName(title: "Alien", year: nil, imdbID: "tt0078748", format: .png) == "Alien [tt0078748].png")
    }
}

@Suite struct ImageSniffingTests {
    @Test(arguments: [
        (Data([0xFF, 0xD8, 0xFF, 0xDB]), ImageFormat.jpeg),
        (pngBytes, .png),
        (Data("GIF89a....".utf8), .gif),
        (Data("GIF87a....".utf8), .gif),
        (Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
    ])
    func imagesAreToldByTheirBytes(data: Data, format: ImageFormat) {
        #expect(ImageFormat(sniffing: data) == format)
    }

    @Test(arguments: [
        Data("<!DOCTYPE html><html>".utf8), Data(), Data([0xFF, 0xD8]), Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8),
        Data("GIF90a".utf8), Data(#"{"Response":"False"}"#.utf8),
    ])
    func otherBytesAreNotImages(data: Data) {
        #expect(ImageFormat(sniffing: data) == nil)
    }

    @Test func everyCataloguePosterIsARealImageExceptTheBrokenOne() {
        let folder = catalogueFolder.appendingPathComponent("posters")
        let names = files(in: folder)
        let notImages = names.filter { ImageFormat(sniffing: FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) ?? Data()) == nil }
        #expect(names.count > 200)
        #expect(notImages == ["tt0173344.jpg"])
    }
}

@Suite struct PosterStoreTests {
    @Test func savesWithTheExtensionOfTheBytes() async throws {
        try await withTemporaryFolder { folder in
            let store = PosterStore(folder: folder.appendingPathComponent("new/deeper"))
            let file = try await store.save(streaming: HTTPBody(pngBytes), source: "u", title: "Face/Off", year: "1997", imdbID: "tt0119094")
            #expect(file.lastPathComponent == "Face-Off (1997) [tt0119094].png")
            #expect(FileManager.default.contents(atPath: file.path) == pngBytes)
            #expect(await store.existingFile(for: "tt0119094") == file)
            #expect(await store.existingFile(for: "tt0119095") == nil)
        }
    }

    @Test func refusesWhatIsNotAnImageAndWritesNothing() async throws {
        await withTemporaryFolder { folder in
            let store = PosterStore(folder: folder)
            await #expect(throws: OMDbError.posterNotAnImage(url: "u", contentType: "text/html")) {
                try await store.save(streaming: HTTPBody(Data("<html></html>".utf8)), contentType: "text/html", source: "u", title: "T", year: nil, imdbID: "tt1")
            }
            #expect(files(in: folder).isEmpty)
        }
    }

    @Test func refusesBodiesOverTheCap() async throws {
        await withTemporaryFolder { folder in
            let store = PosterStore(folder: folder, maxBytes: 1_000)
            let big = jpegBytes + Data(count: 1_001 - jpegBytes.count)
            await #expect(throws: OMDbError.posterTooLarge(bytes: 1_001, limit: 1_000)) {
                try await store.save(streaming: HTTPBody(big), source: "u", title: "T", year: nil, imdbID: "tt1")
            }
            #expect(files(in: folder).isEmpty)
            // Exactly at the cap is fine.
            _ = try? await store.save(streaming: HTTPBody(big.prefix(1_000)), source: "u", title: "T", year: nil, imdbID: "tt1")
            #expect(files(in: folder) == ["T [tt1].jpg"])
        }
    }

    @Test func defaultCapIsTwentyMegabytes() {
        #expect(PosterStore(folder: URL(fileURLWithPath: "/tmp")).maxBytes == 20_000_000)
    }

    @Test func manyWritesLeaveOnlyFinishedFiles() async throws {
        try await withTemporaryFolder { folder in
            let store = PosterStore(folder: folder)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        _ = try await store.save(streaming: HTTPBody(jpegBytes + Data(repeating: UInt8(index), count: 50_000)), source: "u",
                                                 title: "Film \(index)", year: "2000", imdbID: "tt\(1_000_000 + index)")
                    }
                }
                try await group.waitForAll()
            }
            let names = files(in: folder)
            #expect(names.count == 40)
            #expect(names.allSatisfy { $0.hasSuffix(".jpg") && !$0.hasPrefix(".") })
            let wholeSize: Int = jpegBytes.count + 50_000   // summed outside #expect: slow to type-check inside
            for index in 0..<40 {
                let data = FileManager.default.contents(atPath: folder.appendingPathComponent("Film \(index) (2000) [tt\(1_000_000 + index)].jpg").path)
                #expect(data?.count == wholeSize)
            }
        }
    }

    @Test func failedWriteLeavesNothingBehind() async throws {
        try await withTemporaryFolder { folder in
            // The destination name is taken by a folder: rename(2) fails after the temporary file was written.
            let store = PosterStore(folder: folder)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("T [tt1].png/inside"), withIntermediateDirectories: true)
            await #expect(throws: OMDbError.self) {
                try await store.save(streaming: HTTPBody(pngBytes), source: "u", title: "T", year: nil, imdbID: "tt1")
            }
            #expect(files(in: folder) == ["T [tt1].png"])
        }
    }

    @Test func folderThatIsAFileIsAClearError() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("plain-file")
            try Data("x".utf8).write(to: file)
            let store = PosterStore(folder: file.appendingPathComponent("posters"))
            await #expect {
                try await store.save(streaming: HTTPBody(pngBytes), source: "u", title: "T", year: nil, imdbID: "tt1")
            } throws: { error in
                guard case OMDbError.posterNotWritten(let path, let reason) = error else { return false }
                return path.hasSuffix("plain-file/posters") && !reason.isEmpty
            }
        }
    }

    @Test func leftoversOfAKilledProcessAreSwept() async throws {
        try await withTemporaryFolder { folder in
            try Data("half".utf8).write(to: folder.appendingPathComponent(PosterFile.temporaryPrefix + "x"))
            try Data("keep".utf8).write(to: folder.appendingPathComponent("Mine.txt"))
            await PosterStore(folder: folder).index.sweptLeftovers()
            #expect(files(in: folder) == ["Mine.txt"])
        }
    }
}
