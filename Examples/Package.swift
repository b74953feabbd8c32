// swift-tools-version: 6.0
import PackageDescription

// The README's "Use the library" program, built as a user would build it: a package of its own
// that depends on this one by path. `.ci/run` builds it and runs it against the fake OMDb server,
// and a test checks that the README shows this file's code as it is.
let package = Package(
    name: "movies-examples",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "movies", path: ".."),
    ],
    targets: [
        .executableTarget(name: "search-posters", dependencies: [
            .product(name: "OMDbKit", package: "movies"),
            .product(name: "OMDbCurl", package: "movies"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
