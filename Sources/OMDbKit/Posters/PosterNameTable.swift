#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Poster file names by their `[imdbID].ext` ending, packed in one byte buffer and found by a hash
/// of their ending, so a listing of 100,000 files allocates next to nothing per name.
struct PosterNameTable: Sendable {
    /// Every name, NUL-terminated, one after another. A replaced name stays, unused.
    private var bytes: [CChar] = []
    /// Where the name for each ending starts in `bytes`, by the ending's hash.
    private var starts: [UInt64: Int] = [:]
    /// The rare ending whose hash a different ending holds already, kept whole.
    private var collided: [String: String] = [:]
    private let hash: @Sendable (UnsafePointer<CChar>) -> UInt64

    /// - Parameter hash: hashes an ending; a seam for tests (a constant one makes every ending collide).
    init(hash: @escaping @Sendable (UnsafePointer<CChar>) -> UInt64 = PosterNameTable.fnv1a) {
        self.hash = hash
    }

    /// Adds a name found in the folder; of two with the same ending the smaller is kept, on every run.
    mutating func insertListed(_ name: UnsafePointer<CChar>) {
        guard let ending = Self.ending(of: name) else { return }
        let key = hash(ending)
        guard let start = starts[key] else {
            starts[key] = append(name)
            return
        }
        if hasEnding(ending, at: start) {
            let keptIsSmaller = bytes.withUnsafeBufferPointer { strcmp($0.baseAddress! + start, name) <= 0 }
            if !keptIsSmaller { starts[key] = append(name) }
            return
        }
        let (endingText, nameText) = (String(cString: ending), String(cString: name))
        if collided[endingText].map({ nameText.utf8.lexicographicallyPrecedes($0.utf8) }) ?? true {
            collided[endingText] = nameText
        }
    }

    /// Records a name just saved: it stands for its ending from now on, whatever was there.
    mutating func replace(with name: String) {
        name.withCString { name in
            guard let ending = Self.ending(of: name) else { return }
            let key = hash(ending)
            if let start = starts[key], !hasEnding(ending, at: start) {
                collided[String(cString: ending)] = String(cString: name)
            } else {
                starts[key] = append(name)
                collided[String(cString: ending)] = nil
            }
        }
    }

    /// The name held for `ending` (`[tt0090190].jpg`), if any.
    func name(ending: String) -> String? {
        ending.withCString { ending in
            if let start = starts[hash(ending)], hasEnding(ending, at: start) {
                return bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress! + start) }
            }
            return collided[String(cString: ending)]
        }
    }

    /// Forgets `name` (its file is gone).
    mutating func forget(_ name: String) {
        name.withCString { name in
            guard let ending = Self.ending(of: name) else { return }
            let key = hash(ending)
            if let start = starts[key], bytes.withUnsafeBufferPointer({ strcmp($0.baseAddress! + start, name) == 0 }) {
                starts[key] = nil
            }
            let endingText = String(cString: ending)
            if collided[endingText] == String(cString: name) { collided[endingText] = nil }
        }
    }

    // MARK: Bytes

    private mutating func append(_ name: UnsafePointer<CChar>) -> Int {
        let start = bytes.count
        bytes.append(contentsOf: UnsafeBufferPointer(start: name, count: strlen(name) + 1))
        return start
    }

    private func hasEnding(_ ending: UnsafePointer<CChar>, at start: Int) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            Self.ending(of: buffer.baseAddress! + start).map { strcmp($0, ending) == 0 } ?? false
        }
    }

    /// `[tt0090190].jpg` of `The Toxic Avenger (1984) [tt0090190].jpg`; none for a hidden name.
    static func ending(of name: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
        guard name.pointee != 0x2E else { return nil }
        return UnsafePointer(strrchr(name, 0x5B))
    }

    /// FNV-1a of a C string, read in place.
    static func fnv1a(_ text: UnsafePointer<CChar>) -> UInt64 {
        fnv1a(UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }

    /// 64-bit FNV-1a: the same on every run, unlike `Hasher`; poster names carry it, so it never changes.
    static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }
}
