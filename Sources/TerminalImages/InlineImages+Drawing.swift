import Foundation
import ImageFormats

extension InlineImages {
    /// What drawing a poster came to.
    public enum Drawing: Sendable, Equatable {
        /// The bytes that draw it.
        case drawn(String)
        /// Not drawn, and why, in a person's words (`this JPEG is progressive, and …`).
        case refused(why: String)
        /// The command was cancelled (Ctrl-C) while the poster was being decoded.
        case cancelled

        /// For a refusal, the note that says so and where the poster is (`saved`, as shown): `poster not drawn:
        /// only JPEG posters can be drawn here (this one is WebP); saved as p/Alien (1979) [tt0078748].webp`; else `nil`.
        public func note(saved: String) -> String? {
            guard case .refused(let why) = self else { return nil }
            return "poster not drawn: \(why); saved as \(saved)"
        }
    }

    /// Draws `image` with `kind`: the bytes, or why not. Decoding for half blocks stops when the task is cancelled.
    /// - Parameter columns: how wide half blocks draw (the other protocols let the terminal size the image).
    public static func draw(_ image: Data, using kind: Kind, columns: Int = 24) -> Drawing {
        guard kind == .blocks, ImageFormat(sniffing: image) == .jpeg else {
            if let sequence = sequence(for: image, using: kind, columns: columns) { return .drawn(sequence) }
            return .refused(why: reason(for: image, using: kind))
        }
        do {
            let pixels = try JPEGDecoder.decode(image)
            return .drawn(HalfBlocks.lines(pixels, columns: columns).joined(separator: "\n"))
        } catch .cancelled {
            return .cancelled
        } catch .tooLarge(let width, let height) {
            return .refused(why: "this JPEG says it is \(width)×\(height) pixels, more than can be drawn here")
        } catch .unsupported {
            return .refused(why: reason(for: image, using: kind))
        } catch {
            return .refused(why: "this JPEG could not be read (it is damaged or cut short)")
        }
    }
}
