import Foundation

extension URL {
    /// `scheme://host[:port]/` of an http(s) URL, lower-cased, with nothing of its user, path or
    /// query: what a connection is opened to. Nil for another scheme or a URL without a host.
    package var httpOrigin: URL? {
        guard let scheme = scheme?.lowercased(), ["http", "https"].contains(scheme), let host = host?.lowercased(), !host.isEmpty else { return nil }
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return URL(string: "\(scheme)://\(bracketed)" + (port.map { ":\($0)" } ?? "") + "/")
    }
}
