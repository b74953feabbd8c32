import CCurl
import Foundation
@testable import OMDbCurl
import OMDbKit
import Testing
import TestSupport

/// With no CA variable set, the system's certificates are read from libcurl's built-in folder
/// alone, one when a handshake needs it, instead of its bundle file parsed whole (about 50 ms of
/// CPU) for every connection as well.
@Suite struct SystemCAFolderTests {
    /// OpenSSL finds a folder's certificates by hash name (`1a2b3c4d.0`): only such names that lead
    /// to a file count; bundles, other names and links to nothing (another system's folder,
    /// mounted without the files its links lead to) do not.
    @Test func onlyHashNamesThatLeadToAFileCount() async throws {
        try await withTemporaryFolder { folder in
            #expect(SystemCA.hashedCertificates(in: folder.path) == 0)
            #expect(SystemCA.hashedCertificates(in: folder.appendingPathComponent("missing").path) == 0)
            for name in ["ca-certificates.crt", "1a2b3c4d.pem", "1a2b3c4.0", "1a2b3c4dx.0", "1A2B3C4D.0", "1a2b3c4d.", "1a2b3c4d.0x", "1a2b3c4g.0"] {
                try Data().write(to: folder.appendingPathComponent(name))
            }
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("0a0b0c0d.0").path,
                                                       withDestinationPath: "/nonexistent/ca.pem")
            #expect(SystemCA.hashedCertificates(in: folder.path) == 0)
            try Data().write(to: folder.appendingPathComponent("1a2b3c4d.1"))
            try Data().write(to: folder.appendingPathComponent("1a2b3c4d.12"))
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("5e6f7a8b.0").path, withDestinationPath: "1a2b3c4d.pem")
            #expect(SystemCA.hashedCertificates(in: folder.path) == 3)
        }
    }

    /// The folder is read alone only when it holds no fewer certificates than the bundle: a CA
    /// appended to the bundle by hand (a company's proxy) keeps libcurl's defaults, bundle and folder.
    @Test func aBundleWithMoreCertificatesThanTheFolderKeepsTheDefaults() async throws {
        try await withTemporaryFolder { folder in
            let certificates = folder.appendingPathComponent("certs")
            try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
            try Data(CurlTransportOverTLSLabTests.unrelatedCA.utf8).write(to: certificates.appendingPathComponent("1a2b3c4d.0"))
            let bundle = certificates.appendingPathComponent("ca-certificates.crt")
            try Data(CurlTransportOverTLSLabTests.unrelatedCA.utf8).write(to: bundle)
            #expect(SystemCA.certificates(inBundle: bundle.path) == 1)
            #expect(SystemCA.serves(folder: certificates.path, bundle: bundle.path))
            try Data((CurlTransportOverTLSLabTests.unrelatedCA + CurlTransportOverTLSLabTests.unrelatedCA).utf8).write(to: bundle)
            #expect(SystemCA.certificates(inBundle: bundle.path) == 2)
            #expect(!SystemCA.serves(folder: certificates.path, bundle: bundle.path))
            // An empty bundle, or one that is not a file, is not read as one: the defaults stay.
            try Data().write(to: bundle)
            #expect(SystemCA.certificates(inBundle: bundle.path) == nil)
            #expect(SystemCA.certificates(inBundle: certificates.path) == nil)
            #if os(Linux)
            // A file longer than its size says (it grew since, or /proc's, which say 0) is read to its end.
            #expect(SystemCA.certificates(inBundle: "/proc/self/status") == 0)
            #endif
            #expect(!SystemCA.serves(folder: folder.appendingPathComponent("empty").path, bundle: nil))
        }
    }

    /// Only OpenSSL's family reads a folder one certificate at a time (and some TLS libraries
    /// ignore a folder): with another, or OpenSSL compiled in but not selected, the defaults stay.
    @Test func onlyAnOpenSSLLibcurlReadsTheFolderAlone() {
        // As curl_version_info names the TLS library (what the tool asks), and in curl_version()'s text.
        #expect(SystemCA.isOpenSSL(tls: "OpenSSL/3.0.15"))
        #expect(SystemCA.isOpenSSL(tls: "LibreSSL/3.3.6"))
        #expect(SystemCA.isOpenSSL(tls: "libcurl/7.88.1 OpenSSL/3.0.15 zlib/1.2.13 brotli/1.0.9 nghttp2/1.52.0"))
        #expect(!SystemCA.isOpenSSL(tls: "GnuTLS/3.7.9"))
        #expect(!SystemCA.isOpenSSL(tls: "rustls-ffi/0.12.0/rustls/0.22.0"))
        #expect(!SystemCA.isOpenSSL(tls: "Schannel (OpenSSL/3.0.0)"))
        #expect(!SystemCA.isOpenSSL(tls: ""))
    }

    /// The TLS library is asked of curl_version_info, not read from curl_version()'s text: that
    /// text names OpenLDAP's version, and asking OpenLDAP initialises it (every SASL plugin loaded,
    /// the host's name looked up), about 2.4 ms before a one-shot's first request. The answer is
    /// the TLS library alone, and the same as the text names.
    @Test(.enabled(if: Self.builtInFolder != nil, "this libcurl names no built-in CA folder (older than 7.84, or built without one)"))
    func theTLSLibraryIsAskedOfLibcurlsVersionInfo() throws {
        _ = try CurlTransport(timeout: 5, environment: [:])
        let tls = String(cString: ccurl_ssl_version())
        #expect(tls.hasPrefix("OpenSSL/"))
        #expect(!tls.contains(" "))
        #expect(SystemCA.found() != nil)
        #if os(Linux)
        // OpenLDAP left alone: none of the SASL plugins it loads when initialised is mapped
        // (libsasl2 itself is, as a library libcurl links).
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        #expect(!maps.contains("/sasl2/"))
        #endif
    }

    /// Where libcurl has one built in (Debian's OpenSSL libcurl, 7.84 and later), its folder is
    /// found and holds as many certificates as its bundle.
    @Test(.enabled(if: Self.builtInFolder != nil, "this libcurl names no built-in CA folder (older than 7.84, or built without one)"))
    func theBuiltInFolderIsFound() throws {
        _ = try CurlTransport(timeout: 5, environment: [:])
        #expect(SystemCA.found()?.folder == Self.builtInFolder)
    }

    /// libcurl's built-in CA folder, as `curl-config --ca`'s sibling would say: asked of libcurl.
    static let builtInFolder: String? = {
        guard (try? CurlTransport(timeout: 5, environment: [:])) != nil, let easy = ccurl_easy_init() else { return nil }
        defer { ccurl_easy_cleanup(easy) }
        var path: UnsafePointer<CChar>?
        guard ccurl_easy_getinfo_string(easy, CCURLINFO_CAPATH, &path) == CCURLE_OK, let path else { return nil }
        let folder = String(cString: path)
        return SystemCA.hashedCertificates(in: folder) > 0 ? folder : nil
    }()

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
            let setup = CurlTransfer.Setup(timeout: 10, caFile: nil, caFolder: nil, systemCA: SystemCA(folder: folder.path, bundle: nil), userAgent: "movies-test")
            let answer = try await CurlTransfer(url: lab.api, setup: setup, engine: engine, timeout: 10).send()
            #expect((100..<600).contains(answer.statusCode))
            // A folder without the lab's CA: refused, and the message says how to trust a bundle.
            let other = folder.appendingPathComponent("other")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            try Data(CurlTransportOverTLSLabTests.unrelatedCA.utf8).write(to: other.appendingPathComponent("1a2b3c4d.0"))
            let refusing = CurlTransfer.Setup(timeout: 10, caFile: nil, caFolder: nil,
                                              systemCA: SystemCA(folder: other.path, bundle: "/etc/ssl/certs/ca-certificates.crt"), userAgent: "movies-test")
            await #expect { _ = try await CurlTransfer(url: lab.api, setup: refusing, engine: engine, timeout: 10).send() } throws: { error in
                guard case .notSent(let reason) = error as? TransportError else { return false }
                return reason.contains("refused by the system's CA folder \(other.path), read alone")
                    && reason.contains("CURL_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt")
            }
        }
    }

    /// `movies` as a user runs it, with no CA variable, in a mount namespace whose `/etc/ssl/certs`
    /// holds the lab's CA under its hash name and a bundle file of one certificate that OpenSSL
    /// cannot parse: the search completes, so libcurl never parsed the bundle. With libcurl's
    /// defaults (file and folder) it failed on that file ("the CA certificates could not be read").
    @Test(.enabled(if: TLSLab.available && Self.overlay != nil && Self.builtInFolder == "/etc/ssl/certs",
                   "needs the TLS lab, a mount namespace (unshare -m) and a libcurl whose CA folder is /etc/ssl/certs"))
    func theSystemBundleFileIsNotParsedWhenTheFolderServes() async throws {
        let lab = try TLSLab()
        defer { lab.stop() }
        try await withTemporaryFolder { folder in
            let certificates = folder.appendingPathComponent("certs")
            try FileManager.default.createDirectory(at: certificates, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: lab.ca), to: certificates.appendingPathComponent("lab.pem"))
            try FileManager.default.createSymbolicLink(atPath: certificates.appendingPathComponent("\(try Self.subjectHash(of: lab.ca)).0").path,
                                                       withDestinationPath: "lab.pem")
            try Data("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n".utf8)
                .write(to: certificates.appendingPathComponent("ca-certificates.crt"))
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
            let exited = try process.runWatchingExit()
            let hung = (try? await exited.wait(for: "movies to end", timeout: .seconds(30))) == nil
            if hung { process.terminate() }
            process.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(!hung, "movies did not end within 30 s")
            #expect(process.terminationStatus == 0 && printed.contains("Results for \"bench\""), "\(printed)")
        }
    }

    /// The built `movies`, beside the tests.
    static let movies = builtProduct("movies")

    /// `unshare` when this process can make a mount namespace (`unshare -m true` runs: root with
    /// CAP_SYS_ADMIN, which a container's root may lack) and `movies` is built.
    static let overlay: String? = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: movies.path),
              let unshare = ["/usr/bin/unshare", "/bin/unshare"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        return commandOutput([unshare, "-m", "true"]) != nil ? unshare : nil
    }()

    /// `openssl x509 -hash`: the name OpenSSL looks a CA up by in a folder.
    static func subjectHash(of certificate: String) throws -> String {
        try #require(commandText(["openssl", "x509", "-hash", "-noout", "-in", certificate]))
    }
}
