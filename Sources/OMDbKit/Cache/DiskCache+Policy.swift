import Foundation

// MARK: - What is kept, under which name, for how long (pure functions)

extension DiskCache {
    /// The request as the cache names it: the URL without `apikey`, user and password, query items
    /// sorted. Two keys, or none, share their entries, and no secret reaches disk.
    package static func key(for url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.user = nil
        components.password = nil
        let items = (components.queryItems ?? []).filter { $0.name.lowercased() != "apikey" }
        components.queryItems = items.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
        if components.queryItems?.isEmpty == true { components.queryItems = nil }
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        return components.string ?? url.absoluteString
    }

    /// How long to keep `response`, in seconds: OMDb's answers for their `max-age` (a day by default)
    /// or `override`, `Movie not found!` an hour at most; `nil` for anything else.
    package static func lifetime(of response: HTTPResponse, override: TimeInterval?) -> TimeInterval? {
        guard response.statusCode == 200 else { return nil }
        do {
            guard try OMDbAnswer.decode(Envelope.self, from: response.body).Response?.value == true else { return nil }
            var maxAge: TimeInterval?
            for directive in (response.headers["cache-control"] ?? "").split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1)
                    .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                switch parts.first {
                case "max-age"? where parts.count == 2:
                    // Digits past any Int (not a number to Int) are the longest life too.
                    let digits = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    if !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) {
                        maxAge = Int(digits).map(TimeInterval.init) ?? maximumLifetime
                    }
                case "no-store"?, "no-cache"?, "private"?:
                    // Nothing OMDb sends today; obeyed in case it ever does.
                    return nil
                default: break
                }
            }
            return min(override ?? maxAge ?? defaultLifetime, maximumLifetime)
        } catch let envelope as OMDbEnvelope where envelope.message.trimmingCharacters(in: .whitespaces).lowercased() == "movie not found!" {
            return min(notFoundLifetime, override ?? notFoundLifetime)
        } catch {
            return nil
        }
    }
}
