#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// The keybag as schemas 1 to 4 kept it, and its conversion into schema 5's single
/// authenticated record (``KeybagRecord``).
///
/// Those schemas kept one `keybag` row per class (and one for the presence key's private half)
/// and, unauthenticated, the password parameters, the idle timeout and the presence public key
/// in `settings`. The conversion carries every wrapping over unchanged. It can compute the check
/// values and presence tags only for the classes the device key opens; those of the
/// password-protected classes are added at the first unlock with the password
/// (``KeychainFile/State/completeCheckValues(_:)``). Until then no key from the kernel keyring is
/// trusted, so such a keychain asks for its password once after the upgrade.
enum LegacyKeybag {
    /// The `keybag` row of the presence key's private half (not a protection class number).
    static let presenceRow: Int64 = 100
    static let presencePublicSetting = "presence-public"
    static let indexKeySetting = "index-key"
    static let passwordParametersSetting = "password-kdf"
    static let lockTimeoutSetting = "lock-timeout"

    /// Reads the old keybag (inside a transaction), opening what the device key opens: this also
    /// proves that `deviceKey` is the file's.
    static func read(_ db: SQLiteConnection, deviceKey: DeviceKey) throws(KeychainStoreError) -> KeybagRecord {
        guard let keychainID = try KeychainFile.setting(KeychainFile.keychainIDSetting, db) else {
            throw .decode("the keychain's identity is missing")
        }
        guard let wrappedIndex = try KeychainFile.setting(indexKeySetting, db) else { throw .decode("the keychain's index key is missing") }
        _ = try Keybag.unwrap(wrappedIndex, with: deviceKey.key, label: Keybag.indexLabel, keychainID: keychainID)

        var classes: [ProtectionClass: KeybagRecord.ClassEntry] = [:]
        var openKeys: [ProtectionClass: SymmetricKey] = [:]
        var wrappedPresencePrivate: Data?
        let statement = try db.statement("SELECT class, wrapping, wrapped FROM keybag")
        while try statement.step() {
            guard let wrapped = statement.blob(2) else { continue }
            if statement.int64(0) == presenceRow { wrappedPresencePrivate = wrapped; continue }
            guard let protection = ProtectionClass(rawValue: Int(statement.int64(0))),
                  let wrapping = Keybag.Wrapping(rawValue: statement.int64(1)) else { continue }
            var check = Data()
            if wrapping == .deviceKey {
                let key = try Keybag.unwrap(wrapped, with: deviceKey.key, label: Keybag.classLabel(protection), keychainID: keychainID)
                check = Keybag.checkValue(key, for: protection, keychainID: keychainID)
                openKeys[protection] = key
            }
            classes[protection] = KeybagRecord.ClassEntry(wrapping: wrapping, wrapped: wrapped, check: check)
        }
        guard classes.count == ProtectionClass.allCases.count else { throw .decode("the keychain's keybag is incomplete") }

        var presence: KeybagRecord.PresenceEntry?
        if let wrappedPresencePrivate, let wrappedPublic = try KeychainFile.setting(presencePublicSetting, db) {
            let publicKey = try Keybag.unwrap(wrappedPublic, with: deviceKey.key, label: presencePublicSetting, keychainID: keychainID)
                .withUnsafeBytes { Data($0) }
            presence = KeybagRecord.PresenceEntry(
                wrappedPrivate: wrappedPresencePrivate, publicKey: publicKey,
                tags: Keybag.presenceTags(openKeys, publicKey: publicKey, keychainID: keychainID))
        }
        let timeout = try KeychainFile.setting(lockTimeoutSetting, db).flatMap { data -> UInt32? in
            guard data.count == 4 else { return nil }
            return data.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
        }
        return KeybagRecord(generation: 1, wrappedIndexKey: wrappedIndex, classes: classes,
                            passwordParameters: try KeychainFile.setting(passwordParametersSetting, db),
                            lockTimeout: timeout == 0 ? nil : timeout, presence: presence)
    }

    /// Replaces the old keybag with the record (inside the upgrade's write transaction).
    static func upgrade(_ db: SQLiteConnection, deviceKey: DeviceKey) throws(KeychainStoreError) {
        let record = try read(db, deviceKey: deviceKey)
        guard let keychainID = try KeychainFile.setting(KeychainFile.keychainIDSetting, db) else {
            throw .decode("the keychain's identity is missing")
        }
        try db.statement("INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)")
            .run([.text(KeybagRecord.settingName), .blob(record.sealed(deviceKey: deviceKey, keychainID: keychainID))])
        for name in [indexKeySetting, passwordParametersSetting, lockTimeoutSetting, presencePublicSetting] {
            try db.statement("DELETE FROM settings WHERE name = ?").run([.text(name)])
        }
        db.resetAll()
        try db.execute("DROP TABLE keybag")
    }
}
