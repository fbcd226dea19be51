// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that `swift test` at the root never builds them.
// They use the root package by path and are always built in release mode:
//     cd Benchmarks && swift build -c release
let package = Package(
    name: "swift-keychain-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-keychain", path: ".."),
        // swift-crypto's own P-256 sign, the baseline of the SecKey benchmark (KeyBench.swift).
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        // Our own view of the system SQLite, for the raw-SQLite floor (the root's CSQLite is a
        // target, not a product, so it cannot be used from here).
        .systemLibrary(name: "CSQLiteBench", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "keychain-bench",
            dependencies: [
                "CSQLiteBench",
                .product(name: "KeychainServices", package: "swift-keychain"),
                .product(name: "KeychainStore", package: "swift-keychain"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
