// swift-tools-version: 6.0
import PackageDescription

// movies-bench, apart from the product's build (as swift-nio keeps its benchmarks): it depends on
// the package one folder up by path, and measures the `movies` it is given (`make bench` passes
// the release build). Tests/Lab/ of that package holds the TLS + HTTP/2 lab and the slow-disk shim.
let package = Package(
    name: "movies-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "movies", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "movies-bench",
            dependencies: [
                .product(name: "OMDbKit", package: "movies"),
                .product(name: "OMDbCatalogue", package: "movies"),
                .product(name: "FakeOMDb", package: "movies"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
