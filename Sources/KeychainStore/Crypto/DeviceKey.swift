#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import Crypto

/// The key that stands in for a device's hardware UID key: 32 random bytes kept outside the
/// keychain file, so that the file alone opens nothing.
///
/// By default it lives in `${XDG_CONFIG_HOME:-~/.config}/swift-keychain/device-key` (mode 0600 in a
/// 0700 folder); `SWIFT_KEYCHAIN_DEVICE_KEY_FILE` names another file, e.g. one a service manager
/// supplies as a credential.
public struct DeviceKey: Sendable {
    let key: SymmetricKey

    /// A device key with the given bytes (32 bytes).
    package init(bytes: Data) throws(KeychainStoreError) {
        guard bytes.count == 32 else { throw .parameter("a device key is 32 bytes") }
        key = SymmetricKey(data: bytes)
    }

    /// A fresh random device key, kept only in memory (for tests and ephemeral keychains).
    package static func random() -> DeviceKey {
        DeviceKey(key: SymmetricKey(size: .bits256))
    }

    private init(key: SymmetricKey) { self.key = key }

    /// Where the device key is kept for this process.
    package static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["SWIFT_KEYCHAIN_DEVICE_KEY_FILE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return KeychainPaths.configHome(environment: environment)
            .appendingPathComponent("swift-keychain", isDirectory: true)
            .appendingPathComponent("device-key")
    }

    /// Reads the device key at `url`, creating it (0600, folder 0700) when `create` is true and
    /// no file exists. An existing key is never replaced.
    ///
    /// A folder that another user could change (writable by group or others, or not this
    /// user's) is refused with `errSecNotAvailable` (-25291) before anything is read or written:
    /// whoever can change the folder can swap the key.
    public static func load(from url: URL, create: Bool) throws(KeychainStoreError) -> DeviceKey {
        if let bytes = try SecureFile.read(url) {
            return try DeviceKey(bytes: bytes)
        }
        guard create else {
            throw .notAvailable("the device key is missing; the keychain cannot be opened without it")
        }
        let fresh = DeviceKey.random()
        let bytes = fresh.key.withUnsafeBytes { Data($0) }
        switch try SecureFile.createExclusively(url, contents: bytes) {
        case .created: return fresh
        case .alreadyExists:
            // Another process created it first: use theirs.
            guard let bytes = try SecureFile.read(url) else { throw .io("the device key vanished while being created") }
            return try DeviceKey(bytes: bytes)
        }
    }
}
