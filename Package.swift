// swift-tools-version: 6.0
import PackageDescription

// No package dependencies, by design: the toolchain alone (Foundation, Dispatch,
// Synchronization, Testing) builds and tests everything here.
let package = Package(
    name: "movies",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OMDbKit", targets: ["OMDbKit"]),
        .executable(name: "movies", targets: ["movies"]),
    ],
    targets: [
        // The library: client actor, models, posters, errors, offline catalogue. No terminal code.
        .target(name: "OMDbKit"),
        // The front end: options, configuration, commands, rendering, the prompt. No networking of its own.
        .target(name: "MoviesCLI", dependencies: ["OMDbKit"]),
        // `main` only wires the two together.
        .executableTarget(name: "movies", dependencies: ["MoviesCLI"]),
        // A fake OMDb over real sockets on 127.0.0.1, for tests and benchmarks only.
        .target(name: "FakeOMDb", dependencies: ["OMDbKit"]),
        // `swift run -c release movies-bench`: the built `movies` against a fake OMDb with a fixed latency.
        // Depending on `movies` makes SwiftPM build it alongside.
        .executableTarget(name: "movies-bench", dependencies: ["FakeOMDb", "OMDbKit", "movies"]),
        .testTarget(name: "FakeOMDbTests", dependencies: ["FakeOMDb"]),
        .testTarget(name: "OMDbKitTests", dependencies: ["OMDbKit", "FakeOMDb"]),
        .testTarget(name: "MoviesCLITests", dependencies: ["MoviesCLI", "OMDbKit"]),
        // Runs the built `movies` with piped stdin; depending on it makes `swift test` build it.
        .testTarget(name: "EndToEndTests", dependencies: ["movies", "FakeOMDb", "OMDbKit"]),
    ],
    swiftLanguageModes: [.v6]
)
