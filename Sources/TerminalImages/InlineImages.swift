import Foundation
import ImageFormats

/// Posters drawn in the terminal by `show N`, where the terminal has a protocol for it. Pure: detection
/// reads only the environment given.
public enum InlineImages {
    /// The setting: `auto` detects the terminal, the others force a protocol or turn drawing off.
    public enum Setting: String, Sendable, CaseIterable {
        case auto, iterm, kitty, blocks, off
    }

    /// How an image reaches the screen.
    public enum Kind: String, Sendable, Equatable {
        /// iTerm2's `OSC 1337 ; File=…`: any image format, bytes as they are (iTerm2, WezTerm, VS Code).
        case iterm
        /// kitty's graphics protocol, `a=T,f=100`: PNG only (kitty, Ghostty).
        case kitty
        /// Half blocks in 24-bit colour (`COLORTERM=truecolor`): baseline JPEG only, decoded here.
        case blocks
    }

    /// The protocol to draw with, or `nil`: always `nil` when stdout is not a terminal, whatever the setting.
    public static func detect(_ setting: Setting, environment: [String: String], outputIsTerminal: Bool) -> Kind? {
        guard outputIsTerminal else { return nil }
        // A forced protocol is the kind of its name; `off` is none.
        guard setting == .auto else { return Kind(rawValue: setting.rawValue) }
        let program = environment["TERM_PROGRAM"]?.lowercased() ?? ""
        if ["iterm.app", "wezterm", "vscode"].contains(program) { return .iterm }
        if program == "ghostty" || !(environment["KITTY_WINDOW_ID"] ?? "").isEmpty || environment["TERM"] == "xterm-kitty" {
            return .kitty
        }
        let colour = environment["COLORTERM"]?.lowercased() ?? ""
        if colour == "truecolor" || colour == "24bit", (environment["NO_COLOR"] ?? "").isEmpty, environment["TERM"] != "dumb" {
            return .blocks
        }
        return nil
    }

    /// What drawing a poster came to.
    public enum Drawing: Sendable, Equatable {
        /// The bytes that draw it.
        case drawn(String)
        /// Not drawn, and why, in a person's words (`this JPEG is progressive, and …`).
        case refused(why: String)
        /// The command was cancelled (Ctrl-C) while the poster was being decoded.
        case cancelled
    }

    /// Draws `image` with `kind`: the bytes, or why not. Decoding for half blocks stops when the task is cancelled.
    /// - Parameter columns: how wide half blocks draw (the other protocols let the terminal size the image).
    public static func draw(_ image: Data, using kind: Kind, columns: Int = 24) -> Drawing {
        let format = ImageFormat(sniffing: image)
        switch kind {
        case .iterm:
            let base64 = image.base64EncodedString()
            return .drawn("\u{1B}]1337;File=inline=1;size=\(image.count);preserveAspectRatio=1:\(base64)\u{07}")
        case .kitty:
            guard format == .png else {
                return .refused(why: "only PNG posters can be drawn in this terminal (this one is \(name(of: format)))")
            }
            // The payload goes in chunks of at most 4096 base64 bytes; m=1 says more follow.
            let payload = Array(image.base64EncodedString().utf8)
            return .drawn(stride(from: 0, to: max(1, payload.count), by: 4096).map { start in
                let end = min(start + 4096, payload.count)
                let control = (start == 0 ? "a=T,f=100," : "") + "m=\(end < payload.count ? 1 : 0)"
                return "\u{1B}_G\(control);\(String(decoding: payload[start..<end], as: UTF8.self))\u{1B}\\"
            }.joined())
        case .blocks:
            guard format == .jpeg else {
                return .refused(why: "only JPEG posters can be drawn here (this one is \(name(of: format)))")
            }
            do {
                return .drawn(HalfBlocks.lines(try JPEGDecoder.decode(image), columns: columns).joined(separator: "\n"))
            } catch .cancelled {
                return .cancelled
            } catch .tooLarge(let width, let height) {
                return .refused(why: "this JPEG says it is \(width)×\(height) pixels, more than can be drawn here")
            } catch .unsupported {
                return .refused(why: "this JPEG is progressive, and only plain (baseline) JPEGs can be drawn here")
            } catch {
                return .refused(why: "this JPEG could not be read (it is damaged or cut short)")
            }
        }
    }

    /// `JPEG`, `PNG`, `GIF`, `WebP`, or `not an image`.
    private static func name(of format: ImageFormat?) -> String {
        format.map { $0 == .webp ? "WebP" : $0.rawValue.uppercased() } ?? "not an image"
    }
}
