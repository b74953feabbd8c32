import Foundation
import OMDbKit
import Synchronization
import Testing
import TestSupport
@testable import MoviesCLI
@testable import LineEditing

@Suite struct CommandTests {
    @Test(arguments: [
        (Typed("alien"), Command.search("alien")),
        ("  the toxic avenger  ", .search("the toxic avenger")),
        ("Star Trek: Picard", .search("Star Trek: Picard")),
        // Control characters never reach the search: what is searched is what is shown.
        ("mat\u{0}rix", .search("matrix")),
        ("\u{1B}[Dalien\u{1B}[A", .search("[Dalien[A")),
        ("search \u{7}alien", .search("alien")),
        ("\u{1B}", .nothing),
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
        ("help", .help(nil)),
        ("?", .help(nil)),
        ("help save", .help("save")),
        ("quit", .quit),
        ("exit", .quit),
        ("EXIT", .quit),
        ("", .nothing),
        ("     ", .nothing),
        ("\t \n", .nothing),
        ("moreover", .search("moreover")),
        ("/", .search("/")),
    ])
    func lineIsParsedAs(line: Typed, command: Command) {
        #expect(Command(parsing: line.text) == command)
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
        ("year 99", ["year of four digits", "such as 1984", "\"99\"", "search year 99"]),
        ("year 1492", ["\"1492\"", "search year 1492"]),
        ("plot long", ["short or full", "\"long\"", "search plot long"]),
        ("exit now", ["exit takes nothing", "search exit now"]),
        ("quit it", ["quit takes nothing", "search quit it"]),
        ("help me", ["help takes a command word", "search help me"]),
        ("search", ["search needs text"]),
        ("/foo", ["unknown command", "\"/foo\"", "help"]),
        (":q", ["unknown command", "\":q\""]),
        ("/quit now", ["unknown command", "\"/quit now\""]),
        ("posters \"\"", ["posters needs a folder", "posters off"]),
        ("posters ''", ["posters needs a folder"]),
        ("posters \"  \"", ["posters needs a folder"]),
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
            == .invalid(hint: "show takes a result number, such as show 3, or several, such as show 1-3; to search for that text, type: search show me the money"))
    }

    @Test func helpOfEachCommandWordNamesIt() {
        for word in Command.words {
            #expect(PromptHelp.detail(word, width: 200)?.contains(word) == true, "help \(word) does not mention \(word)")
        }
    }
}

/// Ctrl-C and the command it should stop (Prompt and OneShot use these calls in this order).
@Suite struct InterruptsTests {
    /// A command that runs until `end` opens (or it is cancelled, 30 s at most), and reports whether
    /// it was not cancelled.
    static func slowCommand(until end: Latch = Latch()) async -> Bool {
        try? await end.wait(for: "the command's end", timeout: .seconds(30))
        return !Task.isCancelled
    }

    @MainActor @Test func ctrlCAsACommandStartsCancelsIt() async {
        let idleCalls = Mutex(0)
        let interrupts = Interrupts()
        interrupts.whenIdle { idleCalls.withLock { $0 += 1 } }
        let (finished, cancelled) = await interrupts.run {
            interrupts.interrupt()  // lands as the command starts
            return await Self.slowCommand()
        }
        #expect([finished, cancelled] == [false, true], "the command was not cancelled")
        #expect(idleCalls.withLock { $0 } == 0, "the idle message was shown while a command was starting")
    }

    @MainActor @Test func ctrlCWhileRunningCancelsAndWhileIdleCallsWhenIdle() async {
        let idleCalls = Mutex(0)
        let interrupts = Interrupts()
        interrupts.whenIdle { idleCalls.withLock { $0 += 1 } }
        let started = Latch()
        async let running = interrupts.run {
            started.open()
            return await Self.slowCommand()
        }
        try? await started.wait(for: "the command's start", timeout: .seconds(30))
        interrupts.interrupt()
        #expect(await running.value == false)
        #expect(idleCalls.withLock { $0 } == 0)

        interrupts.interrupt()
        #expect(idleCalls.withLock { $0 } == 1)

        // A Ctrl-C taken for an earlier command does not cancel the next one.
        let end = Latch()
        end.open()
        #expect(await interrupts.run { await Self.slowCommand(until: end) }.value == true)
    }
}

/// Wrapping counts terminal columns, not characters, and breaks words longer than a line.
@Suite struct WrapTests {
    @Test func displayWidthCountsWideCharactersTwiceAndMarksNotAtAll() {
        #expect(displayWidth("abc") == 3)
        #expect(displayWidth("日本語") == 6)
        #expect(displayWidth("ｶﾀｶﾅ") == 4)  // halfwidth katakana: one column each
        #expect(displayWidth("ＡＢ") == 4)  // fullwidth Latin
        #expect(displayWidth("한국") == 4)
        #expect(displayWidth("e\u{301}") == 1)
        #expect(displayWidth("🎬") == 2)
        #expect(displayWidth("𠀋") == 2)
    }

    static let japanese = "東京の下町で暮らす若い映画監督は、古い映画館を守るために仲間と一緒に最後の作品を撮ることを決めるが、撮影は思いもよらない方向へ進んでいく。"

    @Test(arguments: [20, 21, 40, 80])
    func japaneseTextStaysWithinTheWidth(width: Int) {
        let indent = "     "
        let lines = wrap(Self.japanese, width: width, indent: indent)
        #expect(lines.count > 1)
        for line in lines {
            // Every character of this text is two columns wide, save the indent.
            let columns = indent.count + 2 * line.dropFirst(indent.count).count
            #expect(columns <= width, "\"\(line)\" is \(columns) columns, more than \(width)")
            #expect(line.hasPrefix(indent))
        }
        #expect(lines.map { $0.dropFirst(indent.count) }.joined() == Self.japanese)
        // Full lines: all but the last hold as many two-column characters as fit.
        for line in lines.dropLast() { #expect(line.dropFirst(indent.count).count == (width - indent.count) / 2) }
    }

    @Test func mixedJapaneseAndLatinWordsWrapByColumns() {
        let text = "映画 監督 director 撮影 camera 東京 Tokyo 下町 downtown 仲間 friends"
        let lines = wrap(text, width: 20, indent: "")
        #expect(lines == ["映画 監督 director", "撮影 camera 東京", "Tokyo 下町 downtown", "仲間 friends"])
    }

    @Test(arguments: [(80, "  "), (80, ""), (40, "    "), (20, "          ")])
    func aWordLongerThanTheLineIsBroken(width: Int, indent: String) {
        let long = String(repeating: "abcdefghij", count: 30)
        let lines = wrap("before " + long + " after", width: width, indent: indent)
        for line in lines {
            #expect(line.count <= width, "\"\(line)\" is \(line.count) columns, more than \(width)")
            #expect(line.hasPrefix(indent))
        }
        let room = width - indent.count
        #expect(lines.first == indent + "before")
        #expect(lines.map { $0.dropFirst(indent.count) }.dropFirst().joined().hasPrefix(long))
        #expect(lines.dropFirst().first?.count == width, "the broken word's lines are full")
        #expect(lines.map { $0.dropFirst(indent.count) }.joined().replacingOccurrences(of: " ", with: "") == "before" + long + "after")
        let beforeAndTheWordsLines: Int = 1 + 300 / room   // reckoned outside #expect: slow to type-check inside
        #expect(lines.count >= beforeAndTheWordsLines)
    }

    @Test func aLongJapaneseWordIsBrokenWithoutSplittingACharacter() {
        let long = String(repeating: "映", count: 300)
        let lines = wrap(long, width: 81, indent: "  ")
        #expect(lines.allSatisfy { $0.count == 2 + 39 || $0 == lines.last })
        #expect(lines.map { $0.dropFirst(2) }.joined() == long)
    }
}

@Suite struct HelpTextTests {
    /// `help` lists every command on one line of its own at 50 columns and more: 21 lines at
    /// most, so that with the line typed, the key's count of the day and the prompt it fits a
    /// screen of 24 rows (it was 36 lines at 80 columns, 50 at 50).
    @Test(arguments: [50, 80, 100])
    func helpFitsAScreenOfTwentyFourRows(width: Int) {
        let lines = PromptHelp.overview(width: width).split(separator: "\n")
        #expect(lines.count <= 21 && lines.count == PromptCommand.all.count { $0.summary != nil }, "\(lines.count) lines")
        #expect(lines.allSatisfy { displayWidth($0) < width }, "\(lines)")
    }

    /// `help WORD` wraps between words, each description under itself, at any width.
    @Test(arguments: [40, 60, 80, 100])
    func helpOfACommandFitsTheTerminalAndKeepsEveryWord(width: Int) throws {
        let words = { (text: String) in text.split(whereSeparator: \.isWhitespace) }
        for entry in PromptCommand.all where !entry.words.isEmpty {
            let text = try #require(PromptHelp.detail(entry.words[0], width: width))
            #expect(text.split(separator: "\n").allSatisfy { displayWidth($0) <= width })
            let start = try #require(PromptCommand.all.firstIndex { $0.words == entry.words })
            let shown = [entry] + PromptCommand.all[(start + 1)...].prefix { $0.words.isEmpty }
            #expect(words(text) == words(shown.map { $0.usage + " " + $0.help }.joined(separator: " ")))
            for line in text.split(separator: "\n") where line.hasPrefix("    ") {
                #expect(line.hasPrefix(String(repeating: " ", count: PromptHelp.column)), "\(line)")
            }
        }
        #expect(PromptHelp.detail("keys", width: width)?.contains("Ctrl-R") == true)
        #expect(PromptHelp.detail("nothing", width: width) == nil)
    }
}
