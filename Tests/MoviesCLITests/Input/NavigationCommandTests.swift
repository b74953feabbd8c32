import Foundation
import OMDbKit
import Testing
@testable import MoviesCLI

/// Parsing of what issue 24 added: "did you mean", row lists, and the page commands.
@Suite struct NavigationCommandTests {
    @Test(arguments: [
        ("moer", "more"), ("mroe", "more"), ("shwo 2", "show"), ("qiut", "quit"), ("hlep", "help"),
        ("opne 1-3", "open"), ("epsiodes 2", "episodes"), ("nxet", "next"), ("psoter 2", "poster"), ("quot", "quota"),
        // Commands that take arguments, followed by what they take.
        ("postr 1 shots", "poster"), ("svae x.csv", "save"), ("svae \"my movies.md\" --force", "save"), ("tpye movie", "type"),
        ("yaer 1999", "year"), ("plto full", "plot"), ("cahce clear", "cache"), ("serach alien", "search"), ("hlep save", "help"),
        ("catalgoue 2", "catalogue"), ("postesr shots/", "posters"), ("pgae 3", "page"), ("epsiodes 1 2", "episodes"),
    ])
    func aTypoOfACommandRunsNothingAndSaysWhichItResembles(line: String, command: String) throws {
        guard case .invalid(let hint) = Command(parsing: line) else {
            Issue.record("\"\(line)\" parsed as \(Command(parsing: line)), not a suggestion")
            return
        }
        #expect(hint == "\"\(line)\" is not a command: did you mean \(command)? To search for it, type: search \(line)")
    }

    /// Titles that are words near a command are still searched for: too short to be a typo,
    /// more than one slip of the hand from every command (a letter whose key is not beside the
    /// command's is no slip: `prey` is not `prev`), or followed by what that command does not take.
    @Test(arguments: ["heat", "up", "her", "alien", "seven", "mother", "shown up", "quiz show", "tt12", "saw", "seven 2",
                      "prey", "quiz", "tape", "lore", "hello", "opera 2", "bear 2019", "fear 2011", "starch wars",
                      "seance on a wet afternoon", "pastor 2 blue", "postman pat", "sage advice", "plots 2 tell", "shot 2 kill"])
    func aTitleNearACommandIsStillSearchedFor(line: String) {
        #expect(Command(parsing: line) == .search(line))
    }

    /// A word of a million letters (pasted) is searched for at once: it is no typo of a command, and
    /// its distance to each was a table of a million rows (minutes, gigabytes) before it was known.
    @Test(.timeLimit(.minutes(1))) func aHugeWordIsSearchedForWithoutMeasuringItsDistanceToTheCommands() {
        let word = String(repeating: "m", count: 1_000_000)
        #expect(Command(parsing: word) == .search(word))
    }

    @Test func distanceCountsASwapOfNeighboursAsOneEdit() {
        #expect(DidYouMean.distance("moer", "more") == 1)
        #expect(DidYouMean.distance("heat", "help") == 2)
        #expect(DidYouMean.distance("", "abc") == 3)
        #expect(DidYouMean.closest(to: "josn", among: ["json", "jobs"]) == "json")
        #expect(DidYouMean.closest(to: "heat", among: ["help"]) == nil)
        // A slip counts a key beside the right one as one edit, any other as two.
        #expect(DidYouMean.distance("prey", "prev", slips: true) == 2 && DidYouMean.distance("mode", "more", slips: true) == 1)
        #expect([("s", "w"), ("s", "e"), ("x", "d"), ("l", "p"), ("q", "w")].allSatisfy { DidYouMean.areNeighbours(Character($0), Character($1)) })
        #expect(![("q", "p"), ("a", "o"), ("z", "t"), ("x", "w"), ("1", "2")].contains { DidYouMean.areNeighbours(Character($0), Character($1)) })
    }

    @Test(arguments: [
        ("2", [2]), ("1-3", [1, 2, 3]), ("1,3-4", [1, 3, 4]), ("2 5", [2, 5]), ("5,2,5", [5, 2]), ("3-3", [3]),
        ("1, 4", [1, 4]),
    ])
    func rowListsReadAsTyped(text: String, numbers: [Int]) {
        #expect(RowList(text)?.numbers == numbers)
    }

    @Test(arguments: ["", "0", "-1", "3-1", "1-", "x", "1-x", "1-2-3", "1;2", "１", "1-100000000", "1-600,601-1200"])
    func whatIsNotARowListIsRefused(text: String) {
        #expect(RowList(text) == nil)
    }

    @Test(arguments: [
        ("next", Command.more), ("NEXT", .more), ("prev", .previousPage), ("previous", .previousPage), ("first", .page(1)),
        ("page 3", .page(3)), ("show 1-3", .show(RowList([1, 2, 3]))), ("show 2 5", .show(RowList([2, 5]))),
        ("open 1,3", .open(RowList([1, 3]))), ("episodes 1,3 2", .episodes(RowList([1, 3]), season: 2)),
        ("episodes 3 2", .episodes(3, season: 2)), ("episodes 1-2", .episodes(RowList([1, 2]), season: nil)),
        ("poster 2", .poster(2, folder: nil)), ("poster 1-3 shots", .poster(RowList([1, 2, 3]), folder: "shots")),
        ("poster 2 5 \"my shots\"", .poster(RowList([2, 5]), folder: "my shots")),
        ("catalogue", .catalogue(page: 1)), ("catalog 3", .catalogue(page: 3)),
    ])
    func pageAndListCommandsAreParsed(line: String, command: Command) {
        #expect(Command(parsing: line) == command)
    }

    /// ddgr's keys: `n` and `p` alone, `o LIST`, a number alone (a row's, or a title: the session decides).
    @Test(arguments: [
        ("n", Command.more), ("N", .more), ("p", .previousPage), ("o 1-3", .open(RowList([1, 2, 3]))), ("o 2 5", .open(RowList([2, 5]))),
        ("3", .number(3)), (" 1917 ", .number(1917)), ("search 3", .search("3")),
        // Followed by other words, a key begins a title; digits with a leading zero are one too.
        ("O Brother, Where Art Thou?", .search("O Brother, Where Art Thou?")), ("n sync", .search("n sync")), ("p 2", .search("p 2")),
        ("007", .search("007")), ("99999999999999999999", .search("99999999999999999999")),
    ])
    func ddgrsKeysAreParsed(line: String, command: Command) {
        #expect(Command(parsing: line) == command)
    }

    @Test(arguments: [("page", "page takes a page number"), ("page 0", "page takes a page number"), ("prev 2", "prev takes nothing"),
                      ("poster", "poster takes a result number"), ("poster shots", "poster takes a result number"),
                      ("catalogue x", "catalogue takes a page number"), ("o", "o takes a result number"),
                      ("o 0", "o takes result numbers from 1"), ("o 3-1", "o takes result numbers from 1")])
    func misusedPageAndListCommandsSayHowToUseThem(line: String, start: String) throws {
        guard case .invalid(let hint) = Command(parsing: line) else {
            Issue.record("\"\(line)\" parsed as \(Command(parsing: line))")
            return
        }
        #expect(hint.hasPrefix(start), "\(hint)")
    }
}
