import Foundation
@testable import MoviesCLI

/// IMDb IDs and links as people paste them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIMDbLink(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if case .title(let id)? = IMDbReference(text) {
        precondition(id.hasPrefix("tt") && id.dropFirst(2).allSatisfy(\.isASCII), "not an ID: \(id)")
    }
    return 0
}
