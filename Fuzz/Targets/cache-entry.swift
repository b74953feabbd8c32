import Foundation
@testable import OMDbKit

/// A cache entry read back from disk; one that decodes encodes to the same bytes' meaning.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCacheEntry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let entry = CacheEntry(decoding: Data(bytes: data, count: size)) else { return 0 }
    let again = CacheEntry(decoding: entry.encoded())
    precondition(again?.body == entry.body && again?.key == entry.key, "an entry does not survive encoding")
    return 0
}
