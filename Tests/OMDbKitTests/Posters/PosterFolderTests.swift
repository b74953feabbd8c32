import Foundation
import Testing
@testable import OMDbKit
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A posters folder is checked before any download, and file errors read as words.
@Suite struct PosterFolderTests {
    @Test(arguments: [
        ("posters", nil), ("new/deeper/posters", nil), (".", nil),
        ("plain-file", "it is a file, not a folder"),
        ("plain-file/posters", "plain-file is a file, not a folder"),
        ("plain-file/a/b", "plain-file is a file, not a folder"),
    ] as [(String, String?)])
    func aFolderThatIsOrIsUnderAFileIsRefused(path: String, problem: String?) async throws {
        try await withTemporaryFolder { folder in
            try Data("x".utf8).write(to: folder.appendingPathComponent("plain-file"))
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("posters"), withIntermediateDirectories: true)
            let target = folder.appendingPathComponent(path)
            if let problem {
                #expect {
                    try PosterStore.checkFolder(target)
                } throws: { error in
                    guard case OMDbError.posterNotWritten(_, let reason) = error else { return false }
                    return reason.hasSuffix(problem)
                }
            } else {
                #expect(throws: Never.self) { try PosterStore.checkFolder(target) }
            }
            // Checking creates nothing.
            #expect(files(in: folder) == ["plain-file", "posters"])
        }
    }

    @Test func aDeviceIsNotAFolder() {
        #expect(throws: OMDbError.posterNotWritten(path: "/dev/null/x", reason: "/dev/null is a file, not a folder")) {
            try PosterStore.checkFolder(URL(fileURLWithPath: "/dev/null/x"))
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root writes anywhere: nothing to refuse"))
    func aFolderThatCannotBeWrittenIsRefused() async throws {
        try await withTemporaryFolder { folder in
            let locked = folder.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
            chmod(locked.path, 0o500)
            defer { chmod(locked.path, 0o700) }
            #expect(throws: OMDbError.self) { try PosterStore.checkFolder(locked.appendingPathComponent("posters")) }
        }
    }
}
