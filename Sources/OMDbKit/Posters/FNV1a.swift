/// 64-bit FNV-1a: fast on short keys, and the same on every run and platform, unlike `Hasher`.
/// Poster names carry it (so it must never change), and the folder's name table uses it.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = FNV1a()
        for byte in bytes { hash.add(byte) }
        return hash.value
    }
}
