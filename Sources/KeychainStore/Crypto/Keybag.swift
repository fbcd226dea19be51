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
