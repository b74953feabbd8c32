import OMDbKit
import Testing
import TestSupport

/// Text from the network as it is printed: white space folded, and none at either end.
@Suite struct PrintableTextTests {
    @Test(arguments: [
        ("  Alien  ", "Alien"),
        ("\u{A0}\tAlien\u{2003}", "Alien"),
        ("A  \t long\u{A0}\u{A0}plot ", "A long plot"),
        ("   ", ""),
        ("", ""),
        ("a\nb\r\nc", "a b c"),
    ] as [(Typed, String)])
    func whiteSpaceFoldsToOneSpaceAndNoneIsLeftAtTheEnds(_ text: Typed, _ printed: String) {
        #expect(PrintableText.clean(text.text) == printed)
    }

    @Test func lineBreaksKeptAreNotTrimmedButTheSpacesAroundThemFold() {
        #expect(PrintableText.clean(" a \n  b \n ", keepingLineBreaks: true) == "a \n b \n")
        #expect(PrintableText.clean("\n a", keepingLineBreaks: true) == "\n a")
    }

    @Test func controlsAtTheEndsGoWithTheSpaceBesideThem() {
        #expect(PrintableText.clean(" \u{1B}[31m red \u{7} ") == "[31m red")
    }
}
