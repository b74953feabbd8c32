import Foundation
import Testing
@testable import OMDbKit

/// How OMDb's text becomes a record's values, one kind of value at a time.
@Suite struct RecordValueTests {
    @Test(arguments: [
        ("11 Apr 1986", CalendarDate(year: 1986, month: 4, day: 11)), ("4 Jul 1996", CalendarDate(year: 1996, month: 7, day: 4)),
        ("2008-01-20", CalendarDate(year: 2008, month: 1, day: 20)), ("29 Feb 2000", CalendarDate(year: 2000, month: 2, day: 29)),
        ("11 april 1986", CalendarDate(year: 1986, month: 4, day: 11)), ("01 DEC 1999", CalendarDate(year: 1999, month: 12, day: 1)),
        ("29 Feb 1900", nil), ("0000-01-01", nil), ("2008-1-20", nil), ("11 Sept 1986", nil), ("N/A", nil),
    ] as [(String, CalendarDate?)])
    func datesAreDays(text: String, date: CalendarDate?) {
        #expect(WireValue.date(text) == date)
    }

    @Test func aDayIsWrittenAsISO8601AndOrdered() throws {
        let first = try #require(CalendarDate(year: 987, month: 3, day: 9)), second = try #require(CalendarDate(year: 1986, month: 4, day: 11))
        #expect([second.description, first.description] == ["1986-04-11", "0987-03-09"])
        #expect(first < second && [second, first].sorted() == [first, second])
        #expect(second.dateComponents == DateComponents(year: 1986, month: 4, day: 11))
    }

    /// `\d` takes ١٢١ and １２, which `Int` does not read: `--json` once trapped on them.
    @Test(arguments: [
        ("82 min", 82), ("121 min", 121), ("2 h 1 min", 121), ("1h 30min", 90), ("3h", 180), ("1h 99min", nil), ("١٢١ min", nil),
        ("１２ min", nil), ("N/A", nil), ("min", nil),
    ] as [(String, Int?)])
    func runtimesAreMinutes(text: String, minutes: Int?) {
        #expect(WireValue.minutes(text) == minutes)
    }

    @Test(arguments: [
        ("19,306", 19_306), ("1,469,339", 1_469_339), ("107", 107), ("0", 0), ("999,999,999,999,999,999", 999_999_999_999_999_999),
        ("9999999999999999999", nil), ("1,2", nil), (",100", nil), ("100,", nil), ("1 000", nil),
    ] as [(String, Int?)])
    func countsAreWholeNumbers(text: String, count: Int?) {
        #expect(WireValue.count(text) == count)
    }

    @Test(arguments: [
        ("$81,900,459", CurrencyAmount(amount: 81_900_459, currency: "$")),
        ("$107", CurrencyAmount(amount: 107, currency: "$")),
        ("€1,500", CurrencyAmount(amount: 1_500, currency: "€")), ("EUR 1,500", CurrencyAmount(amount: 1_500, currency: "EUR")),
        ("US$12", CurrencyAmount(amount: 12, currency: "US$")), ("USD$12", nil), ("$ 12 million", nil), ("$1.5", nil),
    ] as [(String, CurrencyAmount?)])
    func boxOfficeKeepsItsCurrency(text: String, amount: CurrencyAmount?) {
        #expect(WireValue.money(text) == amount)
    }

    @Test func anAmountIsWrittenAsOMDbWritesIt() {
        #expect([CurrencyAmount(amount: 81_900_459, currency: "$"), CurrencyAmount(amount: 1_500, currency: "EUR"),
                 CurrencyAmount(amount: 0, currency: "€")]
            .map(\.description) == ["$81,900,459", "EUR 1,500", "€0"])
    }

    @Test(arguments: [
        ("Action, Comedy, Horror", ["Action", "Comedy", "Horror"]), ("Action,Comedy", ["Action", "Comedy"]), ("English", ["English"]),
        ("Stan Lee (comics, characters), Jack Kirby", ["Stan Lee (comics, characters)", "Jack Kirby"]),
        (" Drama , , N/A,", ["Drama"]), ("N/A", []), ("", []),
    ] as [(String, [String])])
    func listsAreSplitAtCommasOutsideParentheses(text: String, items: [String]) {
        #expect(WireValue.list(text) == items)
    }

    @Test(arguments: [("8.4", 8.4), ("10", 10), ("0.0", 0), ("10.1", nil), ("8,4", nil), (".5", nil), ("8.", nil)] as [(String, Double?)])
    func ratingsOutOfTenArePlainDecimals(text: String, rating: Double?) {
        #expect(WireValue.decimal(text, upTo: 10) == rating)
    }
}
