import Foundation

/// A body made fit for `JSONDecoder`, which refuses a whole body for one invalid byte or lone
/// surrogate (`"\ud83d"`): those become U+FFFD, so one odd character costs no record.
enum WireRepair {
    static func json(_ body: Data) -> Data {
        var bytes = [UInt8](body)
        if String(validating: bytes, as: UTF8.self) == nil {
            bytes = Array(String(decoding: bytes, as: UTF8.self).utf8)
        }
        return replacingLoneSurrogates(in: bytes).map { Data($0) } ?? Data(bytes)
    }

    /// The bytes with every lone `\uD800`–`\uDFFF` escape made `\ufffd`; `nil` when there was none.
    static func replacingLoneSurrogates(in bytes: [UInt8]) -> [UInt8]? {
        var output: [UInt8]?
        var index = 0
        var copied = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count else { index += 1; continue }
            guard bytes[index + 1] == UInt8(ascii: "u"), let value = hexEscape(bytes, at: index) else {
                index += 2   // `\\`, `\"`…: the escaped character is not the start of another escape
                continue
            }
            let isHigh = (0xD800...0xDBFF).contains(value), isLow = (0xDC00...0xDFFF).contains(value)
            if isHigh, let next = hexEscape(bytes, at: index + 6), (0xDC00...0xDFFF).contains(next) {
                index += 12
                continue
            }
            if isHigh || isLow {
                output = output ?? []
                output! += bytes[copied..<index]
                output! += Array(#"\ufffd"#.utf8)
                copied = index + 6
            }
            index += 6
        }
        guard var output else { return nil }
        output += bytes[copied...]
        return output
    }

    /// The value of the `\uXXXX` escape at `index`, or `nil` when there is none there.
    private static func hexEscape(_ bytes: [UInt8], at index: Int) -> UInt32? {
        guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
        return UInt32(String(decoding: bytes[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16)
    }
}
