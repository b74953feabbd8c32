import Foundation

/// "Did you mean …?": the known word closest to a mistyped one (`moer` → `more`, `--josn` → `--json`).
enum DidYouMean {
    /// The word of `candidates` closest to `word` (the first on a tie); `nil` unless within 2 edits and
    /// fewer than half the word's length (`heat` is no `help`). `slips`: one slip of the hand at most
    /// (a swap, a letter missed or added, a neighbouring QWERTY key), so `prey` is no typo of `prev`.
    static func closest(to word: String, among candidates: [String], slips: Bool = false) -> String? {
        let word = word.lowercased(), most = slips ? 1 : 2
        guard word.count >= 3 else { return nil }
        var best: (word: String, distance: Int)?
        // No fewer edits than the lengths differ by: a pasted word of 40,000 letters is no typo of `more`,
        // and the table of its distance took seconds.
        for candidate in candidates where candidate != word && abs(candidate.count - word.count) <= most {
            let distance = distance(word, candidate.lowercased(), slips: slips)
            if distance <= most, distance * 2 < word.count, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.word
    }

    /// The optimal string alignment distance (insert, delete, replace, swap neighbours: one edit each);
    /// with `slips`, replacing a letter by one whose key is not beside it counts two.
    static func distance(_ a: String, _ b: String, slips: Bool = false) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : !slips || areNeighbours(a[i - 1], b[j - 1]) ? 1 : 2
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }

    /// QWERTY's letter rows; each row sits half a key to the right of the one above it.
    private static let rows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"].map(Array.init)

    /// Whether the keys of `a` and `b` touch: side by side, or above-left or above-right (`s` touches `w` and `e`).
    static func areNeighbours(_ a: Character, _ b: Character) -> Bool {
        func place(_ key: Character) -> (row: Int, column: Int)? {
            for (row, keys) in rows.enumerated() { if let column = keys.firstIndex(of: key) { return (row, column) } }
            return nil
        }
        guard let p = place(a), let q = place(b) else { return false }
        let (upper, lower) = p.row <= q.row ? (p, q) : (q, p)
        switch lower.row - upper.row {
        case 0: return abs(p.column - q.column) == 1
        case 1: return upper.column == lower.column || upper.column == lower.column + 1
        default: return false
        }
    }
}
