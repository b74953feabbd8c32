/// 64-bit FNV-1a: fast on short keys, and the same on every run and platform, unlike `Hasher`.
/// Poster names carry it (so it must never change), and the folder's name table uses it.
enum FNV1a {
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}
