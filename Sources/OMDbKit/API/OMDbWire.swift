import Foundation

// OMDb's JSON as it comes over the wire, read leniently: a server can send any shape, and
// one odd field must cost that field (or that row), never the page and never a trap.

/// A JSON value read as text whatever its type: a string as it is, a number written out
/// (`2000` → `"2000"`), anything else (`true`, objects, arrays) as absent. Never throws.
struct WireText: Decodable {
    let value: String?

    init(from decoder: any Decoder) {
        guard let container = try? decoder.singleValueContainer() else {
            value = nil
            return
        }
        if let text = try? container.decode(String.self) {
            value = text
        } else if let whole = try? container.decode(Int.self) {
            value = String(whole)
        } else if let number = try? container.decode(Double.self), number.isFinite {
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

    var isFalse: Bool { value == false }
    var isTrue: Bool { value == true }

    init(from decoder: any Decoder) {
        let container = try? decoder.singleValueContainer()
        if let flag = try? container?.decode(Bool.self) {
            value = flag
        } else {
            switch (try? container?.decode(String.self))?.lowercased() {
            case "true"?: value = true
            case "false"?: value = false
            default: value = nil
            }
        }
    }
}

struct SearchPayload: Decodable {
    let Search: [Lossy<SearchRow>]?
    let totalResults: WireText?
}

struct SearchRow: Decodable {
    let Title, Year, imdbID, `Type`, Poster: WireText?

    /// The row as a result; `nil` (the row is dropped) without an imdbID.
    var item: SearchItem? {
        guard let id = present(imdbID?.value) else { return nil }
        return SearchItem(imdbID: id, title: present(Title?.value) ?? id, year: present(Year?.value).map(ReleaseYear.init),
                          type: MediaType(omdb: present(Type?.value) ?? "movie"), posterURL: posterURL(Poster?.value))
    }
}

struct RatingRow: Decodable {
    let Source: WireText?
    let Value: WireText?
}

struct MoviePayload: Decodable {
    let Title, Year, Rated, Released, Runtime, Genre, Director, Writer, Actors, Plot: WireText?
    let Language, Country, Awards, Poster, Metascore, imdbRating, imdbVotes, imdbID, `Type`: WireText?
    let totalSeasons, BoxOffice, DVD, Production, Website: WireText?
    /// Lossy as a whole too: `"Ratings":{}` or `"Ratings":"N/A"` drops the ratings, not the record.
    let Ratings: Lossy<[Lossy<RatingRow>]>?

    /// The record; `nil` without an imdbID or a title.
    var movie: Movie? {
        guard let id = present(imdbID?.value), let title = present(Title?.value) else { return nil }
        return Movie(
            imdbID: id, title: title, year: present(Year?.value).map(ReleaseYear.init), type: MediaType(omdb: present(Type?.value) ?? "movie"),
            rated: present(Rated?.value), released: present(Released?.value), runtime: present(Runtime?.value), genre: present(Genre?.value),
            director: present(Director?.value), writer: present(Writer?.value), actors: present(Actors?.value), plot: present(Plot?.value),
            language: present(Language?.value), country: present(Country?.value), awards: present(Awards?.value), posterURL: posterURL(Poster?.value),
            ratings: (Ratings?.value ?? []).compactMap { row in
                guard let source = present(row.value?.Source?.value), let value = present(row.value?.Value?.value) else { return nil }
                return Rating(source: source, value: value)
            },
            metascore: present(Metascore?.value), imdbRating: present(imdbRating?.value), imdbVotes: present(imdbVotes?.value),
            totalSeasons: present(totalSeasons?.value), boxOffice: present(BoxOffice?.value),
            dvd: present(DVD?.value), production: present(Production?.value), website: present(Website?.value))
    }
}

/// OMDb's `N/A`, an empty string and a missing field all mean "absent".
func present(_ value: String?) -> String? {
    guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty,
          trimmed.uppercased() != "N/A" else { return nil }
    return trimmed
}

func posterURL(_ value: String?) -> URL? {
    guard let text = present(value), let url = URL(string: text), url.scheme != nil, url.host != nil
    else { return nil }
    return url
}
