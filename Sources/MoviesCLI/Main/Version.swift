import OMDbKit

extension Movies {
    /// What `movies --version` prints: `movies 0.2.0 (OMDbKit 0.2.0, Swift 6.3.1, Linux x86_64)`; the
    /// package has one version, which OMDbKit declares.
    static var versionLine: String {
        "movies \(OMDbKit.version) (OMDbKit \(OMDbKit.version), Swift \(swiftVersion), \(platform))"
    }

    /// The compiler that built this binary; the language has no run-time way to ask.
    static let swiftVersion: String = {
        #if compiler(>=7.0)
        return "7.0 or later"
        #elseif compiler(>=6.4)
        return "6.4"
        #elseif compiler(>=6.3.2)
        return "6.3.2"
        #elseif compiler(>=6.3.1)
        return "6.3.1"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }()

    /// The operating system and architecture this binary was built for.
    static let platform: String = {
        #if os(Linux)
        let system = "Linux"
        #elseif os(macOS)
        let system = "macOS"
        #else
        let system = "unknown OS"
        #endif
        #if arch(x86_64)
        let machine = "x86_64"
        #elseif arch(arm64)
        let machine = "arm64"
        #else
        let machine = "unknown architecture"
        #endif
        return "\(system) \(machine)"
    }()
}
