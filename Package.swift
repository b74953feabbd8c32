// swift-tools-version: 6.0
import PackageDescription

// No package dependencies, by design: the toolchain alone (Foundation, Dispatch,
// Synchronization, Testing) builds and tests everything here, and libcurl, which the toolchain's
// Foundation already needs, is loaded at run time by the CCurl target (no headers, no link flag).
let package = Package(
    name: "movies",
    platforms: [.macOS(.v15)],
    products: [
        // For programs of your own: the client (OMDbKit), the live transport it is handed
        // (OMDbCurl: `CurlTransport()`), and the offline catalogue (OMDbCatalogue: `CatalogueTransport()`).
        // README, "Use the library".
        .library(name: "OMDbKit", targets: ["OMDbKit"]),
        .library(name: "OMDbCurl", targets: ["OMDbCurl"]),
        .library(name: "OMDbCatalogue", targets: ["OMDbCatalogue"]),
        // A fake OMDb on 127.0.0.1, for tests (yours too) and for the benchmarks in Benchmarks/.
        .library(name: "FakeOMDb", targets: ["FakeOMDb"]),
        .executable(name: "movies", targets: ["movies"]),
    ],
    targets: [
        // Files written safely (exclusive temporaries, fsync, rename, locks; folders that are ours),
        // the XDG folders, the one executor for blocking file work, and the process's limits (ulimit)
        // with threads started or refused by them. Knows nothing of OMDb.
        .target(name: "Files"),
        // Image formats told from their first bytes: what OMDbKit saves and TerminalImages draws.
        .target(name: "ImageFormats"),
        // The library: the client actor, searches, typed records, posters, errors. No terminal code,
        // no network code: requests go through the OMDbTransport seam.
        .target(name: "OMDbKit", dependencies: ["Files", "ImageFormats"]),
        // The offline catalogue: a transport that answers as OMDb would, from the titles, posters and
        // seasons in Sources/OMDbCatalogue/Catalogue/, a resource copied beside every program built with it.
        .target(name: "OMDbCatalogue", dependencies: ["OMDbKit", "Files"], resources: [.copy("Catalogue")]),
        // libcurl's functions, found with dlopen/dlsym and called with the right argument types.
        .target(name: "CCurl"),
        // The live transport: libcurl's multi interface on a thread of its own.
        .target(name: "OMDbCurl", dependencies: ["OMDbKit", "CCurl", "Files"]),
        // A line editor for any prompt: keys, the line and its layout, history, completion, terminal
        // modes and signals. Knows nothing of OMDb; the tool injects its completer and history file.
        .target(name: "LineEditing", dependencies: ["Files"]),
        // Posters drawn in a terminal: a baseline JPEG decoder, half blocks, the iTerm2 and kitty protocols.
        // Knows nothing of OMDb.
        .target(name: "TerminalImages", dependencies: ["ImageFormats"]),
        // The front end: options, configuration, commands, rendering, the prompt. No networking of its own.
        .target(name: "MoviesCLI", dependencies: ["OMDbKit", "OMDbCatalogue", "OMDbCurl", "TerminalImages", "LineEditing", "Files"]),
        // `main` only wires the two together.
        .executableTarget(name: "movies", dependencies: ["MoviesCLI"]),
        // A fake OMDb over real sockets on 127.0.0.1, for tests and benchmarks only (movies-bench is a
        // package of its own, Benchmarks/, out of the product's build).
        .target(name: "FakeOMDb", dependencies: ["OMDbKit", "OMDbCatalogue", "OMDbCurl", "TestSupport"]),
        // What every test suite uses: latches and waits with deadlines that fail, temporary folders.
        .target(name: "TestSupport"),
        // What the library's test suites share: the fixtures, the catalogue, updates gathered by row.
        .target(name: "OMDbTestSupport", dependencies: ["OMDbKit", "OMDbCatalogue"]),
        // A test target per source target that has tests.
        .testTarget(name: "FilesTests", dependencies: ["TestSupport", "Files"]),
        .testTarget(name: "OMDbKitTests", dependencies: ["TestSupport", "OMDbTestSupport", "OMDbKit", "OMDbCatalogue", "FakeOMDb", "Files"]),
        .testTarget(name: "OMDbCurlTests", dependencies: ["TestSupport", "OMDbTestSupport", "OMDbCurl", "CCurl", "OMDbKit", "FakeOMDb"]),
        .testTarget(name: "OMDbCatalogueTests", dependencies: ["TestSupport", "OMDbTestSupport", "OMDbCatalogue", "OMDbKit", "Files"]),
        .testTarget(name: "FakeOMDbTests", dependencies: ["TestSupport", "FakeOMDb"]),
        .testTarget(name: "LineEditingTests", dependencies: ["TestSupport", "LineEditing"]),
        .testTarget(name: "TerminalImagesTests", dependencies: ["TestSupport", "TerminalImages", "OMDbKit"]),
        .testTarget(name: "MoviesCLITests", dependencies: ["TestSupport", "OMDbTestSupport", "MoviesCLI", "OMDbKit", "OMDbCatalogue", "OMDbCurl", "TerminalImages", "LineEditing", "Files"]),
        // Runs the built `movies` with piped stdin; depending on it makes `swift test` build it.
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "movies", "FakeOMDb", "OMDbKit", "OMDbCatalogue", "Files"]),
    ],
    swiftLanguageModes: [.v6]
)
