import Foundation
@testable import OMDbCurl
import OMDbKit
import Testing
import TestSupport

/// With no CA variable set, the system's certificates are read from libcurl's built-in folder
/// alone, one when a handshake needs it, instead of its bundle file parsed whole (about 50 ms of
/// CPU) for every connection as well.
@Suite struct SystemCAFolderTests {
    /// OpenSSL finds a folder's certificates by hash name (`1a2b3c4d.0`): a folder with none
    /// (only bundles, or nothing) is no folder to read alone.
    @Test func aFolderServesOnlyWithCertificatesUnderHashNames() async throws {
        try await withTemporaryFolder { folder in
            #expect(!CurlTransport.holdsHashedCertificates(folder.path))
            #expect(!CurlTransport.holdsHashedCertificates(folder.appendingPathComponent("missing").path))
            for name in ["ca-certificates.crt", "1a2b3c4d.pem", "1a2b3c4.0", "1a2b3c4dx.0", "1A2B3C4D.0", "1a2b3c4d."] {
                try Data().write(to: folder.appendingPathComponent(name))
            }
            #expect(!CurlTransport.holdsHashedCertificates(folder.path))
            try Data().write(to: folder.appendingPathComponent("1a2b3c4d.1"))
            #expect(CurlTransport.holdsHashedCertificates(folder.path))
        }
    }

    /// This machine's libcurl (Debian's has /etc/ssl/certs built in) names a folder that holds
    /// certificates by hash: the transport reads it alone.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/etc/ssl/certs/ca-certificates.crt"), "no Debian-style CA folder here"))
    func debiansBuiltInFolderIsFound() throws {
        _ = try CurlTransport(timeout: 5, environment: [:])
        #expect(CurlTransport.systemCAFolder() == "/etc/ssl/certs")
    }

    /// A server whose CA is only in the folder is verified: the folder is where the transfers look
    /// (the lab's CA is in no file or folder of the system's).
    @Test(.enabled(if: TLSLab.available, "needs python3 with h2 (PyPI) and the openssl command: .ci/run installs them"))
    func aCertificateInTheFolderAloneIsTrusted() async throws {
        let lab = try TLSLab()
        defer { lab.stop() }
        try await withTemporaryFolder { folder in
            let hash = try Self.subjectHash(of: lab.ca)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: lab.ca), to: folder.appendingPathComponent("\(hash).0"))
            let engine = try CurlEngine(maxConnectionsPerHost: 2, library: nil)
            defer { engine.post(.stop) }
            let setup = CurlTransfer.Setup(timeout: 10, caFile: nil, caFolder: nil, systemCAFolder: folder.path, userAgent: "movies-test")
            let answer = try await CurlTransfer(url: lab.api, setup: setup, engine: engine, timeout: 10).send()
            #expect((100..<600).contains(answer.statusCode))
        }
    }

    /// `movies` as a user runs it, with no CA variable, in a mount namespace whose `/etc/ssl/certs`
    /// holds the lab's CA under its hash name and, in place of the bundle file, a FIFO that holds
    /// whoever opens it for ever: the search completes, so the bundle file was never read. With
    /// libcurl's defaults (file and folder) the search hung on the FIFO until killed.
    @Test(.enabled(if: TLSLab.available && Self.overlay != nil, "needs the TLS lab, root and unshare (a mount namespace)"))
    func theSystemBundleFileIsNotReadWhenTheFolderServes() async throws {
        let lab = try TLSLab()
        defer { lab.stop() }
        try await withTemporaryFolder { folder in
            let certificates = folder.appendingPathComponent("certs")
            try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: lab.ca), to: certificates.appendingPathComponent("lab.pem"))
            try FileManager.default.createSymbolicLink(atPath: certificates.appendingPathComponent("\(try Self.subjectHash(of: lab.ca)).0").path,
                                                       withDestinationPath: "lab.pem")
            #expect(mkfifo(certificates.appendingPathComponent("ca-certificates.crt").path, 0o644) == 0)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(Self.overlay))
            process.arguments = ["-m", "--propagation", "private", "/bin/sh", "-c", "mount --bind \"$0\" /etc/ssl/certs && exec \"$@\"",
                                 certificates.path, Self.movies.path, "search", "bench", "--base-url", lab.api.absoluteString,
                                 "--api-key", lab.key, "--daily-limit", "unlimited"]
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "MOVIES_CACHE": "off",
                                   "XDG_STATE_HOME": folder.appendingPathComponent("state").path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = ContinuousClock.now + .seconds(30)
            while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            let hung = process.isRunning
            if hung { process.terminate() }
            process.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(!hung, "movies waited on the bundle file (a FIFO) for 30 s")
            #expect(process.terminationStatus == 0 && printed.contains("Results for \"bench\""), "\(printed)")
        }
    }

    /// The built `movies`, beside the tests.
    static let movies: URL = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("movies"),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("movies"),
                          root.appendingPathComponent(".build/debug/movies")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// `unshare` when this process can make a mount namespace (root) and `movies` is built.
    static let overlay: String? = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: movies.path),
              FileManager.default.fileExists(atPath: "/etc/ssl/certs") else { return nil }
        return ["/usr/bin/unshare", "/bin/unshare"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// `openssl x509 -hash`: the name OpenSSL looks a CA up by in a folder.
    static func subjectHash(of certificate: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "x509", "-hash", "-noout", "-in", certificate]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
