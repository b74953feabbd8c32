import Foundation

/// One cached answer on disk: a format line, a JSON header line (the full key, the expiry, the
/// body's length and SHA-256: a collision or damage reads as a miss), then the body.
struct CacheEntry: Equatable {
    let key: String
    let expires: Date
    let status: Int
    let contentType: String?
    let body: Data

    static let magic = Data("movies-cache 1\n".utf8)

    private struct Header: Codable {
        let key: String
        let expires: Double
        let status: Int
        let contentType: String?
        let bytes: Int
        let sha256: String
    }

    func encoded() -> Data {
        let header = Header(key: key, expires: expires.timeIntervalSince1970, status: status, contentType: contentType,
                            bytes: body.count, sha256: SHA256.hex(body))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // JSON never holds a raw newline, so the header is exactly one line.
        return Self.magic + ((try? encoder.encode(header)) ?? Data()) + Data("\n".utf8) + body
    }
}

extension CacheEntry {
    /// `nil` for anything that is not a whole, intact entry.
    init?(decoding data: Data) {
        guard data.starts(with: Self.magic) else { return nil }
        let rest = data.dropFirst(Self.magic.count)
        guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")),
              let header = try? JSONDecoder().decode(Header.self, from: rest[..<newline]) else { return nil }
        let body = Data(rest[rest.index(after: newline)...])
        guard body.count == header.bytes, SHA256.hex(body) == header.sha256 else { return nil }
        self.init(key: header.key, expires: Date(timeIntervalSince1970: header.expires), status: header.status,
                  contentType: header.contentType, body: body)
    }
}
