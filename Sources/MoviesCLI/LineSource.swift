import Foundation

/// The prompt's lines, read by one consumer at a time: the command loop, or a question asked
/// while a command runs (`save` asking before it replaces a file). The loop is waiting for that
/// command then, so the answer can never be taken for a command, nor a command for an answer.
@MainActor
final class LineSource {
    private var iterator: AsyncStream<String>.Iterator

    init(_ lines: AsyncStream<String>) { iterator = lines.makeAsyncIterator() }

    /// The next line; `nil` at the end of input.
    func next() async -> String? {
        var copy = iterator
        defer { iterator = copy }
        return await copy.next(isolation: #isolation)
    }

    /// Asks `question` on stderr and reads a line: true only for `y` or `yes`.
    func confirm(console: Console) -> (String) async -> Bool {
        { [self] question in
            console.writeErr(question)
            let answer = await self.next()?.trimmingCharacters(in: .whitespaces).lowercased()
            return answer == "y" || answer == "yes"
        }
    }
}
