import Foundation
import OMDbKit

/// A record's fields as JSON, for `movies show --json` and each `movies search --json` line
/// (a search line is a record too): every field OMDb gives, under one name each, `N/A` as null,
/// ratings as a list of source and value, and as numbers what OMDb writes as numbers in text.
/// Pure: a record in, `(name, JSON value)` pairs out.
enum RecordJSON {
    /// The fields past `imdbID`, `title`, `year`, `type`, `plot` and `poster` (which the lines had
    /// first), in OMDb's order; all null when there is no record (its lookup failed or never came).
    static func fields(_ movie: Movie?) -> [(name: String, value: String)] {
        let text = { (value: String?) in value.map(JSONPresenter.encode) ?? "null" }
        let number = { (value: String?) in value ?? "null" }
        let ratings = movie.map { movie in
            "[" + movie.ratings.map { "{\"source\":\(JSONPresenter.encode($0.source)),\"value\":\(JSONPresenter.encode($0.value))}" }
                .joined(separator: ",") + "]"
        }
        return [
            ("rated", text(movie?.rated)), ("released", text(movie?.released)),
            ("runtimeMinutes", number(movie?.runtime.flatMap(minutes))),
            ("genre", text(movie?.genre)), ("director", text(movie?.director)), ("writer", text(movie?.writer)),
            ("actors", text(movie?.actors)), ("language", text(movie?.language)), ("country", text(movie?.country)),
            ("awards", text(movie?.awards)), ("posterURL", text(movie?.posterURL?.absoluteString)),
            ("ratings", ratings ?? "null"),
            ("metascore", number(movie?.metascore.flatMap(wholeNumber))),
            ("imdbRating", number(movie?.imdbRating.flatMap(decimal))),
            ("imdbVotes", number(movie?.imdbVotes.flatMap(wholeNumber))),
            ("totalSeasons", number(movie?.totalSeasons.flatMap(wholeNumber))),
            ("dvd", text(movie?.dvd)),
            ("boxOffice", number(movie?.boxOffice.flatMap(wholeNumber))),
            ("production", text(movie?.production)), ("website", text(movie?.website)),
        ]
    }

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
