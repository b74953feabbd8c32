import Foundation
@testable import MoviesCLI

/// A `.env` file's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDotEnv(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = DotEnv.read(Data(bytes: data, count: size))
    return 0
}
