import Foundation

/// A title as IMDb names it: an ID (`tt0076759`) or a link as pasted from a browser
/// (`https://www.imdb.com/title/tt0076759/`, `m.imdb.com/title/tt0076759/reviews?ref_=…`).
enum IMDbReference: Equatable {
    /// A title's ID, lower-cased: `tt0076759`.
    case title(String)
    /// An IMDb link to something other than a title (a person, a list, a search): why it cannot be looked up.
    case notATitle(String)

    /// `nil` when `text` is neither an IMDb ID nor an IMDb link: it is then a title to search for.
    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let id = Self.titleID(trimmed) {
            self = .title(id)
            return
        }
        // A link to `imdb.com` or a subdomain, with or without `http(s)://`.
        guard !trimmed.contains(where: \.isWhitespace) else { return nil }
        let lowered = trimmed.lowercased()
        let withScheme = lowered.hasPrefix("http://") || lowered.hasPrefix("https://") ? trimmed : "https://" + trimmed
        guard let link = URLComponents(string: withScheme), let host = link.host?.lowercased(),
              host == "imdb.com" || host.hasSuffix(".imdb.com") else { return nil }
        // `/title/tt…/…`, also under a language (`/fr/title/tt…/`).
        let parts = link.path.split(separator: "/").map(String.init)
        if let at = parts.firstIndex(of: "title"), at <= 1 {
            if at + 1 < parts.count, let id = Self.titleID(parts[at + 1]) {
                self = .title(id)
            } else {
                self = .notATitle("\(Self.shown(trimmed)) names no title: a title's IMDb link reads \(host)/title/tt0076759/.")
            }
            return
        }
        let named = ["name": "a person's page", "list": "a list", "company": "a company's page", "user": "a user's page",
                     "find": "a search", "search": "a search", "event": "a page of event", "chart": "a page of chart",
                     "news": "a page of news", "video": "a page of video", "gallery": "a page of gallery"]
        let what = parts.lazy.compactMap { named[$0] }.first ?? "not a title's page"
        self = .notATitle("\(Self.shown(trimmed)) is \(what) on IMDb, not a title's: give a title's link (imdb.com/title/tt…), its ID (tt0076759) or its name.")
    }

    /// `tt` and 7 or 8 digits (any case), lower-cased; `nil` for anything else.
    static func titleID(_ text: String) -> String? {
        text.wholeMatch(of: /[tT][tT][0-9]{7,8}/) == nil ? nil : text.lowercased()
    }

    /// The link as typed, cut short and without control characters: it is quoted back in a message.
    private static func shown(_ text: String) -> String {
        let clean = safe(text)
        return clean.count > 80 ? String(clean.prefix(79)) + "…" : clean
    }
}
