// swift-tools-version: 6.1
import PackageDescription

// On Apple platforms KeychainServices and KeychainAuthentication re-export the system frameworks
// (Security, LocalAuthentication); everywhere else they are implemented in this package.
// This is the one place that switch is made (the swift-crypto model).
let applePlatforms: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst]
// Everywhere else: where the engine and the Linux implementations are built.
let otherPlatforms: [Platform] = [.linux, .windows, .android, .openbsd, .wasi]
let useSystemFrameworks: [SwiftSetting] = [
    .define("KEYCHAIN_USE_SYSTEM_FRAMEWORKS", .when(platforms: applePlatforms)),
]
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// Synchronizable items through PostgreSQL (docs/sync.md): the engine (KeychainSync), the
// `keychain-sync` executable (separate so that SwiftNIO stays out of keychainctl and keychaind,
// which run it as a child), its tests and its benchmark. They are built only with the Sync trait,
// which is off by default: an application that depends on this package for KeychainServices or
// KeychainKit then resolves neither postgres-nio nor SwiftNIO (EndToEndTests'
// ClientDependencyTests checks a fresh client's Package.resolved). Our own scripts that need
// sync pass `--traits Sync` (scripts/test.sh, scripts/build-deb.sh, ...); the sanitizer runs
// (scripts/sanitizers.sh) leave it off. SwiftPM cannot leave a target out by trait, only a
// dependency, so every source file of those targets is wrapped in `#if Sync`; without the
// trait they compile to nothing, and keychain-sync to a stub that says so.
let syncTrait = Trait.trait(
    name: "Sync",
    description: "Synchronizable items through PostgreSQL: KeychainSync, keychain-sync and their tests (docs/sync.md)."
)

let package = Package(
    name: "swift-keychain",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "KeychainServices", targets: ["KeychainServices"]),
        .library(name: "KeychainAuthentication", targets: ["KeychainAuthentication"]),
        // Not a supported API: KeychainStore is the engine behind KeychainServices on Linux. It is a
        // product only because the sibling packages Benchmarks/ and Fuzz/ link it by path; almost all
        // of it is `package`-level, and the little that is public is there for the benchmarks.
        .library(name: "KeychainStore", targets: ["KeychainStore"]),
        .library(name: "KeychainKit", targets: ["KeychainKit"]),
        // Not a supported API either: the D-Bus layer of the Secret Service daemon, a product only
        // so that Fuzz/ can link it.
        .library(name: "KeychainDBus", targets: ["KeychainDBus"]),
        // Not a supported API either: the SSH agent, a product only so that Fuzz/ can link it.
        .library(name: "KeychainSSHAgent", targets: ["KeychainSSHAgent"]),
        // keychainctl is a small front that serves the per-credential command lines itself and
        // hands every other to keychainctl-full, the whole program (docs/design-notes.md,
        // "keychainctl's front").
        .executable(name: "keychainctl", targets: ["keychainctl"]),
        .executable(name: "keychainctl-full", targets: ["keychainctl-full"]),
        .executable(name: "keychaind", targets: ["keychaind"]),
        .executable(name: "git-credential-keychain", targets: ["git-credential-keychain"]),
        .executable(name: "docker-credential-keychain", targets: ["docker-credential-keychain"]),
        .executable(name: "keychain-sync", targets: ["keychain-sync"]),
    ],
    traits: [syncTrait],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // Only the Sync trait's targets use it, so SwiftPM resolves it only when the trait is on.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // Thin wrapper over the system SQLite (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // Thin wrapper over the system libdbus-1 (Debian: libdbus-1-dev), for the Secret Service daemon.
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"]), .brew(["dbus"])]
        ),
        // Small C shims for system calls Swift cannot call directly (variadic syscall(2) for the
        // kernel keyring, mlock, prctl, the peer of a Unix socket, pidfds).
        .target(name: "CKeychainSystem"),
        // The one lock for state shared between threads (docs/design-notes.md), for the engine
        // and for the D-Bus layer, which does not depend on the engine.
        .target(name: "KeychainLocking", swiftSettings: strict),
        // The Unix stream sockets of keychaind's doors (the SSH agent, the keeper) and of the
        // keeper's client: listening in a private folder, peers checked, length-prefixed messages.
        .target(name: "KeychainSockets", dependencies: ["CKeychainSystem", "KeychainLocking"], swiftSettings: strict),
        // The cryptography this package writes itself, because swift-crypto's API lacks it
        // (SHA-224, raw RSA and its paddings, OAEP with SHA-224/384/512, the X9.63 KDF, ECIES,
        // the PKCS#12 KDF, the Secret Service's Diffie-Hellman group and the big numbers under
        // them): one audit surface, tested against published vectors by KeychainCryptoTests.
        // Everything else is swift-crypto's (BoringSSL).
        .target(
            name: "KeychainCrypto",
            dependencies: [
                "CKeychainSystem",  // cks_secure_zero, for the wiping of secret big numbers
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "KeychainStore",
            dependencies: [
                "CSQLite",
                "CKeychainSystem",
                "KeychainLocking",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // The terminal password prompt (the reader and its line editor) that keychainctl and the
        // terminal authenticator share: above the engine, which holds only the keychain file.
        .target(name: "KeychainTerminal", dependencies: ["KeychainStore", "CKeychainSystem"], swiftSettings: strict),
        .target(
            name: "KeychainAuthentication",
            dependencies: [
                .target(name: "KeychainStore", condition: .when(platforms: otherPlatforms)),
                .target(name: "KeychainTerminal", condition: .when(platforms: otherPlatforms)),
            ],
            swiftSettings: strict + useSystemFrameworks
        ),
        .target(
            name: "KeychainServices",
            dependencies: [
                "KeychainAuthentication",
                .target(name: "KeychainStore", condition: .when(platforms: otherPlatforms)),
                // SecCertificate, SecTrust and SecPKCS12Import on Linux (docs/keys-and-certificates.md).
                .product(name: "X509", package: "swift-certificates", condition: .when(platforms: otherPlatforms)),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(platforms: otherPlatforms)),
                // SecKey's cryptography (on Apple platforms the Security framework has its own).
                .target(name: "KeychainCrypto", condition: .when(platforms: otherPlatforms)),
                // The keeper's client: SecItem calls of a served process go to keychaind.
                .target(name: "KeychainSockets", condition: .when(platforms: otherPlatforms)),
                .target(name: "KeychainLocking", condition: .when(platforms: otherPlatforms)),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: otherPlatforms)),
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: .when(platforms: otherPlatforms)),
            ],
            swiftSettings: strict + useSystemFrameworks
        ),
        // The Secret Service's model of collections and items, with no D-Bus in it: the in-memory
        // `session` collection and the keychain-backed one the daemon serves, and the sessions'
        // transport crypto (plain, and DH with AES-128-CBC).
        .target(
            name: "KeychainSecretService",
            dependencies: [
                "KeychainStore",
                "KeychainLocking",
                "CKeychainSystem",
                "KeychainCrypto",  // the DH group of the sessions
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // The D-Bus layer: connections, names, serving a subtree, calls and signals, and the
        // conversion of messages to and from `DBusValue`. The only code that touches libdbus.
        .target(name: "KeychainDBus", dependencies: ["CDBus", "CKeychainSystem", "KeychainLocking"], swiftSettings: strict),
        .target(
            name: "KeychainKit",
            dependencies: ["KeychainServices", "KeychainAuthentication", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        // The one reader of the per-credential command lines and what their output needs, shared
        // by keychainctl-full and the front (the credential helpers use its unbuffered writer): no
        // Foundation, no swift-argument-parser.
        .target(name: "KeychainctlCommandLine", swiftSettings: strict),
        // The one executor of those command lines, over the engine, for both programs: no
        // Foundation (only FoundationEssentials), no swift-argument-parser, no KeychainServices.
        .target(name: "KeychainctlPasswords", dependencies: ["KeychainctlCommandLine", "KeychainStore"], swiftSettings: strict),
        .executableTarget(
            name: "keychainctl",
            dependencies: ["KeychainctlCommandLine", "KeychainctlPasswords", "KeychainStore", "CKeychainSystem"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "keychainctl-full",
            dependencies: [
                "KeychainctlCommandLine",
                "KeychainctlPasswords",
                "KeychainServices",
                "KeychainStore",
                "KeychainTerminal",
                "CKeychainSystem",
                "KeychainSecretService",  // import --from gnome-keyring
                "KeychainCallerIdentity",  // list-access-rules, grant-access, revoke-access: keychaind's policy folder
                "KeychainSSHAgent",  // export -f openssh2, and the SSH key commands: key files and agents
                // Run under a credential helper's name, it is that helper (the Debian package's links).
                "KeychainCredentialHelpers",
                // export-key / import-key: PEM and DER key files.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // The Secret Service as D-Bus objects over the collections: the daemon's logic, as a
        // library so that tests can reach it.
        .target(
            name: "KeychainDaemon",
            dependencies: ["KeychainCallerIdentity", "KeychainDBus", "KeychainSecretService", "KeychainStore",
                           "KeychainServices", "KeychainSockets",
                           "KeychainAuthentication",  // the keeper's and the SSH agent's password prompts
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // Who is calling keychaind, from what the kernel says (the socket's peer, a pidfd, /proc),
        // and the policy that turns that into an application identifier and keychain access
        // groups (docs/isolation.md). The Secret Service door (KeychainDaemon) enforces it.
        .target(
            name: "KeychainCallerIdentity",
            dependencies: ["CKeychainSystem", "KeychainStore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        // The SSH agent protocol over keychain key items (docs/ssh-agent.md): the wire codec,
        // the agent and its Unix socket; keychaind serves it.
        .target(
            name: "KeychainSSHAgent",
            dependencies: [
                "KeychainServices", "KeychainStore", "KeychainLocking", "KeychainSockets",
                "KeychainAuthentication",  // the password prompt of a key that needs the user at each use
                "KeychainCrypto",  // the CRT parts of RSA keys shorter than swift-crypto's checked floor
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "keychaind",
            dependencies: [
                "KeychainDaemon", "KeychainDBus", "KeychainSecretService", "KeychainStore", "KeychainctlCommandLine",
                "KeychainSSHAgent", "KeychainAuthentication",
                "KeychainCallerIdentity",  // the SSH agent's callers, resolved as the keeper's are
                "CKeychainSystem",  // the system keeper becoming its own user
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // git's and docker's credential helpers over internet passwords, through the SecItem API
        // only (docs/credential-helpers.md); the library holds both, the executables call it.
        .target(name: "KeychainCredentialHelpers", dependencies: ["KeychainServices", "KeychainStore", "CKeychainSystem", "KeychainctlCommandLine"],
                swiftSettings: strict),
        .executableTarget(name: "git-credential-keychain", dependencies: ["KeychainCredentialHelpers"], swiftSettings: strict),
        .executableTarget(name: "docker-credential-keychain", dependencies: ["KeychainCredentialHelpers"], swiftSettings: strict),
        // The sync engine: sealed records, device keys, the PostgreSQL relay (docs/sync.md).
        .target(
            name: "KeychainSync",
            dependencies: [
                "KeychainStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Sync"])),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "keychain-sync",
            dependencies: ["KeychainSync", "KeychainStore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        // What pam_keychain.so (pam/, built by scripts/build-pam-module.sh) runs as the user logging
        // in to unlock or re-key the login keychain, or as root to hand the passwords to the
        // system keeper (docs/pam.md).
        .executableTarget(name: "keychain-pam-helper", dependencies: ["KeychainStore", "KeychainServices", "CKeychainSystem"], swiftSettings: strict),
        // The seed articles' code, with only the import line changed, run by SeedTests.
        .executableTarget(
            name: "seed-keychain-manager",
            dependencies: ["KeychainServices"],
            path: "Examples/SeedKeychainManager"
        ),
        .executableTarget(
            name: "seed-internet-password",
            dependencies: ["KeychainServices"],
            path: "Examples/SeedInternetPassword"
        ),
        .executableTarget(
            name: "seed-access-control",
            dependencies: ["KeychainServices"],
            path: "Examples/SeedAccessControl"
        ),
        // A helper process for tests that need several processes on one keychain.
        .executableTarget(name: "keychain-test-worker", dependencies: ["KeychainServices", "KeychainStore", "KeychainTestSupport"], path: "Tests/Worker"),
        // A helper process for the terminal tests of KeychainAuthentication (prompts on /dev/tty).
        // A SecItem program that only its environment makes embedded or served (the keeper's tests).
        .executableTarget(name: "keychain-served-client", dependencies: ["KeychainServices"], path: "Tests/ServedClient"),
        .executableTarget(name: "keychain-auth-probe", dependencies: ["KeychainAuthentication", "KeychainStore"], path: "Tests/AuthProbe"),
        // A private keychain per test, shared by the test targets.
        // KeychainServices and KeychainSockets: the in-process keeper that runs a suite served (SWIFT_KEYCHAIN_TEST_SERVED=1).
        .target(name: "KeychainTestSupport",
                dependencies: ["KeychainStore", "KeychainAuthentication", "KeychainServices", "KeychainSockets", "KeychainLocking"],
                path: "Tests/Support"),
        // Published test vectors for every primitive of KeychainCrypto.
        .testTarget(
            name: "KeychainCryptoTests",
            dependencies: [
                "KeychainCrypto", "KeychainTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "KeychainStoreTests", dependencies: ["KeychainStore", "KeychainTestSupport"]),
        .testTarget(name: "KeychainServicesTests", dependencies: ["KeychainServices", "KeychainAuthentication", "KeychainStore", "KeychainTestSupport"]),
        .testTarget(name: "KeychainAuthenticationTests", dependencies: ["KeychainAuthentication", "KeychainStore", "KeychainTerminal", "KeychainTestSupport"]),
        .testTarget(name: "KeychainKitTests", dependencies: ["KeychainKit", "KeychainAuthentication", "KeychainStore", "KeychainTestSupport"]),
        .testTarget(name: "KeychainSecretServiceTests", dependencies: ["KeychainSecretService", "KeychainCrypto", "KeychainStore", "KeychainTestSupport"]),
        .testTarget(name: "KeychainDBusTests", dependencies: ["KeychainDBus", "KeychainLocking"], swiftSettings: strict),
        .testTarget(name: "KeychainSyncTests", dependencies: ["KeychainSync", "KeychainStore", "KeychainTestSupport"]),
        // The sync figures of BENCHMARKS.md (Benchmarks/sync.sh builds it in release mode).
        .executableTarget(name: "keychain-sync-bench", dependencies: ["KeychainSync", "KeychainStore", "KeychainTestSupport"], path: "Tests/SyncBench"),
        .testTarget(name: "KeychainDaemonTests", dependencies: ["KeychainCallerIdentity", "KeychainDaemon", "KeychainDBus", "KeychainServices", "KeychainStore", "KeychainTestSupport"]),
        // Real OpenSSH (ssh-add, ssh-keygen -Y, sshd) through the agent on a private keychain.
        .testTarget(
            name: "KeychainSSHAgentTests",
            dependencies: [
                "KeychainSSHAgent", "KeychainServices", "KeychainStore", "KeychainTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // Real callers: sockets to child processes, a reaped peer, a fake Flatpak sandbox made with bwrap.
        .testTarget(name: "KeychainCallerIdentityTests", dependencies: ["KeychainCallerIdentity", "KeychainStore", "KeychainTestSupport"],
                    swiftSettings: strict),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["KeychainServices", "KeychainStore", "KeychainTestSupport", "CKeychainSystem", "KeychainctlCommandLine"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
