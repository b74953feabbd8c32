import CCurl
import Files
import Foundation

/// The system's CA certificates read from libcurl's built-in folder alone (Debian's
/// `/etc/ssl/certs`), one when a handshake needs it, instead of libcurl's defaults, which also
/// parse its built-in bundle file whole for every connection.
///
/// Used only where nobody is trusted less for it (``found()``): an OpenSSL libcurl whose folder
/// holds, under hash names that lead to files, at least as many certificates as its bundle. A CA
/// appended to the bundle by hand, or a folder whose links lead nowhere, keeps libcurl's defaults.
struct SystemCA: Sendable, Equatable {
    /// libcurl's built-in CA folder, read alone.
    let folder: String
    /// libcurl's built-in bundle file, not read (for the message that says how to trust it).
    let bundle: String?

    /// The system's CA folder to read alone, or nil to keep libcurl's defaults: a libcurl older
    /// than 7.84 (it cannot name them), with no built-in folder, or a TLS library other than
    /// OpenSSL's family (only OpenSSL reads a folder lazily; some ignore it).
    static func found() -> SystemCA? {
        // libcurl's built-in bundle and folder (`CURLINFO_CAINFO`, `CURLINFO_CAPATH`), as a new handle
        // has them, asked once: each asking makes and frees an easy handle, at every start of the tool.
        guard isOpenSSL(tls: String(cString: ccurl_ssl_version())), let easy = ccurl_easy_init() else { return nil }
        defer { ccurl_easy_cleanup(easy) }
        func info(_ id: Int32) -> String? {
            var path: UnsafePointer<CChar>?
            guard ccurl_easy_getinfo_string(easy, id, &path) == CCURLE_OK, let path else { return nil }
            return String(cString: path)
        }
        let bundle = info(CCURLINFO_CAINFO)
        guard let folder = info(CCURLINFO_CAPATH), serves(folder: folder, bundle: bundle) else { return nil }
        return SystemCA(folder: folder, bundle: bundle)
    }

    /// Whether `folder` alone trusts as many as `bundle` and `folder` together: it holds at least
    /// one certificate, and no fewer than `bundle`. A bundle that is missing adds nothing; one that
    /// cannot be read keeps the defaults.
    static func serves(folder: String, bundle: String?) -> Bool {
        let held = hashedCertificates(in: folder)
        guard held > 0 else { return false }
        guard let bundle, FileManager.default.fileExists(atPath: bundle) else { return true }
        guard let count = certificates(inBundle: bundle) else { return false }
        return held >= count
    }

    /// The certificates `folder` holds under their hash names (`1a2b3c4d.0`, as OpenSSL looks them
    /// up; `c_rehash`, `openssl rehash`, `update-ca-certificates`) that lead to a file: a link to
    /// nothing is no certificate. On the way to every first connection: the names as bytes, no path
    /// made per name. A folder ``FileTrust`` refuses holds none.
    static func hashedCertificates(in folder: String) -> Int {
        guard let folder = try? OpenFolder(URL(fileURLWithPath: folder)) else { return 0 }
        var count = 0
        folder.names { name in
            var status = stat()
            if isHashName(UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self)),
               fstatat(folder.descriptor, name, &status, 0) == 0, status.st_mode & S_IFMT == S_IFREG {
                count += 1
            }
        }
        return count
    }

    /// Whether the NUL-terminated `name` is 8 lower-case hex digits, a dot and one or more digits.
    static func isHashName(_ name: UnsafePointer<UInt8>) -> Bool {
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        for index in 0..<8 where !(isDigit(name[index]) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(name[index])) { return false }
        guard name[8] == UInt8(ascii: "."), isDigit(name[9]) else { return false }
        var index = 10
        while name[index] != 0 {
            guard isDigit(name[index]) else { return false }
            index += 1
        }
        return true
    }

    /// The certificates in a PEM bundle (its `BEGIN CERTIFICATE` lines), or nil when it is empty or
    /// cannot be read as ``AtomicFile`` reads (a FIFO is refused, not waited on; past 16 MB, which
    /// no CA bundle is).
    static func certificates(inBundle path: String) -> Int? {
        let file = AtomicFile(URL(fileURLWithPath: path))
        guard let bytes = try? file.contents(upTo: 16 << 20), !bytes.isEmpty else { return nil }
        let marker = Array("-----BEGIN CERTIFICATE-----".utf8)
        return bytes.withUnsafeBytes { buffer -> Int in
            let base = buffer.baseAddress!
            let length = buffer.count
            var count = 0
            var offset = 0
            // From one dash to the next (memchr), comparing the marker there.
            while length - offset >= marker.count, let dash = memchr(base + offset, Int32(UInt8(ascii: "-")), length - offset) {
                let found = base.distance(to: UnsafeRawPointer(dash))
                if length - found >= marker.count, memcmp(base + found, marker, marker.count) == 0 {
                    count += 1
                    offset = found + marker.count
                } else {
                    offset = found + 1
                }
            }
            return count
        }
    }

    /// Whether libcurl's TLS library (``ccurl_ssl_version()``, or the same words in `curl_version()`'s
    /// text) is OpenSSL, LibreSSL, BoringSSL or quictls: one in parentheses is a backend compiled
    /// in but not selected.
    static func isOpenSSL(tls: String) -> Bool {
        tls.split(separator: " ").contains { word in
            ["OpenSSL/", "LibreSSL/", "BoringSSL", "quictls/"].contains { word.hasPrefix($0) }
        }
    }
}
