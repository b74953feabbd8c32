import Foundation

/// The checkout the package is built from.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// An executable product of this package that the build made beside the tests (`movies`): next to
/// the test bundle, or the test binary, else in `.build/debug/` of the checkout.
public func builtProduct(_ name: String) -> URL {
    let besideTests = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name)
    let candidates = [
        besideTests,
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
        repositoryRoot.appendingPathComponent(".build/debug/\(name)"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? besideTests
}

/// Copies the executable at `source` to `destination`, its file open for writing only on this
/// thread: `FileManager.copyItem` opens it without `O_CLOEXEC`, so a process another test starts
/// meanwhile inherits the descriptor, and running the copy fails with "Text file busy" for as long
/// as that process lives.
public func copyExecutable(_ source: URL, to destination: URL) throws {
    let bytes = try Data(contentsOf: source)
    let file = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
    guard file >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path]) }
    defer { close(file) }
    let written = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path]) }
}
