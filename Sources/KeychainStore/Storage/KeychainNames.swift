#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// How a keychain's name becomes a file: the one place where `keychainctl` (creating, opening,
/// `lock-keychain -a`) and `keychaind` (its collections) agree on names.
///
/// Keychain files end in `.keychain-db`, as on macOS since its keychains became databases:
/// `create-keychain work.keychain` makes `work.keychain-db`, and `work`, `work.keychain` and
/// `work.keychain-db` all find it. A name without a `/` lives in the keychains folder; a path
/// is used where it points. When opening, a file under exactly the name given wins, so a
/// keychain created before this rule under another name keeps opening.
package enum KeychainNames {
    /// The extension of every keychain file this tool creates.
    package static let fileExtension = ".keychain-db"

    /// The file `create-keychain name` makes.
    package static func fileToCreate(_ name: String) -> URL {
        place(canonical(name))
    }

    /// The file `name` refers to when opening an existing keychain.
    package static func fileToOpen(_ name: String) -> URL {
        let exact = place(name)
        if FileManager.default.fileExists(atPath: exact.path) { return exact }
        return place(canonical(name))
    }

    /// Every keychain file in the keychains folder, by name.
    package static func keychainsInFolder() -> [URL] {
        let folder = keychainsFolder()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(fileExtension) }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// The folder bare names live in: that of the default keychain when `SWIFT_KEYCHAIN_PATH`
    /// is not set, so that the folder does not move with the variable.
    package static func keychainsFolder() -> URL {
        var environment = ProcessInfo.processInfo.environment
        environment[KeychainPaths.keychainPathVariable] = nil
        return KeychainPaths.defaultKeychain(environment: environment).deletingLastPathComponent()
    }

    /// `name` with the extension a keychain file has: `.keychain` becomes `.keychain-db`, and a
    /// bare name without any extension gets `.keychain-db`. Other names are left as given.
    package static func canonical(_ name: String) -> String {
        if name.hasSuffix(fileExtension) { return name }
        if name.hasSuffix(".keychain") { return name + "-db" }
        if !name.contains("/") && !name.contains(".") { return name + fileExtension }
        return name
    }

    private static func place(_ name: String) -> URL {
        name.contains("/") ? URL(fileURLWithPath: name) : keychainsFolder().appendingPathComponent(name)
    }
}
