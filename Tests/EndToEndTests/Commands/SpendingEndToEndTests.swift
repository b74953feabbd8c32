import FakeOMDb
import Foundation
import OMDbKit
import Testing
import TestSupport

/// The disk cache, the daily count and OMDb's "no" answers, through the built `movies` against the
/// fake OMDb server on 127.0.0.1, each run with its own XDG folders.
@Suite struct SpendingEndToEndTests {
    /// The live-key environment, with the cache and state folders inside `folder`.
    static func environment(_ folder: URL, _ extra: [String: String] = [:]) -> [String: String] {
        ["OMDB_API_KEY": FakeOMDbServer.validKey, "XDG_CACHE_HOME": folder.appendingPathComponent("xdg-cache").path,
         "XDG_STATE_HOME": folder.appendingPathComponent("xdg-state").path].merging(extra) { _, new in new }
    }

    static func run(_ arguments: [String], server: FakeOMDbServer, in folder: URL, lines: [String] = [],
                    _ extra: [String: String] = [:]) async throws -> MoviesProcess.Outcome {
        try await MoviesProcess.run(arguments + ["--base-url", server.baseURL.absoluteString], lines: lines, directory: folder,
                                    environment: environment(folder, extra))
    }

    @Test func aSearchRepeatedInAnotherProcessCostsNoRequest() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let first = try await Self.run(["search", "toxic"], server: server, in: folder)
            #expect(first.status == 0)
            #expect(server.apiRequests.count == 11)
            let second = try await Self.run(["search", "toxic"], server: server, in: folder)
            #expect(second.status == 0)
            // Rows fill in as records arrive, in any order: the same lines, perhaps not in the same order.
            let firstLines: [Substring] = first.stdout.split(separator: "\n").sorted()   // outside #expect: slow to type-check inside
            let secondLines: [Substring] = second.stdout.split(separator: "\n").sorted()
            #expect(secondLines == firstLines)
            #expect(server.apiRequests.count == 11, "the second process asked again: \(server.apiRequests.map(\.target))")
            let quota = try await Self.run(["quota"], server: server, in: folder)
            #expect(quota.stdout.hasPrefix("requests today: 11 of 1,000 (UTC day)\n"))
            // --no-cache reads nothing from the cache: eleven more.
            _ = try await Self.run(["search", "toxic", "--no-cache"], server: server, in: folder)
            #expect(server.apiRequests.count == 22)
            #expect(try await Self.run(["quota"], server: server, in: folder).stdout.hasPrefix("requests today: 22 of 1,000"))
        }
    }

    @Test func processesRunningAtOnceCountEveryRequest() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let arguments = ["--base-url", server.baseURL.absoluteString, "--no-cache"]
            let runs = try ["toxic", "star wars", "alien"].map { query in
                try MoviesProcess(["search", query, "--pages", "2"] + arguments, directory: folder, environment: Self.environment(folder))
            }
            for run in runs { #expect(await run.finish().status == 0) }
            let quota = try await Self.run(["quota"], server: server, in: folder)
            #expect(quota.stdout.hasPrefix("requests today: \(server.apiRequests.count) of 1,000"), "\(quota.stdout)")
            #expect(server.apiRequests.count > 20)
            // The key is never written in the state folder.
            let state = folder.appendingPathComponent("xdg-state/movies")
            for name in files(in: state) {
                let text = String(decoding: try Data(contentsOf: state.appendingPathComponent(name)), as: UTF8.self)
                #expect(!name.contains(FakeOMDbServer.validKey) && !text.contains(FakeOMDbServer.validKey))
            }
        }
    }

    @Test func cacheShowsAndClearEmptiesTheFolder() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            _ = try await Self.run(["search", "toxic"], server: server, in: folder)
            let shown = try await Self.run(["cache"], server: server, in: folder)
            let cacheFolder = folder.appendingPathComponent("xdg-cache/movies").path
            #expect(shown.stdout.hasPrefix("Cache: 11 answers, "))
            #expect(shown.stdout.contains("in \(cacheFolder)."))
            let cleared = try await Self.run(["cache", "clear"], server: server, in: folder)
            #expect(cleared.stdout.hasPrefix("Cache cleared: 11 answers, "))
            #expect(cleared.stdout.contains(" KB freed"))
            #expect(files(in: URL(fileURLWithPath: cacheFolder)).isEmpty)
            // At the prompt too.
            let prompt = try await Self.run([], server: server, in: folder, lines: ["toxic", "cache", "cache clear", "cache", "quit"])
            #expect(prompt.stdout.contains("Cache: 11 answers"))
            #expect(prompt.stdout.contains("Cache cleared: 11 answers"))
            #expect(prompt.stdout.contains("Cache: 0 answers"))
        }
    }

    @Test func theOfflineCatalogueUsesNoCache() async throws {
        try await withTemporaryFolder { folder in
            let outcome = try await MoviesProcess.run(["search", "toxic", "--offline"], directory: folder, environment: Self.environment(folder))
            #expect(outcome.status == 0)
            #expect(files(in: folder.appendingPathComponent("xdg-cache/movies")).isEmpty)
            #expect(files(in: folder.appendingPathComponent("xdg-state/movies")).isEmpty)
        }
    }

    @Test func helpShowsTheCountAndTheWarningComesOnceADay() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let limit = ["MOVIES_DAILY_LIMIT": "12"]
            let first = try await Self.run(["search", "toxic"], server: server, in: folder, limit)
            #expect(first.stderr.contains("Warning: 90 % of the key's daily limit is reached, requests today: 11 of 12 (UTC day), 1 left"))
            let second = try await Self.run([], server: server, in: folder, lines: ["show 1", "alien", "help", "quit"], limit)
            #expect(!second.stderr.contains("Warning"))
            #expect(second.stdout.contains("requests today: \(server.apiRequests.count) of 12 (UTC day)"))
        }
    }

    @Test func aSpentQuotaSaysWhatStillWorks() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue) { request in
                request.queryItems.contains { $0.name == "s" && $0.value == "alien" }
                    ? .json(#"{"Response":"False","Error":"Request limit reached!"}"#, status: 401) : nil
            }
            defer { server.shutdown() }
            _ = try await Self.run(["search", "toxic"], server: server, in: folder)
            let spent = try await Self.run(["search", "alien"], server: server, in: folder)
            #expect(spent.status == 1)
            #expect(spent.stderr.contains("OMDb's daily request limit for this key is spent (this tool sent 12 of them today, UTC): cached searches and --offline still work"))
            // What is cached still answers, at no cost.
            let cached = try await Self.run(["search", "toxic"], server: server, in: folder)
            #expect(cached.status == 0 && cached.stdout.contains("The Toxic Avenger"))
            #expect(server.apiRequests.count == 12)
        }
    }

    @Test func tooManyResultsShowsTheExactTitleFirst() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await Self.run([], server: server, in: folder, lines: ["up", "show 1", "type series", "it", "quit"])
            #expect(outcome.stdout.contains("  1. Up (2009)  movie  tt1049413"))
            #expect(outcome.stdout.contains("Director: Pete Docter"))
            #expect(outcome.stdout.contains("  1. It (1990)  series  tt0099864"))
            #expect(outcome.stderr.contains("Too many results for \"up\" to list: here is OMDb's match for that exact title. To search further, add a word, a type or a year."))
            let exact = server.apiRequests.filter { $0.queryItems.contains { $0.name == "t" } }
            #expect(exact.map { $0.queryItems.first { $0.name == "type" }?.value } == [nil, "series"])
            // One-shot: a match shown is a success.
            let oneShot = try await Self.run(["search", "9", "--json"], server: server, in: folder)
            #expect(oneShot.status == 0)
            #expect(oneShot.stdout.contains(#""imdbID":"tt0472033""#))
        }
    }

    @Test func notFoundWithPunctuationSearchesOnceWithout() async throws {
        try await withTemporaryFolder { folder in
            // As OMDb may: a query with punctuation finds nothing.
            let server = try FakeOMDbServer(catalogue: catalogue) { request in
                let text = request.queryItems.first { $0.name == "s" }?.value ?? ""
                return text.contains(where: \.isPunctuation) ? .json(#"{"Response":"False","Error":"Movie not found!"}"#) : nil
            }
            defer { server.shutdown() }
            let outcome = try await Self.run(["search", "toxic: avenger!"], server: server, in: folder)
            #expect(outcome.status == 0)
            #expect(outcome.stderr.contains("No results for \"toxic: avenger!\": searching for \"toxic avenger\" instead, without the punctuation (one more request)."))
            #expect(outcome.stdout.contains("Results for \"toxic avenger\""))
            #expect(server.apiRequests.count(where: { $0.queryItems.contains { $0.name == "s" } }) == 2)
        }
    }

    @Test func aRefusedKeyNamesActivationAndTheCDN() async throws {
        try await withTemporaryFolder { folder in
            let server = try FakeOMDbServer(catalogue: catalogue)
            defer { server.shutdown() }
            let outcome = try await Self.run(["search", "alien"], server: server, in: folder, ["OMDB_API_KEY": "not-active-yet"])
            #expect(outcome.status == 1)
            #expect(outcome.stderr.contains("activating from OMDb's e-mail"))
            #expect(outcome.stderr.contains("OMDb's CDN may refuse it for a while"))
            // A refusal is never kept: the next run asks OMDb again.
            _ = try await Self.run(["search", "alien"], server: server, in: folder, ["OMDB_API_KEY": "not-active-yet"])
            #expect(server.apiRequests.count == 2)
        }
    }
}
