import Foundation
@testable import OMDbKit
import Files
import Testing
import TestSupport

@Suite struct DiskCacheTests {
    static let page = URL(string: "http://127.0.0.1:9/?s=alien&page=1&apikey=secret-key-42")!
    static let answer = HTTPResponse(statusCode: 200, body: Data(#"{"Search":[],"totalResults":"0","Response":"True"}"#.utf8),
                                     contentType: "application/json", headers: ["Cache-Control": "public, max-age=86400"])
    static let notFound = HTTPResponse(statusCode: 200, body: Data(#"{"Response":"False","Error":"Movie not found!"}"#.utf8))

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func sha256MatchesTheStandardVectors(text: String, digest: String) {
        #expect(SHA256.hex(text) == digest)
    }

    @Test func theKeyIsTheRequestWithoutTheAPIKeyInOneOrder() {
        let a = DiskCache.key(for: URL(string: "http://127.0.0.1:9/?s=alien&page=1&apikey=one")!)
        let b = DiskCache.key(for: URL(string: "http://127.0.0.1:9/?apikey=two&page=1&s=alien")!)
        #expect(a == b)
        #expect(!a.contains("apikey") && !a.contains("one"))
        #expect(a != DiskCache.key(for: URL(string: "http://127.0.0.1:9/?s=alien&page=2&apikey=one")!))
        #expect(a != DiskCache.key(for: URL(string: "http://127.0.0.1:10/?s=alien&page=1&apikey=one")!))
    }

    @Test(arguments: [
        (200, #"{"Response":"True"}"#, "public, max-age=86400", nil, 86_400.0),
        (200, #"{"Response":"True"}"#, "public, max-age=600", nil, 600),
        (200, #"{"Response":"True"}"#, nil, nil, 86_400),
        (200, #"{"Response":"True"}"#, "public, max-age=86400", 120, 120),
        (200, #"{"Response":"True"}"#, "no-store", nil, nil),
        (200, #"{"Response":"False","Error":"Movie not found!"}"#, "public, max-age=86400", nil, 3_600),
        (200, #"{"Response":"False","Error":"Movie not found!"}"#, nil, 60, 60),
        (200, #"{"Response":"False","Error":"Too many results."}"#, nil, nil, nil),
        (200, #"{"Response":"False","Error":"Error getting data."}"#, nil, nil, nil),
        (401, #"{"Response":"False","Error":"Invalid API key!"}"#, "public, max-age=86400", nil, nil),
        (401, #"{"Response":"False","Error":"Request limit reached!"}"#, nil, nil, nil),
        (503, #"{"Response":"True"}"#, nil, nil, nil),
        (200, "<html>blocked</html>", nil, nil, nil),
    ] as [(Int, String, String?, Double?, Double?)])
    func keepsAnswersForTheirMaxAgeNotFoundAnHourAndOtherErrorsNever(status: Int, body: String, cacheControl: String?,
                                                                      override: Double?, expected: Double?) {
        let response = HTTPResponse(statusCode: status, body: Data(body.utf8), headers: cacheControl.map { ["Cache-Control": $0] } ?? [:])
        #expect(DiskCache.lifetime(of: response, override: override) == expected)
    }

    @Test func anAnswerIsServedUntilItExpires() async {
        await withTemporaryFolder { folder in
            let clock = TestClock()
            let cache = DiskCache(folder: folder, now: clock.now)
            cache.store(Self.answer, for: Self.page); cache.waitForWrites()
            let hit = cache.kept(for: URL(string: "http://127.0.0.1:9/?page=1&s=alien&apikey=another")!)?.response
            #expect(hit?.body == Self.answer.body)
            #expect(hit?.contentType == "application/json")
            clock.advance(86_399)
            #expect(cache.kept(for: Self.page)?.response != nil)
            clock.advance(2)
            #expect(cache.kept(for: Self.page)?.response == nil)
            #expect(cache.hits == 2)
        }
    }

    @Test func notFoundIsKeptForAnHour() async {
        await withTemporaryFolder { folder in
            let clock = TestClock()
            let cache = DiskCache(folder: folder, now: clock.now)
            cache.store(Self.notFound, for: Self.page); cache.waitForWrites()
            clock.advance(3_590)
            #expect(cache.kept(for: Self.page)?.response.body == Self.notFound.body)
            clock.advance(20)
            #expect(cache.kept(for: Self.page)?.response == nil)
        }
    }

    @Test func theKeyNeverReachesTheDisk() async throws {
        try await withTemporaryFolder { folder in
            let cache = DiskCache(folder: folder)
            cache.store(Self.answer, for: Self.page); cache.waitForWrites()
            for name in files(in: folder) {
                #expect(!name.contains("secret-key-42"))
                let text = String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
                #expect(!text.contains("secret-key-42"))
            }
        }
    }

    @Test(arguments: ["garbage", "truncated", "empty", "other key", "folder"])
    func aDamagedEntryIsAMissAndIsReplaced(damage: String) async throws {
        try await withTemporaryFolder { folder in
            let cache = DiskCache(folder: folder)
            cache.store(Self.answer, for: Self.page); cache.waitForWrites()
            let file = cache.file(forKey: DiskCache.key(for: Self.page))
            let whole = try Data(contentsOf: file)
            switch damage {
            case "garbage": try Data("movies-cache 1\n{not json\n".utf8).write(to: file)
            case "truncated": try whole.prefix(whole.count - 5).write(to: file)
            case "empty": try Data().write(to: file)
            case "other key":
                let other = CacheEntry(key: "http://elsewhere/?s=x", expires: .distantFuture, status: 200, contentType: nil, body: Data("{}".utf8))
                try other.encoded().write(to: file)
            default:
                try FileManager.default.removeItem(at: file)
                try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            }
            #expect(cache.kept(for: Self.page)?.response == nil)
            if damage == "folder" { try FileManager.default.removeItem(at: file) }
            cache.store(Self.answer, for: Self.page); cache.waitForWrites()
            #expect(cache.kept(for: Self.page)?.response.body == Self.answer.body)
        }
    }

    /// Many writers and readers on one entry at once: once it exists, every read is one whole answer.
    @Test func concurrentWritersNeverLeaveAPartialEntry() async {
        await withTemporaryFolder { folder in
            let bodies = (0..<8).map { n in Data(#"{"Response":"True","n":"\#(n)","pad":"\#(String(repeating: "x", count: 3_000 * (n + 1)))"}"#.utf8) }
            let writers = (0..<4).map { _ in DiskCache(folder: folder) }
            let reader = DiskCache(folder: folder)
            reader.store(HTTPResponse(statusCode: 200, body: bodies[0]), for: Self.page); reader.waitForWrites()
            let reads = await withTaskGroup(of: [Data?].self) { group in
                for round in 0..<40 {
                    group.addTask {
                        let body = bodies[round % bodies.count]
                        let writer = writers[round % writers.count]
                        writer.store(HTTPResponse(statusCode: 200, body: body), for: Self.page)
                        writer.waitForWrites()
                        return []
                    }
                    group.addTask { [reader.kept(for: Self.page)?.response.body] }
                }
                var all: [Data?] = []
                for await batch in group { all += batch }
                return all
            }
            #expect(reads.count == 40)
            for read in reads { #expect(read.map(bodies.contains) == true, "a read found no whole entry") }
            #expect(reader.kept(for: Self.page).map { bodies.contains($0.response.body) } == true)
            #expect(files(in: folder).count == 1, "temporary files were left: \(files(in: folder))")
        }
    }

    @Test func theOldestEntriesGoWhenTheFolderPassesItsBound() async {
        await withTemporaryFolder { folder in
            let clock = TestClock()
            let body = Data((#"{"Response":"True","pad":""# + String(repeating: "y", count: 900) + #""}"#).utf8)
            let entrySize = CacheEntry(key: DiskCache.key(for: Self.url(0)), expires: Date(), status: 200, contentType: nil, body: body).encoded().count
            let cache = DiskCache(folder: folder, maxBytes: entrySize * 5 + entrySize / 2, now: clock.now)
            for n in 0..<12 {
                cache.store(HTTPResponse(statusCode: 200, body: body), for: Self.url(n)); cache.waitForWrites()
                clock.advance(1)
                #expect(cache.summary().bytes <= cache.maxBytes)
            }
            let kept = (0..<12).filter { cache.kept(for: Self.url($0))?.response != nil }
            #expect(kept.count >= 3 && kept.count <= 5)
            #expect(kept == Array((12 - kept.count)..<12), "the newest should stay: \(kept)")
        }
    }

    @Test func clearEmptiesTheFolderAndSaysHowMuch() async {
        await withTemporaryFolder { folder in
            let cache = DiskCache(folder: folder)
            for n in 0..<3 { cache.store(Self.answer, for: Self.url(n)); cache.waitForWrites() }
            let before = cache.summary()
            #expect(before.entries == 3 && before.bytes > 0)
            #expect(cache.clear() == before)
            #expect(cache.summary() == DiskCache.Summary(entries: 0, bytes: 0))
            #expect(cache.kept(for: Self.url(0))?.response == nil)
        }
    }

    @Test(arguments: [
        (["XDG_CACHE_HOME": "/x/cache", "HOME": "/h"], "/x/cache/movies", "/h/.local/state/movies"),
        (["XDG_CACHE_HOME": "relative", "XDG_STATE_HOME": "/s", "HOME": "/h"], "/h/.cache/movies", "/s/movies"),
    ])
    func foldersFollowXDG(environment: [String: String], cache: String, state: String) {
        #expect(XDGFolder.cache.url(environment: environment).path == cache)
        #expect(XDGFolder.state.url(environment: environment).path == state)
    }

    static func url(_ n: Int) -> URL { URL(string: "http://127.0.0.1:9/?i=tt00000\(String(format: "%02d", n))&plot=short&apikey=k")! }
}


/// Entries planted in the folder: no bigger than an answer, no older than ten years.
@Suite struct DiskCachePlantedEntryTests {
    static let page = DiskCacheTests.page

    /// A 4 GB sparse entry took the process to 8.4 GB resident and 31 s.
    @Test func aHugeEntryIsRefusedFromItsSizeUnread() async {
        await withTemporaryFolder { folder in
            let cache = DiskCache(folder: folder)
            let file = cache.file(forKey: DiskCache.key(for: Self.page))
            #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
            #expect(truncate(file.path, 4 << 30) == 0)
            let before = peakResidentBytes()
            #expect(cache.kept(for: Self.page)?.response == nil)
            // Unread: reading it would have raised the process's peak by gigabytes (8.4 GB before).
            #expect(peakResidentBytes() - before < 256 << 20)
        }
    }

    /// A whole, intact 20 MB entry was served, though answers from the network stop at 4 MB.
    @Test func anEntryLargerThanAnyAnswerIsAMiss() async throws {
        try await withTemporaryFolder { folder in
            let cache = DiskCache(folder: folder, maxBodyBytes: 1_000)
            let key = DiskCache.key(for: Self.page)
            let body = Data(#"{"Response":"True","Search":[],"pad":""#.utf8) + Data(repeating: UInt8(ascii: "x"), count: 2_000) + Data(#""}"#.utf8)
            try CacheEntry(key: key, expires: Date().addingTimeInterval(3_600), status: 200, contentType: nil, body: body).encoded()
                .write(to: cache.file(forKey: key))
            #expect(cache.kept(for: Self.page)?.response == nil)
            let small = Data(#"{"Response":"True","Search":[]}"#.utf8)
            try CacheEntry(key: key, expires: Date().addingTimeInterval(3_600), status: 200, contentType: nil, body: small).encoded()
                .write(to: cache.file(forKey: key))
            #expect(cache.kept(for: Self.page)?.response.body == small)
            // Nor is one kept.
            cache.store(HTTPResponse(statusCode: 200, body: body), for: Self.page); cache.waitForWrites()
            #expect(cache.kept(for: Self.page)?.response.body == small)
        }
    }

    @Test(arguments: ["max-age=9223372036854775807", "max-age=99999999999999999999999", "max-age=\"9223372036854775807\""])
    func aHugeMaxAgeIsClampedToTenYears(header: String) {
        let response = HTTPResponse(statusCode: 200, body: DiskCacheTests.answer.body, headers: ["Cache-Control": header])
        #expect(DiskCache.lifetime(of: response, override: nil) == DiskCache.maximumLifetime)
        #expect(DiskCache(folder: URL(fileURLWithPath: "/nonexistent"), lifetime: .greatestFiniteMagnitude).lifetime == DiskCache.maximumLifetime)
    }

    @Test func anEntryClaimingToLivePastTenYearsIsAMiss() async throws {
        try await withTemporaryFolder { folder in
            let cache = DiskCache(folder: folder)
            let key = DiskCache.key(for: Self.page)
            let body = DiskCacheTests.answer.body
            try CacheEntry(key: key, expires: Date(timeIntervalSince1970: 9.2e18), status: 200, contentType: nil, body: body).encoded()
                .write(to: cache.file(forKey: key))
            #expect(cache.kept(for: Self.page)?.response == nil)
        }
    }

    /// A cache folder made by someone else with mode 0777 was used silently (as root here: chown).
    @Test(.enabled(if: geteuid() == 0)) func aFolderOthersOwnAndCanWriteInIsNotUsed() async throws {
        try await withTemporaryFolder { folder in
            let shared = folder.appendingPathComponent("movies")
            try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
            #expect(chmod(shared.path, 0o777) == 0 && chown(shared.path, 65_534, 65_534) == 0)
            let cache = DiskCache(folder: shared)
            cache.store(DiskCacheTests.answer, for: Self.page); cache.waitForWrites()
            #expect(files(in: shared).isEmpty)
            let key = DiskCache.key(for: Self.page)
            try CacheEntry(key: key, expires: Date().addingTimeInterval(3_600), status: 200, contentType: nil, body: DiskCacheTests.answer.body)
                .encoded().write(to: cache.file(forKey: key))
            #expect(cache.kept(for: Self.page)?.response == nil)
        }
    }

    /// Issue 21, finding 3: a folder someone else owns (kept with `sudo -E`), even one only they
    /// can write in, answered root's searches from a planted entry; so did their entry in ours.
    @Test func anEntryOrAFolderSomeoneElseOwnsAnswersNothing() async throws {
        guard let stranger = OtherUser.uid() else { return }
        try await withTemporaryFolder { folder in
            let theirs = folder.appendingPathComponent("movies")
            try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: false)
            let cache = DiskCache(folder: theirs)
            let key = DiskCache.key(for: Self.page)
            try CacheEntry(key: key, expires: Date().addingTimeInterval(3_600), status: 200, contentType: nil, body: DiskCacheTests.answer.body)
                .encoded().write(to: cache.file(forKey: key))
            #expect(cache.kept(for: Self.page)?.response.body == DiskCacheTests.answer.body)
            OtherUser.give(theirs, to: stranger)
            #expect(cache.kept(for: Self.page)?.response == nil)
            #expect(AtomicFile.folderProblem(theirs)?.reason == "it belongs to someone else (user \(stranger))")
            // Our folder again, their entry in it.
            OtherUser.give(theirs, to: geteuid())
            OtherUser.give(cache.file(forKey: key), to: stranger)
            #expect(cache.kept(for: Self.page)?.response == nil)
        }
    }

    /// Issue 21, finding 5: our own cache folder that others can write in is tightened before use.
    @Test func ourFolderOpenToOthersIsTightened() async throws {
        try await withTemporaryFolder { folder in
            let ours = folder.appendingPathComponent("movies")
            try FileManager.default.createDirectory(at: ours, withIntermediateDirectories: false)
            #expect(chmod(ours.path, 0o777) == 0)
            let cache = DiskCache(folder: ours)
            cache.store(DiskCacheTests.answer, for: Self.page); cache.waitForWrites()
            #expect(try FileManager.default.attributesOfItem(atPath: ours.path)[.posixPermissions] as? Int == 0o700)
            #expect(cache.kept(for: Self.page)?.response.body == DiskCacheTests.answer.body)
        }
    }

    /// Issue 21: `clear` removes through the folder it opened, so a cache folder swapped for a
    /// symlink between listing and removing removes nothing in the folder it now points to.
    @Test func clearRemovesNothingElsewhereWhenTheFolderIsSwappedForASymlink() async throws {
        try await withTemporaryFolder { root in
            let folder = root.appendingPathComponent("cache")
            let cache = DiskCache(folder: folder)
            cache.store(DiskCacheTests.answer, for: DiskCacheTests.page); cache.waitForWrites()
            let name = cache.file(forKey: DiskCache.key(for: DiskCacheTests.page)).lastPathComponent
            let elsewhere = root.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
            try Data("not the cache's".utf8).write(to: elsewhere.appendingPathComponent(name))
            let moved = root.appendingPathComponent("moved")
            let removed = DiskCache.$afterListing.withValue({
                _ = rename(folder.path, moved.path)
                _ = symlink(elsewhere.path, folder.path)
            }) { cache.clear() }
            #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent(name).path))
            #expect(!FileManager.default.fileExists(atPath: moved.appendingPathComponent(name).path))
            #expect(removed.entries == 1)
        }
    }
}
