import Foundation
@testable import TerminalImages

/// The JPEG decoder and half blocks, on any bytes: a poster host writes them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Decodes, then draws with half blocks; refusals say why.
    _ = InlineImages.draw(Data(bytes: data, count: size), using: .blocks, columns: 24)
    return 0
}
