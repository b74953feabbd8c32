import Foundation

/// A day on the Gregorian calendar: OMDb's `Released` and `DVD` (`11 Apr 1986`) and an
/// episode's `Released` (`2008-01-20`).
///
/// A day, not an instant: OMDb says on which day, not at what time nor where, so there is no
/// time zone to get wrong. To place one in time, choose the calendar and time zone yourself:
/// `calendar.date(from: released.dateComponents)`.
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year (`1986`).
    public let year: Int
    /// The month, from 1 (January) to 12.
    public let month: Int
    /// The day of the month, from 1.
    public let day: Int

    /// The day, when there is one (`nil` for 31 April, 29 February 2023, or a year outside 1...9999).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, of: year) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The year, month and day, with no calendar and no time zone: for `Calendar.date(from:)`.
    public var dateComponents: DateComponents { DateComponents(year: year, month: month, day: day) }

    /// ISO 8601: `1986-04-11`.
    public var description: String { Self.text(year: year, month: month, day: day) }

    /// `1986-04-11`: zero-padded to 4, 2 and 2 digits.
    static func text(year: Int, month: Int, day: Int) -> String {
        String(format: "%04ld-%02ld-%02ld", year, month, day)
    }

    /// The earlier day comes first.
    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
