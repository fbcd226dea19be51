#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// The keys of one keychain in memory: one random key per protection class and the blind-index
/// key, with the authenticated record they are stored in (``KeybagRecord``).
///
/// Without a password every class key is wrapped by the device key, so every class is available
/// (a device without a passcode). With one, the keys of classes A and C are wrapped by a key
/// derived from the password instead. Setting, changing or removing the password replaces those
/// class keys with new ones and re-wraps every item key under them (KeychainFile+Password.swift),
/// so a wrapping from an earlier era opens nothing written in a later one.
struct Keybag {
    /// How a class key is wrapped.
    enum Wrapping: Int64 { case deviceKey = 0, passwordKey = 1 }

    private(set) var record: KeybagRecord {
        didSet { hasPassword = Self.hasPasswordWrapping(record) }
    }
    private(set) var classKeys: [ProtectionClass: SymmetricKey]
    let indexKey: SymmetricKey
    let keychainID: Data

    /// Whether the keychain has a password (class keys wrapped by a password key). Without one,
    /// `akpu` items cannot exist, as on a device without a passcode.
    /// Kept rather than computed: every call asks, twice.
    private(set) var hasPassword: Bool

    private static func hasPasswordWrapping(_ record: KeybagRecord) -> Bool {
        record.classes.values.contains { $0.wrapping == .passwordKey }
    }

    /// The key of `protection`, or `errSecInteractionNotAllowed` when it is not available now.
    func key(for protection: ProtectionClass) throws(KeychainStoreError) -> SymmetricKey {
        guard let key = classKeys[protection] else { throw .interactionNotAllowed }
        return key
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

    /// Replaces the record (after it was written), keeping the keys in memory.
    mutating func replaceRecord(_ record: KeybagRecord) { self.record = record }

    /// The concatenated keys of `classes` (32 bytes each), for the kernel keyring.
    func export(_ classes: [ProtectionClass]) -> Data? {
        var out = Data()
        for protection in classes {
            guard let key = classKeys[protection] else { return nil }
            out.append(key.withUnsafeBytes { Data($0) })
        }
        return out
    }

    /// Takes keys written by ``export(_:)`` (read back from the kernel keyring), all or none, and
    /// only if each matches its class's check value: anyone of this user can put bytes under the
    /// keychain's name in the kernel keyring, and sealing new items under them would hand those
    /// items to whoever put them there.
    mutating func importVerified(_ data: Data, _ classes: [ProtectionClass]) -> Bool {
        guard data.count == 32 * classes.count else { return false }
        var keys: [(ProtectionClass, SymmetricKey)] = []
        for (offset, protection) in classes.enumerated() {
            let start = data.startIndex + offset * 32
            let key = SymmetricKey(data: data[start..<start + 32])
            guard accepts(key, for: protection) else { return false }
            keys.append((protection, key))
        }
        for (protection, key) in keys { classKeys[protection] = key }
        return true
    }

    /// Takes keys whose bytes already passed ``importVerified(_:_:)`` (same digest, same record).
    mutating func importChecked(_ data: Data, _ classes: [ProtectionClass]) -> Bool {
        guard data.count == 32 * classes.count else { return false }
        for (offset, protection) in classes.enumerated() {
            let start = data.startIndex + offset * 32
            classKeys[protection] = SymmetricKey(data: data[start..<start + 32])
        }
        return true
    }

    /// Whether `key` is this keychain's key of `protection`, by the record's check value.
    func accepts(_ key: SymmetricKey, for protection: ProtectionClass) -> Bool {
        guard let check = record.classes[protection]?.check, !check.isEmpty else { return false }
        return constantTimeEqual([UInt8](check), [UInt8](Self.checkValue(key, for: protection, keychainID: keychainID)))
    }

    /// Whether every class the password protects has a check value (false only in a keychain
    /// upgraded from schema 4 that has not been unlocked with its password since).
    var hasCheckValues: Bool {
        record.classes.values.allSatisfy { !$0.check.isEmpty }
    }

    /// A value that identifies a class key without revealing it: the first 16 bytes of an HMAC
    /// keyed by it.
    static func checkValue(_ key: SymmetricKey, for protection: ProtectionClass, keychainID: Data) -> Data {
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: Array("swift-keychain/class-key-check/\(protection.rawValue)/".utf8))
        mac.update(data: keychainID)
        return Data(mac.finalize().prefix(16))
    }

    /// The tag of the presence public key under the key of `protection` (16 bytes of an HMAC).
    static func presenceTag(_ classKey: SymmetricKey, publicKey: Data, for protection: ProtectionClass, keychainID: Data) -> Data {
        var mac = HMAC<SHA256>(key: classKey)
        mac.update(data: Array("swift-keychain/presence-public/\(protection.rawValue)/".utf8))
        mac.update(data: keychainID)
        mac.update(data: publicKey)
        return Data(mac.finalize().prefix(16))
    }

    /// Tags of `publicKey` under every class key given.
    static func presenceTags(_ keys: [ProtectionClass: SymmetricKey], publicKey: Data, keychainID: Data) -> [ProtectionClass: Data] {
        var tags: [ProtectionClass: Data] = [:]
        for (protection, key) in keys { tags[protection] = presenceTag(key, publicKey: publicKey, for: protection, keychainID: keychainID) }
        return tags
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
    static let indexLabel = "index"

    /// The entry of `key` wrapped by `wrappingKey`, with its check value.
    static func entry(_ key: SymmetricKey, for protection: ProtectionClass, wrapping: Wrapping, with wrappingKey: SymmetricKey,
                      keychainID: Data) throws(KeychainStoreError) -> KeybagRecord.ClassEntry {
        KeybagRecord.ClassEntry(wrapping: wrapping,
                                wrapped: try wrap(key, with: wrappingKey, label: classLabel(protection), keychainID: keychainID),
                                check: checkValue(key, for: protection, keychainID: keychainID))
    }

    /// A new keybag with fresh keys, every class wrapped by the device key.
    static func generate(deviceKey: DeviceKey, keychainID: Data) throws(KeychainStoreError) -> Keybag {
        var keys: [ProtectionClass: SymmetricKey] = [:]
        var classes: [ProtectionClass: KeybagRecord.ClassEntry] = [:]
        for protection in ProtectionClass.allCases {
            let key = SymmetricKey(size: .bits256)
            keys[protection] = key
            classes[protection] = try entry(key, for: protection, wrapping: .deviceKey, with: deviceKey.key, keychainID: keychainID)
        }
        let indexKey = SymmetricKey(size: .bits256)
        let record = KeybagRecord(generation: 1,
                                  wrappedIndexKey: try wrap(indexKey, with: deviceKey.key, label: indexLabel, keychainID: keychainID),
                                  classes: classes, passwordParameters: nil, lockTimeout: nil, presence: nil)
        return Keybag(record: record, classKeys: keys, indexKey: indexKey, keychainID: keychainID)
    }

    /// The keybag of `record`: the index key and the device-key-wrapped class keys opened (and
    /// checked); the password-wrapped ones stay locked until an unlock supplies them.
    static func load(_ record: KeybagRecord, deviceKey: DeviceKey, keychainID: Data) throws(KeychainStoreError) -> Keybag {
        let indexKey = try unwrap(record.wrappedIndexKey, with: deviceKey.key, label: indexLabel, keychainID: keychainID)
        var keybag = Keybag(record: record, classKeys: [:], indexKey: indexKey, keychainID: keychainID)
        for (protection, entry) in record.classes where entry.wrapping == .deviceKey {
            let key = try unwrap(entry.wrapped, with: deviceKey.key, label: classLabel(protection), keychainID: keychainID)
            guard entry.check.isEmpty || keybag.accepts(key, for: protection) else {
                throw .decode("the keychain's keybag is inconsistent (a class key does not match its check value)")
            }
            keybag.classKeys[protection] = key
        }
        return keybag
    }

    init(record: KeybagRecord, classKeys: [ProtectionClass: SymmetricKey], indexKey: SymmetricKey, keychainID: Data) {
        self.record = record
        self.hasPassword = Self.hasPasswordWrapping(record)
        self.classKeys = classKeys
        self.indexKey = indexKey
        self.keychainID = keychainID
    }
}
