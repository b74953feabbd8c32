import Foundation
@testable import LineEditing

/// The history file, read back: lines without control characters, at most the limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHistory(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = FuzzFolder.url.appendingPathComponent("history")
    try? Data(bytes: data, count: size).write(to: file)
    let lines = History(file: file, secret: nil).load()
    precondition(lines.count <= History.limit, "more lines than the limit")
    return 0
}
