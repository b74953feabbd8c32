import Foundation
import Testing
@testable import MoviesCLI

/// `--json=FIELDS`, `--fields` and `--format` work on the JSON object a result encodes to,
/// whatever its type: here a line of a type of the test's own.
@Suite struct LineFormatTests {
    struct Line: Encodable {
        var title = "Twin\tPeaks\nFire \u{1B}[31mWalk"
        var year: String? = nil
        var rating = 9.0
        var votes = 1_469_339
        var score = 8.5
        var genres = ["Drama", "Mystery"]
        var seen = true
    }

    @Test func pickedKeysKeepTheValuesOfTheWholeLineAndNullForAKeyNotWritten() throws {
        let whole = try #require(JSONSerialization.jsonObject(with: Data(LineFormat.json(fields: nil).line(Line()).utf8)) as? NSDictionary)
        // As the whole line writes them, so a script reads the same text either way.
        #expect(LineFormat.json(fields: nil).line(Line()).contains(#""rating":9,"score":8.5,"#))
        let picked = LineFormat.json(fields: ["votes", "rating", "score", "genres", "year", "absent"]).line(Line())
        #expect(picked == #"{"absent":null,"genres":["Drama","Mystery"],"rating":9,"score":8.5,"votes":1469339,"year":null}"#)
        let pickedObject = try #require(JSONSerialization.jsonObject(with: Data(picked.utf8)) as? NSDictionary)
        for key in ["votes", "rating", "score", "genres"] { #expect(pickedObject[key] as? NSObject == whole[key] as? NSObject, "\(key)") }
    }

    @Test func aTemplateFillsEachNameOnOneLineWithItsEscapes() {
        let template = LineTemplate(#"{ title }\t{year}|{rating}|{score}|{votes}|{genres}|{seen}\n{ 1 } {} \x \\{title"#)
        #expect(template.fields == ["title", "year", "rating", "score", "votes", "genres", "seen"])
        #expect(LineFormat.template(template).line(Line())
            == "Twin Peaks Fire [31mWalk\t|9|8.5|1469339|[\"Drama\",\"Mystery\"]|true\n{ 1 } {} \\x \\{title")
    }

    @Test func aNameTheCommandHasNotIsAUsageErrorListingThoseItHas() {
        let valid = ["title", "year", "imdbID"]
        #expect(throws: UsageError("unknown field \"titel\" for --format: movies catalogue has imdbID, title, year")) {
            try LineFormat.template(LineTemplate("{imdbID} {titel}")).check(against: valid, command: "catalogue")
        }
        #expect(throws: UsageError("unknown fields \"a\", (not shown: it may be a key) for --json: movies catalogue has imdbID, title, year")) {
            try LineFormat.json(fields: ["title", "a", "sekrit1234"]).check(against: valid, command: "catalogue")
        }
        #expect(throws: Never.self) { try LineFormat.json(fields: ["year", "title"]).check(against: valid, command: "catalogue") }
    }

    /// Each command's names are its lines' keys: what `--json` writes, and nothing else.
    @Test(arguments: ["search", "show", "episodes", "catalogue"])
    func everyCommandOffersItsLinesKeys(command: String) throws {
        let words = command == "catalogue" ? [command] : [command, "x"]
        let options = try Options.parse(words + ["--json=" + LineFormat.fieldNames(of: command).joined(separator: ",")])
        #expect(options.mode != .interactive)
        let error = #expect(throws: UsageError.self) { try Options.parse(words + ["--json=nosuchfield"]) }
        #expect(error?.message.hasPrefix("unknown field \"nosuchfield\" for --json: movies \(command) has ") == true)
    }
}
