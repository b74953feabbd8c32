import Foundation

/// Piped or typed lines, read by one consumer at a time: the command loop, or a question asked
/// while a command runs (`save` asking before it replaces a file), through one shared iterator.
@MainActor
public final class LineSource {
    private var iterator: AsyncStream<String>.Iterator

    public init(_ lines: AsyncStream<String>) { iterator = lines.makeAsyncIterator() }

    /// The next line; `nil` at the end of input.
    public func next() async -> String? {
        var copy = iterator
        defer { iterator = copy }
        return await copy.next(isolation: #isolation)
    }
}
