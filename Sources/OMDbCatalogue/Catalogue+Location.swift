import Files
import Foundation
import OMDbKit

// Where the catalogue is: a resource of this library (`Catalogue/`, copied by SwiftPM into a
// bundle beside every program that depends on it), or the copy `make install` puts in share/movies.
//
// The bundle is looked up here, never through SwiftPM's `Bundle.module`: that one stops the
// process (fatalError) when the bundle is missing, as it is beside an installed `movies`.

extension Catalogue {
    /// The catalogue that ships with the library, with its posters and seasons: a resource of
    /// `OMDbCatalogue` that SwiftPM copies beside the program built with it, so the program
    /// answers offline from any folder, with no path to give.
    ///
    /// ```swift
    /// let catalogue = try Catalogue.bundled()
    /// print(catalogue.count)   // 245
    /// ```
    /// - Throws: when the resource bundle is not beside the program (it was copied elsewhere
    ///   without the `…_OMDbCatalogue.resources` folder its build made), or cannot be read.
    public static func bundled() throws -> Catalogue {
        let executable = Bundle.main.executableURL
        guard let folder = bundledFolder(beside: executable) else {
            let place = executable?.deletingLastPathComponent().path ?? "the program's folder"
            throw AtomicFile.Problem.failed(path: place, reason: "the offline catalogue's resource bundle (…\(resourceBundleSuffix).resources, "
                + ".bundle on macOS) is not beside the program: copy it from the build folder (swift build --show-bin-path) with it")
        }
        return try Catalogue(folder: folder)
    }

    /// The folder of the catalogue the tool answers from: `$MOVIES_CATALOGUE`, else
    /// `<bin>/../share/movies` beside the running executable (where `make install` puts it), else
    /// the library's resource bundle beside it (`swift run`, the tests).
    package static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment,
                                      executable: URL? = Bundle.main.executableURL) -> URL? {
        var candidates: [URL] = []
        if let custom = environment["MOVIES_CATALOGUE"], !custom.isEmpty { candidates.append(URL(fileURLWithPath: custom)) }
        for binary in executableAndTarget(executable) {
            candidates.append(binary.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("share/movies", isDirectory: true))
        }
        return candidates.first(where: holdsCatalogue) ?? bundledFolder(beside: executable)
    }

    /// The catalogue in the resource bundle SwiftPM built beside `executable`
    /// (`<package>_OMDbCatalogue.resources`, or `.bundle` on macOS).
    static func bundledFolder(beside executable: URL?) -> URL? {
        for folder in executableAndTarget(executable).map({ $0.deletingLastPathComponent() }) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where name.hasSuffix(resourceBundleSuffix + ".resources") || name.hasSuffix(resourceBundleSuffix + ".bundle") {
                let bundle = folder.appendingPathComponent(name, isDirectory: true)
                let found = ["Catalogue", "Contents/Resources/Catalogue"].map { bundle.appendingPathComponent($0, isDirectory: true) }
                    .first(where: holdsCatalogue)
                if let found { return found }
            }
        }
        return nil
    }

    private static let resourceBundleSuffix = "_OMDbCatalogue"

    /// The executable, then, through a symbolic link (`~/bin/movies -> …/prefix/bin/movies`), the file it names.
    private static func executableAndTarget(_ executable: URL?) -> [URL] {
        guard let executable else { return [] }
        let target = executable.resolvingSymlinksInPath()
        return target == executable ? [executable] : [executable, target]
    }

    private static func holdsCatalogue(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("catalogue.json").path)
    }
}

extension CatalogueTransport {
    /// A transport answering from the catalogue that ships with the library (``Catalogue/bundled()``).
    /// Use it with ``configuration``:
    ///
    /// ```swift
    /// let client = OMDbClient(configuration: CatalogueTransport.configuration, transport: try CatalogueTransport())
    /// ```
    /// - Throws: as ``Catalogue/bundled()``.
    public init() throws { self.init(catalogue: try .bundled()) }

    /// What a client of this transport is set up with: its ``baseURL``, and a key, which the
    /// catalogue does not check.
    public static var configuration: OMDbClient.Configuration { .init(apiKey: apiKey, baseURL: baseURL) }
}
