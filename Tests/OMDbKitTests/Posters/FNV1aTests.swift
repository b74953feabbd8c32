import Testing
@testable import OMDbKit

@Suite struct FNV1aTests {
    /// The published FNV-1a 64-bit test vectors: poster names carry this hash, so it must never change.
    @Test(arguments: [("", 0xcbf2_9ce4_8422_2325 as UInt64), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8)])
    func matchesThePublishedVectors(text: String, expected: UInt64) {
        #expect(PosterNameTable.fnv1a(text.utf8) == expected)
        #expect(text.withCString { PosterNameTable.fnv1a($0) } == expected)
    }
}
