import Foundation
import OMDbKit
import Testing
@testable import MoviesCLI

@Suite struct CommandTests {
    @Test(arguments: [
        ("alien", Command.search("alien")),
        ("  the toxic avenger  ", .search("the toxic avenger")),
        ("Star Trek: Picard", .search("Star Trek: Picard")),
        ("search more", .search("more")),
        ("search show me the money", .search("show me the money")),
        ("SEARCH  help", .search("help")),
        ("more", .more),
        ("MORE", .more),
        (" more ", .more),
        ("show 3", .show(3)),
        ("Show 12", .show(12)),
        ("posters ~/p", .posters("~/p")),
        ("posters \"a b\"", .posters("a b")),
        ("posters 'a b'", .posters("a b")),
        ("posters off", .posters(nil)),
        ("posters OFF", .posters(nil)),
        ("posters none", .posters(nil)),
        ("posters", .postersStatus),
        ("type series", .type(.series)),
        ("type Movie", .type(.movie)),
        ("type episode", .type(.episode)),
        ("type any", .type(nil)),
        ("year 1999", .year(1999)),
        ("year any", .year(nil)),
        ("plot full", .plot(.full)),
        ("plot short", .plot(.short)),
        ("help", .help),
        ("?", .help),
        ("quit", .quit),
        ("exit", .quit),
        ("EXIT", .quit),
        ("", .nothing),
        ("     ", .nothing),
        ("\t \n", .nothing),
        ("moreover", .search("moreover")),
        ("/", .search("/")),
    ])
    func lineIsParsedAs(line: String, command: Command) {
        #expect(Command(parsing: line) == command)
    }

    /// Lines that are commands used wrongly, and words the hint must contain.
    @Test(arguments: [
        ("show", ["show takes a result number"]),
        ("show 0", ["show takes a result number", "search show 0"]),
        ("show -1", ["show takes a result number", "search show -1"]),
        ("show x", ["show takes a result number", "search show x"]),
        ("show me the money", ["show takes a result number", "search show me the money"]),
        ("more please", ["more takes nothing", "search more please"]),
        ("type x", ["movie, series, episode or any", "\"x\"", "search type x"]),
        ("year 99", ["year such as 1984", "\"99\"", "search year 99"]),
        ("year 1492", ["\"1492\"", "search year 1492"]),
        ("plot long", ["short or full", "\"long\"", "search plot long"]),
        ("exit now", ["exit takes nothing", "search exit now"]),
        ("quit it", ["quit takes nothing", "search quit it"]),
        ("help me", ["help takes nothing", "search help me"]),
        ("search", ["search needs text"]),
        ("/foo", ["unknown command", "\"/foo\"", "help"]),
        (":q", ["unknown command", "\":q\""]),
        ("/quit now", ["unknown command", "\"/quit now\""]),
    ])
    func misusedCommandIsInvalidWithAHint(line: String, mentions: [String]) throws {
        guard case .invalid(let hint) = Command(parsing: line) else {
            Issue.record("\"\(line)\" parsed as \(Command(parsing: line)), not .invalid")
            return
        }
        for word in mentions {
            #expect(hint.contains(word), "hint \"\(hint)\" should mention \(word)")
        }
    }

    @Test func showMeTheMoneyHintSaysExactlyHowToSearchForIt() {
        #expect(Command(parsing: "show me the money")
            == .invalid(hint: "show takes a result number, such as show 3; to search for that text, type: search show me the money"))
    }

    @Test func helpTextNamesEveryCommandWord() {
        for word in Command.words {
            #expect(Command.helpText.contains(word), "help does not mention \(word)")
        }
    }
}
