import Foundation
import OMDbKit

/// What OMDb writes as numbers in text, read as numbers for ``RecordOutput``: pure, text in,
/// the number's plain text out (`nil` when the text is not one).
enum RecordJSON {
    /// `121 min` → `121`; `2 h 1 min`, `1h 30min` → minutes; `nil` for any other text.
    static func minutes(_ runtime: String) -> String? {
        let text = runtime.lowercased().replacingOccurrences(of: " ", with: "")
        // ASCII digits only: `\d` also takes ١٢١ or １２, which `Int` does not read.
        if let match = text.wholeMatch(of: /([0-9]{1,5})min/), let minutes = Int(match.1) { return String(minutes) }
        if let match = text.wholeMatch(of: /([0-9]{1,3})h(?:([0-9]{1,2})min)?/), let hours = Int(match.1) {
            guard let minutes = match.2.map({ Int($0) }) ?? 0, minutes < 60 else { return nil }
            return String(hours * 60 + minutes)
        }
        return nil
    }

    /// `1,469,339` → `1469339`, `$460,998,507` → `460998507`, `90` → `90`; `nil` when the text is not a whole number.
    static func wholeNumber(_ text: String) -> String? {
        let digits = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: "")
        let bare = digits.hasPrefix("$") ? String(digits.dropFirst()) : digits
        guard (1...18).contains(bare.count), bare.allSatisfy(\.isASCII), let value = Int(bare), value >= 0 else { return nil }
        return String(value)
    }

    /// `8.6` → `8.6`; `nil` unless a plain decimal (no exponent, no sign: JSON takes it as it is).
    static func decimal(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.wholeMatch(of: /[0-9]{1,3}(\.[0-9]{1,3})?/) != nil, let value = Double(trimmed) else { return nil }
        return value == value.rounded() && !trimmed.contains(".") ? String(Int(value)) : trimmed
    }
}
