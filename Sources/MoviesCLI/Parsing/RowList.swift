import Foundation

/// The rows a command is about, as typed (`2`, `1-3`, `1,3-4`, `2 5`), in that order, each once.
struct RowList: Equatable, Sendable, ExpressibleByIntegerLiteral {
    /// The row numbers, from 1.
    let numbers: [Int]

    /// The most rows one list may name, so `show 1-99999999` is refused at once.
    static let limit = 1000

    init(_ numbers: [Int]) { self.numbers = numbers }
    init(integerLiteral value: Int) { numbers = [value] }

    /// The list in `text`; `nil` when it is not one (a word, a zero, a range backwards, too many rows).
    init?(_ text: String) {
        var numbers: [Int] = []
        var seen = Set<Int>()
        let pieces = text.split { $0 == "," || $0 == " " }
        guard !pieces.isEmpty else { return nil }
        for piece in pieces {
            let ends = piece.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard ends.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
                  let low = Int(ends[0]), let high = Int(ends.last!), low >= 1, low <= high,
                  high - low < Self.limit else { return nil }
            for number in low...high where seen.insert(number).inserted {
                numbers.append(number)
                if numbers.count > Self.limit { return nil }
            }
        }
        self.numbers = numbers
    }
}
