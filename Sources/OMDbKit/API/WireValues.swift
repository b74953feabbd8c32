import Foundation

/// OMDb's text read as values: pure, text in, a value out, `nil` for `N/A`, empty or anything
/// that is not plainly the value. Only ASCII digits count (`Int` does not read `١٢١` or `１２`),
/// and every number is bounded, so no text can trap or overflow.
enum WireValue {
    /// `19,306` or `19306` → 19306: digits, in groups of three when commas are there.
    static func count(_ text: String?) -> Int? {
        guard let text = present(text), text.wholeMatch(of: /[0-9]{1,18}|[0-9]{1,3}(,[0-9]{3}){1,5}/) != nil else { return nil }
        return Int(text.replacingOccurrences(of: ",", with: ""))
    }

    /// `8.4` → 8.4, when a plain decimal (no sign, no exponent) from 0 to `limit`.
    static func decimal(_ text: String?, upTo limit: Double) -> Double? {
        guard let text = present(text), text.wholeMatch(of: /[0-9]{1,3}(\.[0-9]{1,3})?/) != nil,
              let value = Double(text), value <= limit else { return nil }
        return value
    }

    /// `82 min` → 82; `2 h 1 min`, `1h 30min` → minutes.
    static func minutes(_ text: String?) -> Int? {
        guard let text = present(text)?.lowercased().replacingOccurrences(of: " ", with: "") else { return nil }
        if let match = text.wholeMatch(of: /([0-9]{1,5})min/) { return Int(match.1) }
        guard let match = text.wholeMatch(of: /([0-9]{1,3})h(?:([0-9]{1,2})min)?/), let hours = Int(match.1),
              let minutes = match.2.map({ Int($0) }) ?? 0, minutes < 60 else { return nil }
        return hours * 60 + minutes
    }

    /// `Action, Comedy` → `["Action", "Comedy"]`: split at commas outside parentheses (a credit
    /// such as `Stan Lee (comics, characters)` stays whole), trimmed, empty and `N/A` items dropped.
    static func list(_ text: String?) -> [String] {
        guard let text = present(text) else { return [] }
        var items: [String] = [], item = "", depth = 0
        for character in text + "," {
            switch character {
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            case "," where depth == 0:
                if let kept = present(item) { items.append(kept) }
                item = ""
                continue
            default: break
            }
            item.append(character)
        }
        return items
    }

    /// `11 Apr 1986` (OMDb's records; `11 April 1986` too) or `2008-01-20` (its season lists).
    static func date(_ text: String?) -> CalendarDate? {
        guard let text = present(text) else { return nil }
        if let match = text.wholeMatch(of: /([0-9]{4})-([0-9]{2})-([0-9]{2})/), let year = Int(match.1), let month = Int(match.2), let day = Int(match.3) {
            return CalendarDate(year: year, month: month, day: day)
        }
        guard let match = text.wholeMatch(of: /([0-9]{1,2}) +([A-Za-z]{3,9}) +([0-9]{4})/), let day = Int(match.1), let year = Int(match.3),
              let month = monthNames.firstIndex(where: { $0 == match.2.lowercased() || $0.prefix(3) == match.2.lowercased() }) else { return nil }
        return CalendarDate(year: year, month: month + 1, day: day)
    }

    private static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                                     "october", "november", "december"]

    /// `$81,900,459` → 81,900,459 in `$`: up to three characters of currency (no digits, no
    /// spaces, no sign), then a count.
    static func money(_ text: String?) -> CurrencyAmount? {
        guard let text = present(text), let start = text.firstIndex(where: { $0.isASCII && $0.isNumber }) else { return nil }
        let currency = text[..<start].trimmingCharacters(in: .whitespaces)
        guard (1...3).contains(currency.count), !currency.contains(where: { $0.isWhitespace || $0 == "-" || $0 == "+" }),
              let amount = count(String(text[start...])) else { return nil }
        return CurrencyAmount(amount: amount, currency: currency)
    }

    /// A rating's text out of 100: `7.5/10` → 75, `85%` → 85, `77/100` → 77; `nil` for a score
    /// above its scale, a percentage above 100, or any other text.
    static func percent(_ text: String) -> Double? {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasSuffix("%") { return decimal(String(text.dropLast()), upTo: 100) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let score = decimal(String(parts[0]), upTo: .infinity),
              let scale = decimal(String(parts[1]), upTo: .infinity), scale > 0, score <= scale else { return nil }
        return score * 100 / scale
    }

    /// An absolute URL (a scheme and a host); `nil` for `N/A` or a value that is not one.
    static func url(_ text: String?) -> URL? {
        guard let text = present(text), let url = URL(string: text), url.scheme != nil, url.host != nil else { return nil }
        return url
    }
}

/// OMDb's `N/A`, an empty string and a missing field all mean "absent"; else the text, trimmed.
func present(_ value: String?) -> String? {
    guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty,
          trimmed.uppercased() != "N/A" else { return nil }
    return trimmed
}
