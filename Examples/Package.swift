// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "movies-examples",
    platforms: [.macOS(.v15)],   // the library's least macOS (it uses Synchronization's Mutex)
    dependencies: [
        // This repository cloned beside yours; `name:` keeps it "movies" whatever the folder's name.
        .package(name: "movies", path: ".."),
    ],
    targets: [
        // OMDbKit is the client; OMDbCurl is the live transport, OMDbCatalogue the offline one.
        .executableTarget(name: "live-search", dependencies: [
            .product(name: "OMDbKit", package: "movies"), .product(name: "OMDbCurl", package: "movies"),
        ]),
        .executableTarget(name: "offline-catalogue", dependencies: [
            .product(name: "OMDbKit", package: "movies"), .product(name: "OMDbCatalogue", package: "movies"),
        ]),
        .executableTarget(name: "two-searches", dependencies: [
            .product(name: "OMDbKit", package: "movies"), .product(name: "OMDbCatalogue", package: "movies"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
