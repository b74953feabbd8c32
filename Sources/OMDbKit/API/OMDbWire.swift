import Foundation

// OMDb's JSON as it comes over the wire, read leniently: a server can send any shape, and
// one odd field must cost that field (or that row), never the page and never a trap.

/// A JSON value read as text whatever its type: a string as it is, a number written out
/// (`2000` → `"2000"`), anything else (`true`, objects, arrays) as absent. Never throws.
struct WireText: Decodable {
    let value: String?

    init(from decoder: any Decoder) {
        let container = try? decoder.singleValueContainer()
        if let text = try? container?.decode(String.self) {
            value = text
        } else if let whole = try? container?.decode(Int.self) {
            value = String(whole)
        } else if let number = try? container?.decode(Double.self), number.isFinite {
            // Integral doubles within Int's range read as whole numbers (2000.0 → "2000");
            // the range check comes first, so converting can never trap.
            value = number.rounded() == number && abs(number) < 9.0e18 ? String(Int(number)) : String(number)
        } else {
            value = nil
        }
    }
}

/// One element of a JSON array that may not be the shape expected: `nil` instead of a failure,
/// so that one bad row is dropped alone.
struct Lossy<Element: Decodable>: Decodable {
    let value: Element?

    init(from decoder: any Decoder) {
        value = try? Element(from: decoder)
    }
}

/// OMDb's `Response`: the string `"True"` or `"False"`, or a JSON boolean as a rewriting proxy may send it.
struct WireFlag: Decodable {
    /// `nil` for anything else.
    let value: Bool?

    init(from decoder: any Decoder) {
        let container = try? decoder.singleValueContainer()
        let text = (try? container?.decode(String.self))?.lowercased() ?? ""
        value = (try? container?.decode(Bool.self)) ?? ["true": true, "false": false][text]
    }
}

struct SearchPayload: Decodable {
    let Search: [Lossy<SearchRow>]?
    let totalResults: WireText?
}

struct SeasonPayload: Decodable {
    let Title, Season, totalSeasons: WireText?
    let Episodes: [Lossy<WireFields>]?
}

struct SearchRow: Decodable {
    let Title, Year, imdbID, `Type`, Poster: WireText?

    /// The row as a result; `nil` (the row is dropped) without an imdbID.
    var item: SearchItem? {
        guard let id = present(imdbID?.value) else { return nil }
        return SearchItem(imdbID: id, title: present(Title?.value) ?? id, year: present(Year?.value).map(ReleaseYear.init),
                          type: MediaType(omdb: present(Type?.value) ?? "movie"), posterURL: WireValue.url(Poster?.value))
    }
}

/// Every text or number field of a JSON object, as text: what ``Movie/raw`` and ``Episode/raw`` keep.
struct WireFields: Decodable {
    let values: [String: String]

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: AnyCodingKey.self)
        var values: [String: String] = [:]
        for name in object.allKeys {
            if let text = (try? object.decode(WireText.self, forKey: name))?.value { values[name.stringValue] = text }
        }
        self.values = values
    }
}

/// Any field's name, for objects whose names are data (OMDb's records, the catalogue's).
package struct AnyCodingKey: CodingKey {
    package let stringValue: String
    package var intValue: Int? { nil }
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}

struct RatingRow: Decodable {
    let Source: WireText?
    let Value: WireText?

    /// The rating; `nil` (it is dropped) without a source or a value.
    var rating: Rating? {
        guard let source = present(Source?.value), let text = present(Value?.value) else { return nil }
        return Rating(source: source, text: text, percent: WireValue.percent(text))
    }
}

extension Movie: Decodable {
    /// Reads OMDb's answer for one title (`i=` or `t=`) leniently: any field may be missing, `N/A`
    /// or of another JSON type, and costs only its own value (kept in ``raw``).
    /// - Throws: `DecodingError` when the answer is not a JSON object, or has no `imdbID` or `Title`.
    public init(from decoder: any Decoder) throws {
        var fields = try WireFields(from: decoder).values
        fields["Response"] = nil
        guard let id = present(fields["imdbID"]), let title = present(fields["Title"]) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "the record has no imdbID or Title"))
        }
        // Lossy as a whole too: `"Ratings":{}` or `"Ratings":"N/A"` drops the ratings, not the record.
        let ratings = try? decoder.container(keyedBy: AnyCodingKey.self)
            .decode(Lossy<[Lossy<RatingRow>]>.self, forKey: AnyCodingKey(stringValue: "Ratings")).value
        self.init(
            imdbID: id, title: title, year: present(fields["Year"]).map(ReleaseYear.init), type: MediaType(omdb: present(fields["Type"]) ?? "movie"),
            rated: present(fields["Rated"]), released: WireValue.date(fields["Released"]), runtimeMinutes: WireValue.minutes(fields["Runtime"]),
            genres: WireValue.list(fields["Genre"]), directors: WireValue.list(fields["Director"]), writers: WireValue.list(fields["Writer"]),
            actors: WireValue.list(fields["Actors"]), plot: present(fields["Plot"]), languages: WireValue.list(fields["Language"]),
            countries: WireValue.list(fields["Country"]), awards: present(fields["Awards"]), posterURL: WireValue.url(fields["Poster"]),
            ratings: (ratings ?? []).compactMap { $0.value?.rating }, metascore: WireValue.count(fields["Metascore"]).flatMap { $0 <= 100 ? $0 : nil },
            imdbRating: WireValue.decimal(fields["imdbRating"], upTo: 10), imdbVotes: WireValue.count(fields["imdbVotes"]),
            totalSeasons: WireValue.count(fields["totalSeasons"]), boxOffice: WireValue.money(fields["BoxOffice"]),
            dvd: WireValue.date(fields["DVD"]), production: present(fields["Production"]), website: WireValue.url(fields["Website"]), raw: fields)
    }
}
