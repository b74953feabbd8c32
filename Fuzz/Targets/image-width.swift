import Foundation
@testable import OMDbKit

/// Image headers: the width read from a poster's first bytes, and its format.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageWidth(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    _ = ImageFormat(sniffing: bytes)
    _ = ImageWidth.pixels(count: size) { Array(bytes[$0]) }
    return 0
}
