#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// Reading and writing the keybag record, and keeping the one in memory current when another
/// process changes it.
extension KeychainFile.State {
    /// Writes `record` as the keybag's next generation (inside a write transaction) and returns
    /// what was written. The caller puts it in memory once the transaction committed.
    func writeKeybag(_ record: KeybagRecord) throws(KeychainStoreError) -> KeybagRecord {
        var next = record
        next.generation = keybag.record.generation + 1
        try putSetting(KeybagRecord.settingName, next.sealed(deviceKey: deviceKey, keychainID: keychainID))
        return next
    }

    /// Reloads the keybag when another connection committed since the last look (SQLite's
    /// `data_version` tells, for the price of reading a counter) and the keybag's generation moved.
    func reloadKeybagIfChanged() throws(KeychainStoreError) {
        let statement = try db.statement("PRAGMA data_version")
        _ = try statement.step()
        let version = statement.int64(0)
        statement.reset()
        guard version != unlock.dataVersion else { return }
        try reloadKeybag()
        unlock.dataVersion = version
    }

    /// Makes the keybag in memory the file's: reloaded when its generation differs. Inside a
    /// write transaction this is authoritative, so every change of the keybag calls it first.
    func reloadKeybag() throws(KeychainStoreError) {
        let sealed = try KeychainFile.setting(KeybagRecord.settingName, db)
        db.resetAll()
        guard let sealed else { throw .decode("the keychain's keybag is missing") }
        guard KeybagRecord.generation(of: sealed) != keybag.record.generation else { return }
        var fresh = try Keybag.load(KeybagRecord.open(sealed, deviceKey: deviceKey, keychainID: keychainID),
                                    deviceKey: deviceKey, keychainID: keychainID)
        // Keys unlocked in this process stay only while they are still the keychain's.
        for protection in Keybag.passwordClasses where fresh.record.classes[protection]?.wrapping == .passwordKey {
            if let key = keybag.classKeys[protection], fresh.accepts(key, for: protection) { fresh.setKey(key, for: protection) }
        }
        keybag = fresh
        unlock.lockTimeout = fresh.record.lockTimeout
        unlock.verifiedPayloads = [:]
    }

    /// After an upgrade from schema 4, the first unlock with the password supplies what the
    /// upgrade could not compute: the check values of the password-protected class keys and the
    /// presence key's tags under them. `keys` were just opened with the password.
    func completeCheckValues(_ keys: [ProtectionClass: SymmetricKey]) throws(KeychainStoreError) {
        guard !keybag.hasCheckValues || keybag.record.presence.map({ $0.tags.count < ProtectionClass.allCases.count }) == true else { return }
        var record = keybag.record
        var all = keys
        for protection in ProtectionClass.allCases where all[protection] == nil {
            all[protection] = keybag.classKeys[protection]
        }
        for (protection, key) in keys {
            record.classes[protection]?.check = Keybag.checkValue(key, for: protection, keychainID: keychainID)
        }
        if let publicKey = record.presence?.publicKey {
            record.presence?.tags = Keybag.presenceTags(all, publicKey: publicKey, keychainID: keychainID)
        }
        let original = keybag.record
        let written = try db.transaction(write: true) { () throws(KeychainStoreError) -> KeybagRecord? in
            try reloadKeybag()
            // Another process completed (or changed) the keybag meanwhile: nothing left to do.
            guard keybag.record == original else { return nil }
            return try writeKeybag(record)
        }
        if let written { keybag.replaceRecord(written) }
    }
}
