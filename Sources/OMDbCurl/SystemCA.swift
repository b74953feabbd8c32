import CCurl
import Foundation

/// The system's CA certificates read from libcurl's built-in folder alone (Debian's
/// `/etc/ssl/certs`), one when a handshake needs it, instead of libcurl's defaults, which also
/// parse its built-in bundle file whole (about 50 ms of CPU for 140 certificates with OpenSSL 3)
/// for every connection: libcurl keeps no parsed store beside a folder.
///
/// Used only where nobody is trusted less for it (``found()``): an OpenSSL libcurl whose folder
/// holds, under hash names that lead to files, at least as many certificates as its bundle
/// (`update-ca-certificates` makes both from one list). A CA appended to the bundle by hand, or a
/// folder whose links lead nowhere (another system's, mounted), keeps libcurl's defaults.
struct SystemCA: Sendable, Equatable {
    /// libcurl's built-in CA folder, read alone.
    let folder: String
    /// libcurl's built-in bundle file, not read (for the message that says how to trust it).
    let bundle: String?

    /// The system's CA folder to read alone, or nil to keep libcurl's defaults: a libcurl older
    /// than 7.84 (it cannot name them), with no built-in folder, or a TLS library other than
    /// OpenSSL's family (only OpenSSL reads a folder lazily; some ignore it).
    static func found() -> SystemCA? {
        guard isOpenSSL(version: String(cString: ccurl_version())) else { return nil }
        // Asked once: each asking makes and frees an easy handle, at every start of the tool.
        let (bundle, folder) = builtIn
        guard let folder, serves(folder: folder, bundle: bundle) else { return nil }
        return SystemCA(folder: folder, bundle: bundle)
    }

    /// libcurl's built-in CA bundle file and folder (`CURLINFO_CAINFO`, `CURLINFO_CAPATH`), as a
    /// new handle has them; nil where it has none or cannot say (before 7.84). libcurl must be loaded.
    static var builtIn: (bundle: String?, folder: String?) {
        guard let easy = ccurl_easy_init() else { return (nil, nil) }
        defer { ccurl_easy_cleanup(easy) }
        func info(_ id: Int32) -> String? {
            var path: UnsafePointer<CChar>?
            guard ccurl_easy_getinfo_string(easy, id, &path) == CCURLE_OK, let path else { return nil }
            return String(cString: path)
        }
        return (info(CCURLINFO_CAINFO), info(CCURLINFO_CAPATH))
    }

    /// Whether `folder` alone trusts as many as `bundle` and `folder` together: it holds at least
    /// one certificate, and no fewer than `bundle`. A bundle that is missing adds nothing; one that
    /// is not a regular file (a FIFO would hold the reader) or cannot be read keeps the defaults.
    static func serves(folder: String, bundle: String?) -> Bool {
        let held = hashedCertificates(in: folder)
        guard held > 0 else { return false }
        guard let bundle, FileManager.default.fileExists(atPath: bundle) else { return true }
        guard CurlTransport.kindIfNotARegularFile(bundle) == nil, let count = certificates(inBundle: bundle) else { return false }
        return held >= count
    }

    /// The certificates `folder` holds under their hash names (`1a2b3c4d.0`, as OpenSSL looks them
    /// up; `c_rehash`, `openssl rehash`, `update-ca-certificates`) that lead to a file: a link to
    /// nothing is no certificate.
    static func hashedCertificates(in folder: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        return names.filter { name in
            let parts = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 8, !parts[1].isEmpty,
                  parts[0].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }),
                  parts[1].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return false }
            var status = stat()
            return stat((folder as NSString).appendingPathComponent(name), &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        }.count
    }

    /// The certificates in a PEM bundle (its `BEGIN CERTIFICATE` lines), or nil when it cannot be
    /// read (or passes 16 MB: no CA bundle does).
    static func certificates(inBundle path: String) -> Int? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 16 << 20), data.count < 16 << 20 else { return nil }
        // Byte by byte, comparing at each dash (memmem is not in Swift's Glibc module).
        let marker = Array("-----BEGIN CERTIFICATE-----".utf8)
        return data.withUnsafeBytes { bytes -> Int in
            guard let base = bytes.baseAddress, bytes.count >= marker.count else { return 0 }
            var count = 0
            var index = 0
            while index <= bytes.count - marker.count {
                if bytes[index] == UInt8(ascii: "-"), memcmp(base + index, marker, marker.count) == 0 {
                    count += 1
                    index += marker.count
                } else {
                    index += 1
                }
            }
            return count
        }
    }

    /// Whether `curl_version()` names OpenSSL (or LibreSSL, BoringSSL, quictls) as the TLS library
    /// in use: one in parentheses is a backend compiled in but not selected.
    static func isOpenSSL(version: String) -> Bool {
        version.split(separator: " ").contains { word in
            ["OpenSSL/", "LibreSSL/", "BoringSSL", "quictls/"].contains { word.hasPrefix($0) }
        }
    }
}
