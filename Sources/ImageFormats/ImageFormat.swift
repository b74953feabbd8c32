import Foundation

/// The image formats a poster may be saved as, told from the bytes, never the URL. Shared by OMDbKit
/// (which saves posters) and TerminalImages (which draws them).
public enum ImageFormat: String, Sendable, CaseIterable {
    /// The formats OMDb's poster hosts serve.
    case jpeg, png, gif, webp

    /// How many leading bytes ``init(sniffing:)`` needs to tell every format.
    public static let signatureLength = 12

    /// The format whose signature starts `data`; `nil` for anything else (an HTML error page served with 200).
    public init?(sniffing data: Data) {
        let bytes = [UInt8](data.prefix(Self.signatureLength))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The file extension, without the dot.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}
