import Foundation
@testable import MoviesCLI
@testable import OMDbKit
import Testing

/// What a hostile or broken record must not do to `--json`, rows and `save` (found by the hostile
/// pass on `movies show` and ratings): crash, draw on the terminal, or break a file's format.
@Suite struct HostileRecordTests {
    private func movie(_ fields: String) throws -> Movie {
        let json = #"{"Title":"T","Year":"2000","imdbID":"tt0000001","Type":"movie","Response":"True",\#(fields)}"#
        return try OMDbDecoding.decode(Movie.self, HTTPResponse(statusCode: 200, body: Data(json.utf8)), query: "tt0000001", url: "u")
    }

    @Test func ratingsOnARowAreShownOnlyWhenTheyReadAsRatings() throws {
        let hostile = try movie(#""imdbRating":"1e309","Ratings":[{"Source":"Rotten Tomatoes","Value":"-5%"},{"Source":"Metacritic","Value":"NaN/100"}]"#)
        #expect(RatingsSummary(hostile).parts.isEmpty)
        let fine = try movie(#""imdbRating":"8.6","Ratings":[{"Source":"Rotten Tomatoes","Value":"93%"},{"Source":"Metacritic","Value":"90/100"}]"#)
        #expect(RatingsSummary(fine).parts == ["IMDb 8.6", "RT 93%", "MC 90"])
    }

    @Test func anIDInOtherDigitsIsNoID() {
        #expect(IMDbReference("tt００76759") == nil)
        #expect(IMDbReference("tt0076759") == .title("tt0076759"))
    }

    /// A title with CR LF (one Character in Swift) went unquoted, and escape codes went raw into
    /// the CSV and Markdown files, where `cat` would run them.
    @Test(arguments: [ExportFormat.csv, .markdown])
    func savedFilesHoldNoEscapeCodesAndKeepTheirShape(format: ExportFormat) throws {
        let item = SearchItem(imdbID: "tt0000001", title: "Line1\r\nLine2 \u{1B}]0;PWNED\u{07}\u{1B}[2J\u{202E}", year: ReleaseYear("2000"), type: .movie, posterURL: nil)
        let text = String(decoding: format.render([ExportLog.Entry(item: item, movie: nil)]), as: UTF8.self)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E }, "\(text.debugDescription)")
        if format == .csv {
            // The line break stays, inside a quoted field: the row is still one record.
            #expect(text.contains("\"Line1\r\nLine2"), "\(text.debugDescription)")
        } else {
            // The header, its rule and one row.
            #expect(text.split(whereSeparator: \.isNewline).count == 3, "\(text.debugDescription)")
        }
    }

    @Test func theArabicLetterMarkIsABidiControl() {
        #expect(PrintableText.clean("a\u{061C}b") == "ab")
    }
}
