public import Foundation
import Crypto

/// The presence key: what items with an access control that requires authentication are sealed
/// to (see ``PresenceCredential``). It exists only while the keychain has a password.
extension KeychainFile {
    /// This keychain's random identity, which tells credentials of different keychains apart.
    public var identifier: Data { state.withLock { $0.keychainID } }

    /// Checks the keychain password and returns the credential that opens items whose access
    /// control requires authentication.
    ///
    /// The key derivation (scrypt) runs outside the keychain's lock, so other threads of the
    /// process are not held up while it runs.
    ///
    /// - Throws: `errSecNotAvailable` (-25291) when the keychain has no password (a device
    ///   without a passcode); `errSecAuthFailed` (-25293) when the password is wrong.
    public func authenticate(password: String) throws(KeychainStoreError) -> PresenceCredential {
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
    /// The `keybag` row of the presence key's private half (not a protection class number).
    static let presenceRow: Int64 = 100
    static let presencePublicSetting = "presence-public"

    func passwordParameters() throws(KeychainStoreError) -> PasswordKeyParameters {
        guard let encoded = try KeychainFile.setting("password-kdf", db) else {
            throw .decode("the keychain's password parameters are missing")
        }
        return try PasswordKeyParameters(encoded: encoded)
    }

    /// The credential, given the key derived from the password. A keychain whose password was set
    /// before presence keys existed gets one now, once the password is proved on its class keys.
    func presenceCredential(passwordKey: SymmetricKey) throws(KeychainStoreError) -> PresenceCredential {
        if let wrapped = try presenceRow() {
            let raw: SymmetricKey
            do {
                raw = try Keybag.unwrap(wrapped, with: passwordKey, label: PresenceSeal.label, keychainID: keychainID)
            } catch {
                throw .authFailed("the password is not correct")
            }
            return try credential(raw)
        }
        _ = try passwordWrappedKeys(passwordKey: passwordKey)
        let privateKey = Curve25519.KeyAgreement.PrivateKey()
        try db.transaction(write: true) { () throws(KeychainStoreError) in
            try storePresenceKey(privateKey, passwordKey: passwordKey)
        }
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

    private func presenceRow() throws(KeychainStoreError) -> Data? {
        let statement = try db.statement("SELECT wrapped FROM keybag WHERE class = ?")
        statement.bind([.integer(Self.presenceRow)])
        return try statement.step() ? statement.blob(0) : nil
    }

    /// The private half of the presence key, if `passwordKey` opens it (for a password change).
    func existingPresenceKey(passwordKey: SymmetricKey) throws(KeychainStoreError) -> Curve25519.KeyAgreement.PrivateKey? {
        guard try presenceRow() != nil else { return nil }
        return try presenceCredential(passwordKey: passwordKey).privateKey
    }

    /// Stores the presence key: the private half under the password key, the public half under
    /// the device key (authenticated, so a swapped public key is noticed). Inside a transaction.
    func storePresenceKey(_ privateKey: Curve25519.KeyAgreement.PrivateKey, passwordKey: SymmetricKey) throws(KeychainStoreError) {
        let wrappedPrivate = try Keybag.wrap(SymmetricKey(data: privateKey.rawRepresentation), with: passwordKey,
                                             label: PresenceSeal.label, keychainID: keychainID)
        let wrappedPublic = try Keybag.wrap(SymmetricKey(data: privateKey.publicKey.rawRepresentation), with: deviceKey.key,
                                            label: Self.presencePublicSetting, keychainID: keychainID)
        try db.statement("INSERT OR REPLACE INTO keybag (class, wrapping, wrapped) VALUES (?, ?, ?)")
            .run([.integer(Self.presenceRow), .integer(Keybag.Wrapping.passwordKey.rawValue), .blob(wrappedPrivate)])
        try putSetting(Self.presencePublicSetting, wrappedPublic)
    }

    /// Removes the presence key and every item sealed to it (with the password they depended
    /// on gone, nothing could open them again). Inside a transaction.
    func removePresenceKey() throws(KeychainStoreError) {
        try db.statement("DELETE FROM keybag WHERE class = ?").run([.integer(Self.presenceRow)])
        try db.statement("DELETE FROM settings WHERE name = ?").run([.text(Self.presencePublicSetting)])
        for itemClass in ItemClass.allCases {
            try deleteRows(ItemTable(itemClass), where: "substr(secret, 1, 1) = x'02'")
        }
    }

    /// The public half, to seal a new protected item; `errSecNotAvailable` without a password.
    func presencePublicKey() throws(KeychainStoreError) -> Curve25519.KeyAgreement.PublicKey {
        guard keybag.hasPassword else {
            throw .notAvailable("items that require authentication cannot be added to a keychain without a password")
        }
        guard let wrapped = try KeychainFile.setting(Self.presencePublicSetting, db) else {
            throw .notAvailable("the keychain's presence key has not been made yet: unlock the keychain with its password once")
        }
        let raw = try Keybag.unwrap(wrapped, with: deviceKey.key, label: Self.presencePublicSetting, keychainID: keychainID)
        do {
            return try raw.withUnsafeBytes { try Curve25519.KeyAgreement.PublicKey(rawRepresentation: $0) }
        } catch {
            throw .decode("the keychain's presence key is damaged")
        }
    }
}
