import Foundation
import Files
import OMDbKit

/// The keys this machine has seen OMDb accept, one hash a line in the state folder. A key not among them
/// sends its first request past the disk cache, so a wrong key is refused at once, not answered from what
/// another key kept. Failures to read or write only cost that check again.
struct AcceptedKeys: Sendable {
    let file: URL

    init(stateFolder: URL) { file = stateFolder.appendingPathComponent("accepted-keys.txt") }

    /// How many hashes are kept: the newest.
    static let limit = 100

    /// The line that stands for `key`.
    static func hash(of key: APIKey) -> String { String(SHA256.hex("movies accepted key: " + key.value).prefix(32)) }

    /// The hashes in the file, oldest first; none when it is missing, damaged or not to be trusted.
    var hashes: [String] {
        guard let data = try? AtomicFile(file).contents(upTo: Self.limit * 64) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func add(hash: String) {
        let kept = (hashes.filter { $0 != hash } + [hash]).suffix(Self.limit)
        guard (try? AtomicFile.prepareFolder(file.deletingLastPathComponent())) != nil else { return }
        try? AtomicFile(file).write(Data(kept.map { $0 + "\n" }.joined().utf8), sync: false)
    }
}
