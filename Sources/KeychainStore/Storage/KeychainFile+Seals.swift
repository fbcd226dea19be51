#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import Crypto

/// Seals: the keychain's unlock key kept by the machine (a systemd credential, a TPM2 object) so
/// that the keychain unlocks without a person (docs/machine-unlock.md).
///
/// The engine hands out the unlock key only to someone who gives the password, stores and lists
/// the records that say how it was sealed, and unlocks with a key given back to it; the sealing
/// itself is done by the front end (keychainctl), which runs the machine's tools.
///
/// A seal belongs to one password: every password change draws new scrypt parameters (and so a
/// new unlock key), after which the seal is stale. Stale seals are kept, reported as stale, and
/// refuse to unlock with a message saying so; they never unlock with a wrong key, since the key
/// is checked against the record before use and the class keys are authenticated.
extension KeychainFile {
    /// A seal as listed: its record, and whether a password change made it stale.
    package struct SealStatus: Sendable {
        package let record: SealRecord
        package let isStale: Bool
    }

    /// The unlock key of the current password, for sealing: derived from `password` and checked
    /// to open the keychain's class keys.
    ///
    /// - Throws: `errSecAuthFailed` for a wrong password; `errSecParam` when the keychain has no
    ///   password (there is no unlock key: it opens with the device key alone).
    package func unlockKeyForSealing(password: String) throws(KeychainStoreError) -> (key: SealedUnlockKey, passwordParameters: Data) {
        try withState { state throws(KeychainStoreError) in
            guard state.keybag.hasPassword, let parameters = state.keybag.record.passwordParameters else {
                throw .parameter("the keychain has no password, so there is no unlock key to seal; it opens with the device key alone")
            }
            let passwordKey = try state.passwordKey(password)
            _ = try state.passwordWrappedKeys(passwordKey: passwordKey)
            return (SealedUnlockKey(keychainID: state.keychainID, key: passwordKey), parameters)
        }
    }

    /// Stores a seal record; an existing one of the same name is an error unless `replacing`.
    package func addSeal(_ record: SealRecord, replacing: Bool) throws(KeychainStoreError) {
        guard SealRecord.isValidName(record.name) else {
            throw .parameter("a seal's name is 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'")
        }
        if let problem = record.oversizedField { throw .parameter(problem) }
        try withState { state throws(KeychainStoreError) in
            try state.db.transaction(write: true) { () throws(KeychainStoreError) in
                let name = SealRecord.settingPrefix + record.name
                if !replacing, try KeychainFile.setting(name, state.db) != nil {
                    throw .init(status: SecStatus.duplicateItem, reason: "the keychain already has a seal named '\(record.name)'")
                }
                try state.putSetting(name, record.sealedRecord(deviceKey: state.deviceKey, keychainID: state.keychainID))
            }
        }
    }

    /// Every seal, by name. A record that does not authenticate is an error naming it (remove it
    /// with ``removeSeal(named:)``), never skipped silently.
    package func seals() throws(KeychainStoreError) -> [SealStatus] {
        try withState { state throws(KeychainStoreError) in
            let current = state.keybag.record.passwordParameters
            return try state.sealRecords().map { record in
                SealStatus(record: record, isStale: record.passwordParameters != current)
            }
        }
    }

    /// The names of the stored seals, read without authenticating them (to remove a damaged one).
    package func sealNames() throws(KeychainStoreError) -> [String] {
        try withState { state throws(KeychainStoreError) in try state.sealRows().map(\.name) }
    }

    /// Removes the seal `name`. The machine's copy (a credential file, a TPM object's blobs) then
    /// unlocks nothing: the record it needs is gone.
    package func removeSeal(named name: String) throws(KeychainStoreError) {
        try withState { state throws(KeychainStoreError) in
            try state.db.transaction(write: true) { () throws(KeychainStoreError) in
                let setting = SealRecord.settingPrefix + name
                guard try KeychainFile.setting(setting, state.db) != nil else {
                    throw .init(status: SecStatus.itemNotFound, reason: "the keychain has no seal named '\(name)'")
                }
                try state.db.statement("DELETE FROM settings WHERE name = ?").run([.text(setting)])
            }
        }
    }

    /// Unlocks with an unlock key given back by the seal `name`.
    ///
    /// - Throws: `errSecDecode` when the bytes are not an unlock key of this keychain, or not the
    ///   one the seal recorded (a damaged or foreign credential); `errSecAuthFailed` when the
    ///   seal is stale (the password changed since it was made); `errSecItemNotFound` when there
    ///   is no such seal. The keychain is unchanged by any of them.
    package func unlock(sealedKey bytes: Data, seal name: String, scope: UnlockScope = .thisSession) throws(KeychainStoreError) {
        try withState { state throws(KeychainStoreError) in
            guard let record = try state.sealRecords().first(where: { $0.name == name }) else {
                throw .init(status: SecStatus.itemNotFound, reason: "the keychain has no seal named '\(name)'")
            }
            let unsealed = try SealedUnlockKey(decoding: bytes)
            guard unsealed.keychainID == state.keychainID else {
                throw .decode("the unsealed unlock key belongs to another keychain")
            }
            guard constantTimeEqual([UInt8](unsealed.checkValue), [UInt8](record.keyCheck)) else {
                throw .decode("the unsealed unlock key is not the one the seal '\(name)' recorded (a credential of another seal, or damaged)")
            }
            guard state.keybag.hasPassword else { return }
            guard record.passwordParameters == state.keybag.record.passwordParameters else {
                throw .authFailed("the seal '\(name)' is stale: the keychain's password changed after it was made; seal the keychain again")
            }
            try state.unlockWith(passwordKey: unsealed.key, scope: scope)
        }
    }
}

extension KeychainFile.State {
    /// Unlocks with the password key (from the password, or from a seal).
    func unlockWith(passwordKey: SymmetricKey, scope: UnlockScope) throws(KeychainStoreError) {
        let keys = try passwordWrappedKeys(passwordKey: passwordKey)
        try completeCheckValues(keys)
        // A keychain whose password predates presence keys gets one at its first unlock.
        if keybag.record.presence == nil {
            _ = try presenceCredential(passwordKey: passwordKey)
        }
        for (protection, key) in keys { keybag.setKey(key, for: protection) }
        try publishUnlock(scope)
    }

    /// The stored seal rows (name without the prefix, stored bytes), in name order.
    func sealRows() throws(KeychainStoreError) -> [(name: String, value: Data)] {
        // A range on the primary key rather than LIKE, whose '_' would be a wildcard.
        let statement = try db.statement("SELECT name, value FROM settings WHERE name >= ? AND name < ? ORDER BY name")
        statement.bind([.text(SealRecord.settingPrefix), .text("seal0")])
        var rows: [(String, Data)] = []
        while try statement.step() {
            let name = String((statement.text(0) ?? "").dropFirst(SealRecord.settingPrefix.count))
            rows.append((name, statement.blob(1) ?? Data()))
        }
        statement.reset()
        return rows
    }

    func sealRecords() throws(KeychainStoreError) -> [SealRecord] {
        var records: [SealRecord] = []
        for row in try sealRows() {
            records.append(try SealRecord.open(row.value, name: row.name, deviceKey: deviceKey, keychainID: keychainID))
        }
        return records
    }

    /// Deletes every seal (inside a write transaction): removing the password with `force`.
    func deleteSeals() throws(KeychainStoreError) {
        try db.statement("DELETE FROM settings WHERE name >= ? AND name < ?").run([.text(SealRecord.settingPrefix), .text("seal0")])
    }
}
