import Foundation
import OMDbTestSupport
import Testing
@testable import OMDbKit

/// What a server can send that OMDb never documented: every quirk is a row, and each gives a
/// value or an error that names the server's answer, never a trap.
@Suite struct DecodingEdgeTests {
    private func page(_ totalResults: String, rows: String = #"{"Title":"A","Year":"2000","imdbID":"tt0000001","Type":"movie"}"#) throws(OMDbError) -> (items: [SearchItem], total: Int) {
        try OMDbDecoding.searchPage(json(#"{"Search":[\#(rows)],"totalResults":\#(totalResults),"Response":"True"}"#),
                                    query: SearchQuery(text: "x"), url: "u")
    }

    @Test(arguments: [
        (#""98""#, 98), (#"" 98 ""#, 98), ("98", 98), ("98.0", 98), (#""0""#, 0), ("0", 0),
        (#""1000000000""#, 1_000_000_000),
    ] as [(String, Int)])
    func totalResultsThatAreCountsAreRead(sent: String, total: Int) throws {
        #expect(try page(sent).total == total)
    }

    /// Each would have trapped in `lastPage` (overflow) or shown "page 1 of 0, -5 in all".
    @Test(arguments: [
        (#""-5""#, #"totalResults "-5" is negative"#),
        ("-1", #"totalResults "-1" is negative"#),
        (#""9223372036854775807""#, #"totalResults "9223372036854775807" is more results than OMDb can have"#),
        ("9223372036854775807", #"totalResults "9223372036854775807" is more results than OMDb can have"#),
        (#""1000000001""#, #"totalResults "1000000001" is more results than OMDb can have"#),
        (#""-9223372036854775808""#, #"totalResults "-9223372036854775808" is negative"#),
        (#""99999999999999999999999""#, #"totalResults "99999999999999999999999" is not a whole number"#),
        ("1e308", #"totalResults "1e+308" is not a whole number"#),
        (#""NaN""#, #"totalResults "NaN" is not a whole number"#),
        (#""98.5""#, #"totalResults "98.5" is not a whole number"#),
        (#""1,234""#, #"totalResults "1,234" is not a whole number"#),
        (#""""#, #"totalResults "" is not a whole number"#),
        ("null", "totalResults is missing or not a number"),
        ("true", "totalResults is missing or not a number"),
        ("[1]", "totalResults is missing or not a number"),
        ("1e400", "totalResults is missing or not a number"),
    ] as [(String, String)])
    func absurdTotalsAreAnErrorNamingTheAnswer(sent: String, reason: String) {
        #expect(throws: OMDbError.invalidResponse(url: "u", reason: reason)) { try page(sent) }
    }

    /// Every row costs a record request: a page of 10,000 rows must not cost 10,000 requests.
    @Test func aPageNeverHoldsMoreThanOMDbsTenRows() throws {
        let rows = (0..<10_000).map { #"{"Title":"T\#($0)","Year":"2000","imdbID":"tt\#($0)","Type":"movie","Poster":"N/A"}"# }
        let page = try OMDbDecoding.searchPage(json(#"{"Search":[\#(rows.joined(separator: ","))],"totalResults":"10000","Response":"True"}"#),
                                              query: SearchQuery(text: "x"), url: "u")
        #expect(page.items.map(\.imdbID) == (0..<10).map { "tt\($0)" })
    }

    @Test func aVeryLongTotalIsNamedShortened() {
        #expect(throws: OMDbError.invalidResponse(url: "u", reason: #"totalResults "\#(String(repeating: "9", count: 40))…" is not a whole number"#)) {
            try page("\"\(String(repeating: "9", count: 5000))\"")
        }
    }

    /// One row with an odd field is kept (or dropped) alone; the good row next to it always stays.
    @Test(arguments: [
        (#"{"Title":"Odd","Year":2000,"imdbID":"tt9","Type":"movie"}"#, "tt9", "2000"),
        (#"{"Title":"Odd","Year":2000.0,"imdbID":"tt9"}"#, "tt9", "2000"),
        (#"{"Title":"Odd","Year":null,"imdbID":"tt9"}"#, "tt9", nil),
        (#"{"Title":"Odd","Year":["1999"],"imdbID":"tt9"}"#, "tt9", nil),
        (#"{"Title":"Odd","Year":{"from":1999},"imdbID":"tt9"}"#, "tt9", nil),
        (#"{"Title":"Odd","Year":true,"imdbID":"tt9"}"#, "tt9", nil),
        (#"{"Title":"Odd","Year":1e308,"imdbID":"tt9"}"#, "tt9", "1e+308"),
        (#"{"Title":"Odd","Year":-1,"imdbID":"tt9"}"#, "tt9", "-1"),
        (#"{"Title":"Odd","Year":9223372036854775807,"imdbID":"tt9"}"#, "tt9", "9223372036854775807"),
        (#"{"Title":"Odd","Year":"2000","imdbID":"tt9"}"#, "tt9", "2000"),
        (#"{"Title":12,"imdbID":"tt9"}"#, "tt9", nil),
        (#"{"Title":"No type","imdbID":"tt9","Type":null}"#, "tt9", nil),
        (#"{"Title":"Numeric id","imdbID":123}"#, "123", nil),
        (#"{"Title":"Poster","imdbID":"tt9","Poster":42}"#, "tt9", nil),
        (#"{"Title":"No id"}"#, nil, nil),
        (#"{"Title":"Empty id","imdbID":""}"#, nil, nil),
        (#"{"Title":"Blank id","imdbID":"   "}"#, nil, nil),
        (#"{"Title":"Object id","imdbID":{"id":"tt9"}}"#, nil, nil),
        (#"{"Title":"NA id","imdbID":"N/A"}"#, nil, nil),
        (#""just a string""#, nil, nil),
        ("42", nil, nil),
        ("null", nil, nil),
        ("[]", nil, nil),
    ] as [(String, String?, String?)])
    func oddRowsNeverFailTheirPage(row: String, keptID: String?, year: String?) throws {
        let good = #"{"Title":"Good","Year":"1984","imdbID":"tt0090190","Type":"movie","Poster":"N/A"}"#
        let items = try page(#""2""#, rows: "\(row),\(good)").items
        #expect(items.last?.imdbID == "tt0090190")
        #expect(items.map(\.imdbID) == [keptID, "tt0090190"].compactMap { $0 })
        if keptID != nil {
            #expect(items[0].year?.text == year)
            #expect(items[0].type == .movie)
        }
    }

    /// Every other field an object, an array or null: the record still stands on its imdbID and title.
    @Test(arguments: [#"{"Source":1}"#, #""N/A""#, "null", "[[1]]", "7"])
    func aRecordWithOddFieldsIsStillARecord(ratings: String) throws {
        let body = #"{"Title":"Heat","Year":null,"imdbID":"tt0113277","Type":{"a":1},"Plot":[null],"Poster":{"x":1},"Genre":[],"Ratings":\#(ratings),"Response":"True"}"#
        let movie = try OMDbDecoding.decode(Movie.self, json(body), query: "tt0113277", url: "u")
        #expect(movie.title == "Heat")
        #expect(movie.plot == nil && movie.posterURL == nil && movie.ratings.isEmpty)
    }

    @Test func aRecordWithNumbersForTextIsStillARecord() throws {
        let body = #"{"Title":1917,"Year":2019,"imdbID":"tt8579674","Metascore":78,"imdbRating":8.2,"Ratings":[{"Source":"IMDb","Value":8.2},"junk",{"Source":null}],"Response":"True"}"#
        let movie = try OMDbDecoding.decode(Movie.self, json(body), query: "tt8579674", url: "u")
        #expect(movie.title == "1917")
        #expect(movie.year?.start == 2019)
        #expect(movie.metascore == 78)
        #expect(movie.imdbRating == 8.2)
        #expect(movie.ratings == [Rating(source: "IMDb", text: "8.2", percent: nil)])
    }

    @Test(arguments: [#"{"Search":"nope","totalResults":"1","Response":"True"}"#, "[1,2]", "\"text\"", "", "{", #"{"Response":"True"}"#])
    func shapesThatAreNotAPageAreAnError(body: String) {
        #expect(throws: OMDbError.self) { try OMDbDecoding.searchPage(json(body), query: SearchQuery(text: "x"), url: "u") }
    }

    @Test func anErrorEnvelopeSentWithABooleanIsStillAnError() {
        #expect(throws: OMDbError.notFound(query: "x")) {
            try OMDbDecoding.searchPage(json(#"{"Response":false,"Error":"Movie not found!"}"#), query: SearchQuery(text: "x"), url: "u")
        }
    }

    @Test func aScreenfulOfErrorTextIsCut() throws {
        let long = String(repeating: "x", count: 10_000)
        #expect(throws: OMDbError.server(message: String(repeating: "x", count: 200) + "…", status: 500)) {
            try OMDbDecoding.searchPage(json(#"{"Response":"False","Error":"\#(long)"}"#, status: 500), query: SearchQuery(text: "x"), url: "u")
        }
    }
}

/// Page arithmetic on any numbers a caller can build a page with.
@Suite struct SearchPageArithmeticTests {
    @Test(arguments: [(0, 0), (1, 1), (10, 1), (11, 2), (98, 10), (-5, 0), (Int.max, Int.max / 10 + 1), (Int.min, 0)] as [(Int, Int)])
    func lastPageNeverOverflows(total: Int, last: Int) {
        #expect(SearchPage.lastPage(forTotal: total) == last)
    }

    @Test func aPageNeverSaysPageOneOfZeroOrANegativeTotal() {
        let page = SearchPage(query: SearchQuery(text: "x"), number: 1, totalResults: -5, items: [], shownSoFar: 3)
        #expect(page.totalResults == 3)
        #expect(page.lastPage == 1)
        #expect(!page.hasMore)
        let past = SearchPage(query: SearchQuery(text: "x"), number: 4, totalResults: 12, items: [], shownSoFar: 12)
        #expect(past.lastPage == 4)
        let huge = SearchPage(query: SearchQuery(text: "x"), number: 1, totalResults: Int.max, items: [], shownSoFar: 10)
        #expect(huge.hasMore)
    }

    @Test func aLongURLIsShownCutInTheMiddleAndAShortOneWhole() {
        let long = "https://www.omdbapi.com/?apikey=***&s=" + String(repeating: "a", count: 100_000) + "&page=1"
        let message = OMDbError.httpStatus(404, url: long).description
        #expect(!message.contains("\n") && message.count < 160, "\(message.count)")
        #expect(message.contains("https://www.omdbapi.com/?apikey=***&s=") && message.contains("…") && message.hasSuffix("aaa&page=1."))
        let invalid = OMDbError.invalidResponse(url: long, reason: "r").description
        #expect(invalid.count < 160)
        let short = "https://www.omdbapi.com/?apikey=***&s=alien"
        #expect(OMDbError.httpStatus(404, url: short).description.contains(short))
    }
}
