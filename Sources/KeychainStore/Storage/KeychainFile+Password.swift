#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

/// Setting, changing and removing the keychain password.
///
/// Every change makes new keys for the classes the password protects (A and C) and re-wraps the
/// key of every item of those classes under them, in the same transaction as the new keybag: a
/// keybag from before the change (a copy of the file, or its rows put back) then opens nothing
/// written after it, whichever password or device key goes with it. Item contents are not
/// re-encrypted: only their 60-byte key wrappings change. After the commit the WAL is
/// checkpointed and truncated, so the old wrappings do not linger there either.
extension KeychainFile {
    /// Sets, changes or removes the keychain password.
    ///
    /// Removing the password destroys `akpu` items and items whose access control requires
    /// authentication, as removing a device's passcode does.
    ///
    /// - Parameters:
    ///   - newPassword: the new password; nil or empty removes the password.
    ///   - currentPassword: the current password, required when one is set.
    ///   - droppingSeals: whether removing the password may delete the keychain's seals
    ///     (KeychainFile+Seals.swift). Without it, removing the password of a sealed keychain is
    ///     refused: a machine set up to unlock it would find it open to anyone with the device key.
    ///     A changed password leaves the seals stale, never silently working with the old key.
    /// - Throws: `errSecAuthFailed` when the current password is missing or wrong; `errSecParam`
    ///   when removing the password of a keychain that has seals, without `droppingSeals`.
    public func setPassword(_ newPassword: String?, currentPassword: String?, droppingSeals: Bool = false) throws(KeychainStoreError) {
        try withState { state throws(KeychainStoreError) in
            let removing = newPassword?.isEmpty ?? true
            if removing && !state.keybag.hasPassword { return }
            if removing && !droppingSeals {
                let seals = try state.sealRows().map(\.name)
                if !seals.isEmpty {
                    throw .parameter("the keychain has seals (\(seals.joined(separator: ", "))) that unlock it without a person; "
                                     + "removing its password is refused while they exist")
                }
            }
            var oldKeys: [ProtectionClass: SymmetricKey] = [:]
            var presenceKey: Curve25519.KeyAgreement.PrivateKey?
            if state.keybag.hasPassword {
                guard let currentPassword else { throw .authFailed("the keychain has a password; give the current one") }
                let currentKey = try state.passwordKey(currentPassword)
                oldKeys = try state.passwordWrappedKeys(passwordKey: currentKey)
                presenceKey = try state.existingPresenceKey(passwordKey: currentKey)
            } else {
                for protection in Keybag.passwordClasses { oldKeys[protection] = try state.keybag.key(for: protection) }
            }
            var newKeys: [ProtectionClass: SymmetricKey] = [:]
            for protection in Keybag.passwordClasses { newKeys[protection] = SymmetricKey(size: .bits256) }
            var newPasswordKey: (PasswordKeyParameters, SymmetricKey)?
            if let newPassword, !removing {
                let parameters = PasswordKeyParameters.fresh()
                newPasswordKey = (parameters, try parameters.deriveKey(password: newPassword, deviceKey: state.deviceKey,
                                                                        keychainID: state.keychainID))
            }
            let generation = state.keybag.record.generation
            let written = try state.db.transaction(write: true) { () throws(KeychainStoreError) -> KeybagRecord in
                try state.reloadKeybag()
                guard state.keybag.record.generation == generation else {
                    throw .authFailed("the keychain's password was changed by another process meanwhile; try again")
                }
                if removing {
                    if droppingSeals { try state.deleteSeals() }
                    try state.removePresenceSealedItems()
                    for itemClass in ItemClass.allCases {
                        try state.deleteRows(ItemTable(itemClass), where: "keyclass = ?",
                                             [.integer(Int64(ProtectionClass.whenPasscodeSetThisDeviceOnly.rawValue))])
                    }
                }
                try state.rewrapItems(from: oldKeys, to: newKeys)
                var record = state.keybag.record
                var allKeys = newKeys
                for protection in ProtectionClass.allCases where allKeys[protection] == nil {
                    allKeys[protection] = try state.keybag.key(for: protection)
                }
                if let (parameters, passwordKey) = newPasswordKey {
                    for protection in Keybag.passwordClasses {
                        record.classes[protection] = try Keybag.entry(newKeys[protection]!, for: protection, wrapping: .passwordKey,
                                                                      with: passwordKey, keychainID: state.keychainID)
                    }
                    record.passwordParameters = parameters.encoded
                    // Items sealed to the presence key stay readable under the new password.
                    record.presence = try state.presenceEntry(presenceKey ?? Curve25519.KeyAgreement.PrivateKey(),
                                                              passwordKey: passwordKey, classKeys: allKeys)
                } else {
                    for protection in Keybag.passwordClasses {
                        record.classes[protection] = try Keybag.entry(newKeys[protection]!, for: protection, wrapping: .deviceKey,
                                                                      with: state.deviceKey.key, keychainID: state.keychainID)
                    }
                    record.passwordParameters = nil
                    record.presence = nil
                }
                return try state.writeKeybag(record)
            }
            state.keybag.replaceRecord(written)
            state.unlock.verifiedPayloads = [:]
            for (protection, key) in newKeys { state.keybag.setKey(key, for: protection) }
            // Takes the old wrappings out of the WAL now (best effort while another process reads).
            state.db.checkpointEmptyingWAL(waitingAtMost: 1000)
            if removing {
                state.withdrawUnlock(includingFirstUnlock: true)
            } else {
                // The new keys reach the processes the old ones did.
                try state.publishUnlock(state.publishedScope)
            }
        }
    }
}

extension KeychainFile.State {
    /// Moves every row whose class is in `oldKeys` from its old class key to its new one, inside
    /// a transaction. A secret's item key is re-wrapped and its content left as it is (a later
    /// secret gets a fresh key anyway). The attributes are sealed again under a fresh item key:
    /// an update in place reuses the attributes' key (``ItemSealer/ItemKey``), so a key that
    /// the old era's wrapping still opens must not go on to seal what is written after the
    /// change.
    ///
    /// A row whose key does not open under the old class key is already damaged; it is left as
    /// it is (it stays unreadable) rather than fail the change for every other item.
    func rewrapItems(from oldKeys: [ProtectionClass: SymmetricKey], to newKeys: [ProtectionClass: SymmetricKey]) throws(KeychainStoreError) {
        let classes = oldKeys.keys.map { String($0.rawValue) }.joined(separator: ", ")
        for itemClass in ItemClass.allCases {
            let table = ItemTable(itemClass)
            var rewrapped: [(rowid: Int64, meta: Data, secret: Data?)] = []
            let select = try db.statement("SELECT rowid, persistref, keyclass, meta, secret FROM \(table.name) WHERE keyclass IN (\(classes))")
            while try select.step() {
                guard let reference = select.blob(1), let protection = ProtectionClass(rawValue: Int(select.int64(2))),
                      let oldKey = oldKeys[protection], let newKey = newKeys[protection], let meta = select.blob(3) else { continue }
                do throws(KeychainStoreError) {
                    func rewrap(_ sealed: Data, _ part: ItemSealer.Part) throws(KeychainStoreError) -> Data {
                        try ItemSealer.rewrap(sealed, part: part, table: table.name, persistentRef: reference,
                                              from: protection, oldKey: oldKey, to: protection, newKey: newKey)
                    }
                    let attributes = try ItemSealer.open(meta, part: .attributes, table: table.name, persistentRef: reference,
                                                         protection: protection, classKey: oldKey)
                    let newMeta = try ItemSealer.seal(attributes, part: .attributes, table: table.name, persistentRef: reference,
                                                      protection: protection, classKey: newKey, format: meta.first!)
                    let newSecret = try select.blob(4).map { (sealed: Data) throws(KeychainStoreError) -> Data in try rewrap(sealed, .secret) }
                    rewrapped.append((select.int64(0), newMeta, newSecret))
                } catch {
                    continue
                }
            }
            select.reset()
            let update = try db.statement("UPDATE \(table.name) SET meta = ?, secret = ? WHERE rowid = ?")
            for row in rewrapped {
                try update.run([.blob(row.meta), row.secret.map { .blob($0) } ?? .null, .integer(row.rowid)])
            }
        }
    }
}
