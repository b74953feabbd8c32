import Foundation
@testable import LineEditing

/// Terminal keys: any bytes, fed whole and then one at a time, give keys and never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeys(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var whole = KeyDecoder()
    _ = whole.feed(bytes) + whole.flush()
    var split = KeyDecoder()
    for byte in bytes { _ = split.feed([byte]) }
    _ = split.flush()
    return 0
}
