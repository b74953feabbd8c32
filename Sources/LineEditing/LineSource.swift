import Foundation

/// Piped lines, read through one shared iterator by the command loop or a question asked while a command runs.
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
