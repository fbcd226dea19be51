#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import Crypto

/// The presence key: what items with an access control that requires authentication are sealed
/// to (see ``PresenceCredential``). It exists only while the keychain has a password.
extension KeychainFile {
    /// This keychain's random identity, which tells credentials of different keychains apart.
    package var identifier: Data { state.withLock { $0.keychainID } }

    /// Checks the keychain password and returns the credential that opens items whose access
    /// control requires authentication.
    ///
    /// The key derivation (scrypt) runs outside the keychain's lock, so other threads of the
    /// process are not held up while it runs.
    ///
    /// - Throws: `errSecNotAvailable` (-25291) when the keychain has no password (a device
    ///   without a passcode); `errSecAuthFailed` (-25293) when the password is wrong.
    package func authenticate(password: String) throws(KeychainStoreError) -> PresenceCredential {
        let (parameters, keychainID, deviceKey) = try withState { state throws(KeychainStoreError) in
            guard state.keybag.hasPassword else {
                throw KeychainStoreError.notAvailable("the keychain has no password, so nothing can prove the user's presence")
            }
            return (try state.passwordParameters(), state.keychainID, state.deviceKey)
        }
        let key = try parameters.deriveKey(password: password, deviceKey: deviceKey, keychainID: keychainID)
        return try withState { state throws(KeychainStoreError) in try state.presenceCredential(passwordKey: key) }
    }
}

extension KeychainFile.State {
    /// The credential, given the key derived from the password. A keychain whose password was set
    /// before presence keys existed gets one now, once the password is proved on its class keys.
    func presenceCredential(passwordKey: SymmetricKey) throws(KeychainStoreError) -> PresenceCredential {
        if let presence = keybag.record.presence {
            let raw: SymmetricKey
            do {
                raw = try Keybag.unwrap(presence.wrappedPrivate, with: passwordKey, label: PresenceSeal.label, keychainID: keychainID)
            } catch {
                throw .authFailed("the password is not correct")
            }
            let credential = try credential(raw)
            // The public half items are sealed to must be this private key's.
            guard credential.privateKey.publicKey.rawRepresentation == presence.publicKey else {
                throw .decode("the keychain's presence key is inconsistent (its public half was replaced)")
            }
            return credential
        }
        var keys = try passwordWrappedKeys(passwordKey: passwordKey)
        for protection in ProtectionClass.allCases where keys[protection] == nil { keys[protection] = keybag.classKeys[protection] }
        let privateKey = Curve25519.KeyAgreement.PrivateKey()
        let written = try db.transaction(write: true) { () throws(KeychainStoreError) -> KeybagRecord in
            try reloadKeybag()
            var record = keybag.record
            record.presence = try presenceEntry(privateKey, passwordKey: passwordKey, classKeys: keys)
            return try writeKeybag(record)
        }
        keybag.replaceRecord(written)
        return PresenceCredential(keychainID: keychainID, privateKey: privateKey)
    }

    private func credential(_ raw: SymmetricKey) throws(KeychainStoreError) -> PresenceCredential {
        do {
            let privateKey = try raw.withUnsafeBytes { try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: $0) }
            return PresenceCredential(keychainID: keychainID, privateKey: privateKey)
        } catch {
            throw .decode("the keychain's presence key is damaged")
        }
    }

    /// The private half of the presence key, if `passwordKey` opens it (for a password change).
    func existingPresenceKey(passwordKey: SymmetricKey) throws(KeychainStoreError) -> Curve25519.KeyAgreement.PrivateKey? {
        guard keybag.record.presence != nil else { return nil }
        return try presenceCredential(passwordKey: passwordKey).privateKey
    }

    /// The keybag entry of the presence key: the private half under the password key, the public
    /// half with its tag under each class key in `classKeys`.
    func presenceEntry(_ privateKey: Curve25519.KeyAgreement.PrivateKey, passwordKey: SymmetricKey,
                       classKeys: [ProtectionClass: SymmetricKey]) throws(KeychainStoreError) -> KeybagRecord.PresenceEntry {
        let publicKey = privateKey.publicKey.rawRepresentation
        return KeybagRecord.PresenceEntry(
            wrappedPrivate: try Keybag.wrap(SymmetricKey(data: privateKey.rawRepresentation), with: passwordKey,
                                            label: PresenceSeal.label, keychainID: keychainID),
            publicKey: publicKey,
            tags: Keybag.presenceTags(classKeys, publicKey: publicKey, keychainID: keychainID))
    }

    /// Removes every item sealed to the presence key (with the password they depended on gone,
    /// nothing could open them again). Inside a transaction; the caller drops the key itself.
    func removePresenceSealedItems() throws(KeychainStoreError) {
        for itemClass in ItemClass.allCases {
            try deleteRows(ItemTable(itemClass), where: "substr(secret, 1, 1) = x'02'")
        }
    }

    /// The public half, to seal a new protected item of class `protection`; checked against its
    /// tag under that class's key, so that a public key put in the file by someone without the
    /// class key (the device key alone is not enough) is refused rather than used.
    func presencePublicKey(for protection: ProtectionClass) throws(KeychainStoreError) -> Curve25519.KeyAgreement.PublicKey {
        guard keybag.hasPassword else {
            throw .notAvailable("items that require authentication cannot be added to a keychain without a password")
        }
        guard let presence = keybag.record.presence else {
            throw .notAvailable("the keychain's presence key has not been made yet: unlock the keychain with its password once")
        }
        let classKey = try keybag.key(for: protection)
        guard let tag = presence.tags[protection] else {
            throw .notAvailable("the keychain's presence key is not yet confirmed: unlock the keychain with its password once")
        }
        let expected = Keybag.presenceTag(classKey, publicKey: presence.publicKey, for: protection, keychainID: keychainID)
        guard constantTimeEqual([UInt8](tag), [UInt8](expected)) else {
            throw .decode("the keychain's presence key does not match its tag (it was replaced in the file)")
        }
        do {
            return try Curve25519.KeyAgreement.PublicKey(rawRepresentation: presence.publicKey)
        } catch {
            throw .decode("the keychain's presence key is damaged")
        }
    }
}
