import Foundation
@testable import OMDbCurl
import Testing

/// Header lines as libcurl hands them over (the line's end included), read as bytes on the
/// engine's thread.
@Suite struct HeaderLineTests {
    private func trimmed(_ text: String) -> String {
        Array(text.utf8).withUnsafeBytes { String(decoding: CurlTransfer.trimmed($0[...]), as: UTF8.self) }
    }

    @Test func httpWhitespaceAndTheLineEndGoFromBothEndsOnly() {
        #expect(trimmed("Content-Type: image/jpeg\r\n") == "Content-Type: image/jpeg")
        #expect(trimmed(" \t max-age=60 \t") == "max-age=60")
        #expect(trimmed("a  b") == "a  b")
        #expect(trimmed("x") == "x")
    }

    @Test func aLineOfOnlyWhitespaceIsEmpty() {
        #expect(trimmed("\r\n") == "")
        #expect(trimmed(" \t ") == "")
        #expect(trimmed("") == "")
    }

    /// Only HTTP's whitespace: a no-break space (U+00A0) is part of a value.
    @Test func otherSpacesStay() {
        #expect(trimmed("\u{A0}value\u{A0}\r\n") == "\u{A0}value\u{A0}")
    }
}
