import Foundation
import Crypto

/// The keys of one keychain: one random key per protection class and the blind-index key, each
/// stored wrapped (AES-GCM) in the file's `keybag` and `settings` tables.
///
/// Today every class key is wrapped by the device key, so every class is available (like a device
/// without a passcode). A keychain password re-wraps the class keys only; items never need to be
/// re-encrypted, because they are sealed under per-item keys wrapped by these class keys.
struct Keybag {
    /// How a class key is wrapped in the `keybag` table.
    enum Wrapping: Int64 { case deviceKey = 0, passwordKey = 1 }

    private(set) var classKeys: [ProtectionClass: SymmetricKey]
    /// Whether the keychain has a password (class keys wrapped by a password key). Without one,
    /// `akpu` items cannot exist, as on a device without a passcode.
    var hasPassword = false
    let indexKey: SymmetricKey

    /// The key of `protection`, or `errSecInteractionNotAllowed` when it is not available now.
    func key(for protection: ProtectionClass) throws(KeychainStoreError) -> SymmetricKey {
        guard let key = classKeys[protection] else { throw .interactionNotAllowed }
        return key
    }

    static func wrap(_ key: SymmetricKey, with wrappingKey: SymmetricKey, label: String, keychainID: Data) throws(KeychainStoreError) -> Data {
        do {
            let bytes = key.withUnsafeBytes { Data($0) }
            return try AES.GCM.seal(bytes, using: wrappingKey, authenticating: aad(label, keychainID)).combined!
        } catch {
            throw .allocate("key wrapping failed")
        }
    }

    static func unwrap(_ wrapped: Data, with wrappingKey: SymmetricKey, label: String, keychainID: Data) throws(KeychainStoreError) -> SymmetricKey {
        do {
            let box = try AES.GCM.SealedBox(combined: wrapped)
            return SymmetricKey(data: try AES.GCM.open(box, using: wrappingKey, authenticating: aad(label, keychainID)))
        } catch {
            throw .notAvailable("the device key does not open this keychain (wrong device key, or the keybag is damaged)")
        }
    }

    private static func aad(_ label: String, _ keychainID: Data) -> Data {
        var aad = Data("swift-keychain/keybag/\(label)/".utf8)
        aad.append(keychainID)
        return aad
    }

    /// Classes available only while the keychain is unlocked (A).
    static let unlockedClasses: [ProtectionClass] = [.whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly]
    /// Classes available from the first unlock until reboot (C).
    static let firstUnlockClasses: [ProtectionClass] = [.afterFirstUnlock, .afterFirstUnlockThisDeviceOnly]
    /// Classes a password protects (A and C); D classes stay wrapped by the device key.
    static let passwordClasses = unlockedClasses + firstUnlockClasses

    mutating func setKey(_ key: SymmetricKey, for protection: ProtectionClass) { classKeys[protection] = key }
    mutating func dropKeys(_ classes: [ProtectionClass]) { for protection in classes { classKeys[protection] = nil } }
    func hasKeys(_ classes: [ProtectionClass]) -> Bool { classes.allSatisfy { classKeys[$0] != nil } }

    /// The concatenated keys of `classes` (32 bytes each), for the kernel keyring.
    func export(_ classes: [ProtectionClass]) -> Data? {
        var out = Data()
        for protection in classes {
            guard let key = classKeys[protection] else { return nil }
            out.append(key.withUnsafeBytes { Data($0) })
        }
        return out
    }

    /// Reads keys written by ``export(_:)``.
    mutating func importKeys(_ data: Data, _ classes: [ProtectionClass]) -> Bool {
        guard data.count == 32 * classes.count else { return false }
        for (offset, protection) in classes.enumerated() {
            let start = data.startIndex + offset * 32
            classKeys[protection] = SymmetricKey(data: data[start..<start + 32])
        }
        return true
    }

    static func classLabel(_ protection: ProtectionClass) -> String { "class-\(protection.rawValue)" }

    /// A new keybag with fresh keys.
    static func generate() -> Keybag {
        var keys: [ProtectionClass: SymmetricKey] = [:]
        for protection in ProtectionClass.allCases { keys[protection] = SymmetricKey(size: .bits256) }
        return Keybag(classKeys: keys, indexKey: SymmetricKey(size: .bits256))
    }

    init(classKeys: [ProtectionClass: SymmetricKey], indexKey: SymmetricKey) {
        self.classKeys = classKeys
        self.indexKey = indexKey
    }
}
