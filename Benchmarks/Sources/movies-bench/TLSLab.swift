#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What one host of the lab counted since its last reset.
struct HostCounts: Decodable {
    var tcp = 0, tls = 0, tlsResumed = 0, requestsH2 = 0, requestsHttp1 = 0, head = 0, apikey = 0

    /// GET requests (HEAD warm-ups are counted apart).
    var requests: Int { requestsH2 + requestsHttp1 }

    static func - (a: HostCounts, b: HostCounts) -> HostCounts {
        HostCounts(tcp: a.tcp - b.tcp, tls: a.tls - b.tls, tlsResumed: a.tlsResumed - b.tlsResumed, requestsH2: a.requestsH2 - b.requestsH2,
                   requestsHttp1: a.requestsHttp1 - b.requestsHttp1, head: a.head - b.head, apikey: a.apikey - b.apikey)
    }
}

/// The lab's counters for both hosts.
struct LabCounts: Decodable {
    var api = HostCounts()
    var posters = HostCounts()

    static func - (a: LabCounts, b: LabCounts) -> LabCounts { LabCounts(api: a.api - b.api, posters: a.posters - b.posters) }
}

/// `Tests/Lab/omdb_lab.py` running: two TLS 1.3 hosts (API and posters) behind delay proxies on
/// loopback, a throwaway CA, counters read through its stdin. It stops when the bench closes its
/// stdin, or dies.
final class TLSLab {
    struct Ready: Decodable {
        let api: String
        let posters: String
        /// The CA file to trust: the system bundle plus the lab CA.
        let ca: String
        /// The lab CA alone.
        let labCa: String
        let key: String
        let control: String
        let posterBytes: Int
        let python: String
        let openssl: String
    }

    let ready: Ready
    let script: String
    let python: String
    /// PYTHONPATH for the lab and the Python client.
    let pythonPath: String
    private let child: Child
    private var seen = 0

    var apiURL: URL { URL(string: ready.api)! }

    init(script: String, python: String, pythonPath: String, latency: Int, log: String) throws {
        self.script = script
        self.python = python
        self.pythonPath = pythonPath
        child = try Child(python, [script, "--latency", String(latency)], environment: Self.environment(pythonPath: pythonPath), stderrFile: log)
        guard let line = child.waitForLine(timeout: .seconds(60), where: { $0.hasPrefix("{") }) else {
            _ = child.finish()
            throw BenchError("the TLS lab did not start: see \(log)")
        }
        seen = line.index + 1
        ready = try Self.decoder.decode(Ready.self, from: Data(child.output[line.index].utf8))
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    static func environment(pythonPath: String) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var environment = ["PATH": inherited["PATH"] ?? "/usr/bin:/bin", "HOME": inherited["HOME"] ?? "/", "PYTHONPATH": pythonPath,
                           "PYTHONDONTWRITEBYTECODE": "1"]
        environment["TMPDIR"] = inherited["TMPDIR"]
        return environment
    }

    /// The counters since the last ``reset()``.
    func stats() throws -> LabCounts {
        struct Answer: Decodable { let stats: LabCounts }
        return try Self.decoder.decode(Answer.self, from: command("stats")).stats
    }

    func reset() throws { _ = try command("reset") }

    private func command(_ word: String) throws -> Data {
        child.send(word)
        guard let line = child.waitForLine(after: seen, timeout: .seconds(10), where: { $0.hasPrefix("{") }) else {
            throw BenchError("the TLS lab stopped answering (\(word))")
        }
        seen = line.index + 1
        return Data(child.output[line.index].utf8)
    }

    func stop() { _ = child.finish() }
}

/// How a `movies` child comes to trust the lab's CA: as a user whose system trusts it, the way
/// `update-ca-certificates` adds a CA. Every `movies` runs in a mount namespace of its own (through
/// `unshare`) where `/etc/ssl/certs` is a copy of the system's with the lab CA added: in the bundle
/// file (`ca-certificates.crt`, the system's CAs plus the lab's) and under its hash name in the
/// folder. No CA variable is set, so each client reads the system's store as it would for a user:
/// URLSession (which reads no variable) and libcurl's built-in file and folder alike. Both binaries
/// get the same, so a side-by-side stays fair; it costs a few milliseconds of start-up. Where the
/// overlay cannot be made, the lab's bundle is offered through `SSL_CERT_FILE` instead.
struct LabTrust {
    static let systemFolder = "/etc/ssl/certs"
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"
    /// The folder mounted over the system's.
    let folder: URL
    /// `unshare …` when the overlay works here; nil when only `SSL_CERT_FILE` can be offered.
    let unshare: String?
    /// What the child is given when the overlay cannot be made.
    let environment: [String: String]

    /// - Parameters: `bundle`, the system's CAs plus the lab's; `labCA`, the lab's alone; `folder`,
    ///   an empty folder for the copy of the system's.
    init(bundle: String, labCA: String, folder: URL) {
        self.folder = folder
        let found = ["/usr/bin/unshare", "/bin/unshare"].first { FileManager.default.isExecutableFile(atPath: $0) }
        var works = false
        if let found, FileManager.default.fileExists(atPath: Self.systemBundle), Self.copySystemFolder(to: folder, labCA: labCA),
           let probe = try? Child(found, Self.wrap(folder.path, "/bin/true", []), environment: ["PATH": "/usr/bin:/bin"], stderrFile: "/dev/null") {
            works = probe.finish().status == 0
        }
        unshare = works ? found : nil
        environment = works ? [:] : ["SSL_CERT_FILE": bundle]
    }

    /// The system's CA folder copied to `folder` (its links pointed at what they resolve to outside
    /// it, its files copied), the lab CA added to its bundle and under its hash name (`openssl x509 -hash`).
    private static func copySystemFolder(to folder: URL, labCA: String) -> Bool {
        let files = FileManager.default
        guard let names = try? files.contentsOfDirectory(atPath: systemFolder),
              let hash = try? Child("/usr/bin/env", ["openssl", "x509", "-hash", "-noout", "-in", labCA], environment: ["PATH": "/usr/bin:/bin"],
                                   stderrFile: "/dev/null"),
              hash.waitForLine(where: { !$0.isEmpty }) != nil, hash.finish().status == 0, let name = hash.output.first, !name.isEmpty else { return false }
        do {
            for entry in names where entry != "ca-certificates.crt" {
                let source = URL(fileURLWithPath: systemFolder).appendingPathComponent(entry)
                var isFolder: ObjCBool = false
                guard files.fileExists(atPath: source.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                // A file inside the folder itself is copied: a link to it would point at the
                // overlay, at itself.
                let target = source.resolvingSymlinksInPath().path
                if target.hasPrefix(systemFolder + "/") {
                    try files.copyItem(atPath: target, toPath: folder.appendingPathComponent(entry).path)
                } else {
                    try files.createSymbolicLink(atPath: folder.appendingPathComponent(entry).path, withDestinationPath: target)
                }
            }
            // The system's bundle with the lab CA appended, as update-ca-certificates would make it
            // (the lab's own bundle may come from another list: Python's).
            var combined = try Data(contentsOf: URL(fileURLWithPath: systemBundle))
            combined.append(try Data(contentsOf: URL(fileURLWithPath: labCA)))
            try combined.write(to: folder.appendingPathComponent("ca-certificates.crt"))
            try files.copyItem(atPath: labCA, toPath: folder.appendingPathComponent("movies-lab-ca.pem").path)
            var suffix = 0
            while files.fileExists(atPath: folder.appendingPathComponent("\(name).\(suffix)").path) { suffix += 1 }
            try files.createSymbolicLink(atPath: folder.appendingPathComponent("\(name).\(suffix)").path, withDestinationPath: "movies-lab-ca.pem")
            return true
        } catch {
            return false
        }
    }

    /// Root needs only a mount namespace; anyone else also a user namespace where they are root.
    private static func wrap(_ folder: String, _ executable: String, _ arguments: [String]) -> [String] {
        (getuid() == 0 ? [] : ["-r"]) + ["-m", "--propagation", "private", "/bin/sh", "-c",
                                        "mount --bind \"$0\" \(systemFolder) && exec \"$@\"", folder, executable] + arguments
    }

    /// The executable and arguments that run `executable arguments` trusting the lab.
    func command(_ executable: String, _ arguments: [String]) -> (String, [String]) {
        guard let unshare else { return (executable, arguments) }
        return (unshare, Self.wrap(folder.path, executable, arguments))
    }

    var description: String {
        unshare != nil ? "lab CA trusted as the system's: \(Self.systemFolder) overlaid in a private mount namespace by a copy with the lab CA added (bundle file and hashed folder), no CA variable set"
            : "lab CA offered through SSL_CERT_FILE only (no unshare/mount here): a URLSession movies will refuse the lab's certificates"
    }
}

/// Python 3 with `h2` (the lab) and `httpx[http2]` (the Python client), installed with pip into
/// `.build/python` when missing, as `.ci/run` installs pyte.
enum PythonTools {
    static let packages = ["h2==4.4.1", "httpx[http2]==0.28.1"]

    /// The python3 to run, the PYTHONPATH to give it, and whether the Python client can run.
    static func prepare(repository: URL, log: String) throws -> (python: String, path: String, client: Bool) {
        let inherited = ProcessInfo.processInfo.environment
        let paths = (inherited["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        guard let python = paths.map({ $0 + "/python3" }).first(where: FileManager.default.isExecutableFile) else {
            throw BenchError("--network tls needs python3 (with h2 from PyPI) and it is not on PATH")
        }
        let target = repository.appendingPathComponent(".build/python").path
        let path = [target, inherited["PYTHONPATH"]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ":")
        func imports(_ modules: String) -> Bool {
            guard let child = try? Child(python, ["-c", "import \(modules)"], environment: TLSLab.environment(pythonPath: path), stderrFile: "/dev/null")
            else { return false }
            return child.finish().status == 0
        }
        if !imports("h2, httpx") {
            print("installing \(packages.joined(separator: " ")) with pip into .build/python (for the TLS lab and the Python client)")
            var environment = inherited
            environment["PYTHONPATH"] = path
            let pip = try Child(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--root-user-action=ignore",
                                         "--target", target] + packages, environment: environment, stderrFile: log)
            if pip.finish().status != 0 { print("pip could not install them: see \(log)") }
        }
        guard imports("h2") else {
            throw BenchError("the TLS lab needs the Python package h2, which is not importable and pip could not install "
                + "(python3 -m pip install --target .build/python h2): see \(log)")
        }
        let client = imports("httpx, h2")
        if !client { print("httpx is missing and could not be installed: the Python client row is skipped") }
        return (python, path, client)
    }
}
