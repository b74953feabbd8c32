import Testing

/// A string argument of a parameterized test, named in `swift test`'s output as Swift writes it
/// (`"b\tc\u{1B}[31m"`): Swift Testing shows a plain `String` argument as it is, so escape codes
/// and line breaks in hostile inputs reached the terminal running the suite and split its lines.
public struct Typed: Sendable, Hashable, ExpressibleByStringLiteral, CustomTestStringConvertible {
    public let text: String

    public init(_ text: String) { self.text = text }
    public init(stringLiteral text: String) { self.text = text }

    public var testDescription: String { text.debugDescription }
}
