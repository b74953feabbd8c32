import Testing
@testable import LineEditing

/// Bracketed paste in the key decoder (issue 24): a paste is text until its real end, the last
/// end marker before the input pauses; a stray end marker inside it never runs anything.
@Suite struct PasteTests {
    static let start = "\u{1B}[200~", end = "\u{1B}[201~"

    /// Keys for `reads` fed one after another, then the pause (``KeyDecoder/flush()``).
    private func keys(_ reads: String...) -> [Key] {
        var decoder = KeyDecoder()
        return reads.flatMap { decoder.feed(Array($0.utf8)) } + decoder.flush()
    }

    /// The editor after those keys: its line, and whether a line was submitted.
    private func edited(_ reads: String...) -> (line: String, submitted: [String]) {
        var decoder = KeyDecoder()
        var editor = LineEditor(history: [], completer: { _ in (0, []) })
        var submitted: [String] = []
        for key in reads.flatMap({ decoder.feed(Array($0.utf8)) }) + decoder.flush() {
            if case .submit(let line) = editor.handle(key) {
                submitted.append(line)
                editor.reset()
            }
        }
        return (editor.buffer.text, submitted)
    }

    /// A pasted `ESC [ 201 ~` followed by a line break: the terminal's own end marker comes after
    /// the whole paste, and everything before it is text.
    @Test func aStrayEndMarkerInsideAPasteRunsNothing() {
        let paste = Self.start + "alien" + Self.end + "\rquit\r" + Self.end
        // Keys and expected keys are typed lets throughout: built inside #expect they were slow to type-check.
        let pasted: [Key] = keys(paste).filter { $0 != .ignored }
        let wholePaste: [Key] = [.paste("alien" + Self.end + "\rquit\r")]
        #expect(pasted == wholePaste)
        let (line, submitted) = edited(paste)
        #expect(submitted.isEmpty)
        #expect(line == "alien[201~ quit ")
    }

    /// The same paste split across reads, at every byte: the reads before the pause never end it.
    @Test func aPasteSplitAnywhereEndsAtItsLastEndMarker() {
        let paste = Array((Self.start + "alien" + Self.end + "\nquit\n" + Self.end + "x").utf8)
        for cut in 1..<paste.count {
            var decoder = KeyDecoder()
            let got = (decoder.feed(paste[..<cut]) + decoder.feed(paste[cut...]) + decoder.flush()).filter { $0 != .ignored }
            #expect(got == [.paste("alien" + Self.end + "\nquit\n"), .insert("x")], "cut at \(cut)")
        }
    }

    /// A paste is a key only after the pause: until then its end marker may not be the last.
    @Test func aPasteWaitsForThePauseAfterItsEndMarker() {
        var decoder = KeyDecoder()
        let beforeThePause: [Key] = decoder.feed(Array((Self.start + "alien").utf8)).filter { $0 != .ignored }
        #expect(beforeThePause == [])
        // Mid-paste, nothing is a lone Escape: at a pause with no end marker the text so far is
        // given, and the reader then waits for the rest, however long.
        #expect(decoder.isWaiting)
        #expect(decoder.flush() == [.paste("alien")])
        #expect(!decoder.isWaiting)
        #expect(decoder.feed(Array((Self.end + "\r").utf8)) == [])
        #expect(decoder.isWaiting)
        #expect(decoder.feed(Array(("more" + Self.end).utf8)) == [])
        #expect(decoder.flush() == [.paste(Self.end + "\rmore")])
        #expect(!decoder.isWaiting)
    }

    /// A start marker whose end never comes: Ctrl-C, the first key after a pause, ends the paste and
    /// drops the line; the keys after it are typed. Inside a paste, before a pause, Ctrl-C is text.
    @Test func ctrlCAfterAPauseEndsAPasteWithNoEndMarker() {
        var decoder = KeyDecoder()
        let before: [Key] = decoder.feed(Array((Self.start + "ali\u{3}en\r").utf8)).filter { $0 != .ignored }
        #expect(before == [])
        #expect(decoder.flush() == [.paste("ali\u{3}en\r")])
        let after: [Key] = decoder.feed(Array("\u{3}x\r".utf8))
        #expect(after == [.interrupt, .insert("x"), .enter])
    }

    /// A pause that cuts an end marker or a character in two keeps that part until its rest comes.
    @Test func aPauseKeepsAMarkerOrCharacterCutInTwo() {
        var decoder = KeyDecoder()
        _ = decoder.feed(Array((Self.start + "caf\u{1B}[20").utf8))
        #expect(decoder.flush() == [.paste("caf")])
        #expect(decoder.feed(Array("1~x".utf8)) == [])
        let ended: [Key] = decoder.flush()
        #expect(ended == [.paste(""), .insert("x")])
        _ = decoder.feed(Array(Self.start.utf8) + [0x63, 0xC3])
        #expect(decoder.flush() == [.paste("c")])
        _ = decoder.feed([0xA9] + Array(Self.end.utf8))
        #expect(decoder.flush() == [.paste("é")])
    }

    /// What follows the real end in the same read was typed: Enter runs the pasted line.
    @Test func keysAfterTheRealEndAreTyped() {
        let typed: [Key] = keys(Self.start + "alien" + Self.end + "\r").filter { $0 != .ignored }
        #expect(typed == [.paste("alien"), .enter])
        #expect(edited(Self.start + "alien" + Self.end + "\r").submitted == ["alien"])
        #expect(edited(Self.start + "ali", "en" + Self.end, "\r").submitted == ["alien"])
    }

    /// An end marker with no paste open is a key nobody uses: ignored, neither text nor Enter.
    @Test func anEndMarkerOutsideAPasteIsIgnored() {
        #expect(keys("ab" + Self.end + "c") == [.insert("ab"), .ignored, .insert("c")])
        let (line, submitted) = edited("ab" + Self.end + "c")
        #expect(line == "abc" && submitted.isEmpty)
    }

    /// A start marker inside a paste is text too: no paste within a paste ends early.
    @Test func aStartMarkerInsideAPasteIsText() {
        let pasted: [Key] = keys(Self.start + "a" + Self.start + "b\r" + Self.end).filter { $0 != .ignored }
        let onePaste: [Key] = [.paste("a" + Self.start + "b\r")]
        #expect(pasted == onePaste)
    }
}
