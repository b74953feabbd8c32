import Foundation

/// A folder of the fuzzer's own (mode 700, as the tool's folders are), for the targets that read a
/// file back: made once per process, the file in it rewritten for every input.
enum FuzzFolder {
    static let url: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("movies-fuzz-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        atexit { try? FileManager.default.removeItem(at: FuzzFolder.url) }
        return url
    }()
}
