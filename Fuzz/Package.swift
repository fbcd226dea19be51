// swift-tools-version: 6.1
// libFuzzer targets for swift-keychain. A package of its own, so the main manifest
// stays free of unsafeFlags and fuzzing builds in its own folder: Fuzz/run.sh builds every target
// with `-sanitize=fuzzer,address -parse-as-library` and runs each for a bounded time.
import PackageDescription

let keychain: [Target.Dependency] = [
    .product(name: "KeychainServices", package: "swift-keychain"),
    .product(name: "KeychainStore", package: "swift-keychain"),
    "FuzzSupport",
]

let package = Package(
    name: "swift-keychain-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-keychain", path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .target(name: "FuzzSupport"),
        // Bytes decoded into an NSDictionary of mixed value types, parsed for all four calls.
        .executableTarget(name: "FuzzQueryParser", dependencies: keychain),
        // The on-disk decoders: attribute blobs, secret blobs, sealed blobs, password parameters.
        .executableTarget(name: "FuzzDecoders", dependencies: keychain),
        // Backup files: the decrypted item list a backup import reads.
        .executableTarget(name: "FuzzBackup", dependencies: keychain + [.product(name: "Crypto", package: "swift-crypto")]),
        // Certificates (DER), PKCS#12 files and distinguished names: SecCertificate and SecPKCS12Import's parsers.
        .executableTarget(name: "FuzzCertificates", dependencies: keychain),
        // SecKeyCreateWithData on arbitrary bytes (X9.63 and PKCS#1 external representations).
        .executableTarget(name: "FuzzKeyData", dependencies: keychain),
        // SSH agent message bodies: the request parser, written back and parsed again.
        .executableTarget(name: "FuzzSSHAgent", dependencies: [.product(name: "KeychainSSHAgent", package: "swift-keychain"), "FuzzSupport"]),
        // Keeper socket messages: read, written back, and run on a scratch keychain as keychaind runs them.
        .executableTarget(name: "FuzzKeeper", dependencies: keychain),
        // Whole D-Bus messages (dbus_message_demarshal), decoded into DBusValues and re-encoded.
        .executableTarget(name: "FuzzDBusMessage", dependencies: [.product(name: "KeychainDBus", package: "swift-keychain"), "FuzzSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
