#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
import Crypto

/// Proof that the keychain password was given just now: what opens the secret of an item whose
/// access control requires user presence or the passcode.
///
/// Such a secret is sealed, inside its usual class-key layer, to the keychain's presence key: an
/// X25519 key pair whose public half is kept under the device key (so adding a protected item
/// needs no password, as on Apple platforms) and whose private half is kept only under the key
/// derived from the password. It is never put in the kernel keyring with the class keys, so a
/// process that merely finds the keychain unlocked cannot read these secrets.
///
/// Obtain one with ``KeychainFile/authenticate(password:)``. It holds key material: keep it no
/// longer than the authentication it stands for is meant to last.
package struct PresenceCredential: Sendable {
    /// The keychain this credential belongs to (``KeychainFile/identifier``).
    package let keychainID: Data
    let privateKey: Curve25519.KeyAgreement.PrivateKey
}

/// What the caller of a read decides for an item that needs authentication.
package enum AuthorizationOutcome: Sendable {
    /// Authentication succeeded: open the item with this credential.
    case credential(PresenceCredential)
    /// Leave the item out of the results (`kSecUseAuthenticationUISkip`).
    case skip
}

/// Asked once for each matched item whose access control requires authentication, with the
/// item's stored access control (`accc`) and its attributes. It throws to fail the whole call
/// (with the status the error carries).
package typealias ItemAuthorizer = (_ accessControl: Data?) throws(KeychainStoreError) -> AuthorizationOutcome

/// The access control stored with an item.
package struct ItemAccessControl: Sendable, Equatable {
    /// The serialised access control, returned as the item's `accc`.
    package var encoded: Data
    /// Whether reading the item's secret needs authentication (user presence or the passcode).
    package var requiresAuthentication: Bool

    package init(encoded: Data, requiresAuthentication: Bool) {
        self.encoded = encoded
        self.requiresAuthentication = requiresAuthentication
    }
}

/// Sealing to the presence key: an ephemeral X25519 agreement with the keychain's presence public
/// key, HKDF-SHA256 bound to the item's row, then AES-256-GCM.
enum PresenceSeal {
    static let label = "presence"

    static func seal(_ plaintext: Data, to publicKey: Curve25519.KeyAgreement.PublicKey,
                     table: String, persistentRef: Data) throws(KeychainStoreError) -> Data {
        do {
            let ephemeral = Curve25519.KeyAgreement.PrivateKey()
            let key = try ephemeral.sharedSecretFromKeyAgreement(with: publicKey)
                .hkdfDerivedSymmetricKey(using: SHA256.self, salt: Data(), sharedInfo: info(table, persistentRef), outputByteCount: 32)
            var out = ephemeral.publicKey.rawRepresentation
            out.append(try AES.GCM.seal(plaintext, using: key).combined!)
            return out
        } catch {
            throw .allocate("encryption failed")
        }
    }

    static func open(_ sealed: Data, with credential: PresenceCredential, table: String,
                     persistentRef: Data) throws(KeychainStoreError) -> Data {
        guard sealed.count >= 32 + 28 else { throw .decode("a protected secret is damaged") }
        let ephemeral: Curve25519.KeyAgreement.PublicKey
        let key: SymmetricKey
        do {
            ephemeral = try .init(rawRepresentation: sealed.prefix(32))
            key = try credential.privateKey.sharedSecretFromKeyAgreement(with: ephemeral)
                .hkdfDerivedSymmetricKey(using: SHA256.self, salt: Data(), sharedInfo: info(table, persistentRef), outputByteCount: 32)
        } catch {
            throw .decode("a protected secret is damaged")
        }
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: sealed.dropFirst(32)), using: key)
        } catch {
            // The outer class-key layer already proved the blob intact, so a failure here means
            // the credential is not this keychain's.
            throw .authFailed("the authentication does not open this item")
        }
    }

    private static func info(_ table: String, _ persistentRef: Data) -> Data {
        var info = Data("swift-keychain/presence/\(table)/".utf8)
        info.append(persistentRef)
        return info
    }
}

/// What an update does to the items' access control.
package enum AccessControlChange: Sendable, Equatable {
    /// Leave it as it is.
    case keep
    /// Remove it (an update that sets only the accessibility, as on Apple platforms).
    case remove
    /// Replace it.
    case set(ItemAccessControl)
}
