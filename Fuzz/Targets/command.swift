import Foundation
@testable import MoviesCLI

/// The prompt's command line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommand(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = Command(parsing: String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
    return 0
}
