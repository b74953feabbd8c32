/// The package's version: of the library, and of the `movies` tool built on it (one package,
/// one version). Shown by `movies --version` and sent in the User-Agent.
public enum OMDbKit {
    /// The version, `major.minor.patch`.
    public static let version = "0.2.0"
}
