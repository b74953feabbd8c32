import Foundation

/// An executable product of this package that the build made beside the tests (`movies`): next to
/// the test bundle, or the test binary, else in `.build/debug/` of the checkout.
public func builtProduct(_ name: String) -> URL {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let besideTests = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name)
    let candidates = [
        besideTests,
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
        root.appendingPathComponent(".build/debug/\(name)"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? besideTests
}
