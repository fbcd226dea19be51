public import Crypto
public import Foundation
import KeychainServices

/// A CryptoKit key the keychain keeps as a generic password: its raw bytes are the item's
/// data. Apple's "Storing CryptoKit Keys in the Keychain" sample keeps Curve25519 keys so,
/// since the keychain has no key type for them.
public protocol KeychainGenericPasswordConvertible: Sendable {
    /// The key from its raw bytes.
    init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws
    /// The key's raw bytes.
    var rawRepresentation: Data { get }
}

extension Curve25519.Signing.PrivateKey: KeychainGenericPasswordConvertible {}
extension Curve25519.KeyAgreement.PrivateKey: KeychainGenericPasswordConvertible {}

extension Keychain {
    /// Stores a CryptoKit key under `key` (the account) in this service, replacing any value
    /// already there. The bytes are sealed as every password is.
    ///
    /// ```swift
    /// let keychain = Keychain(service: "com.example.app")
    /// try keychain.setCryptoKey(Curve25519.Signing.PrivateKey(), key: "signing")
    /// let key = try keychain.cryptoKey(Curve25519.Signing.PrivateKey.self, key: "signing")
    /// ```
    public func setCryptoKey<Key: KeychainGenericPasswordConvertible>(_ value: Key, key: String) throws {
        try set(value.rawRepresentation, key: key)
    }

    /// The CryptoKit key stored under `key`, or nil when there is none.
    ///
    /// - Throws: ``KeychainError`` with `errSecDecode` when the stored bytes are not such a key,
    ///   or the status of the failed read.
    public func cryptoKey<Key: KeychainGenericPasswordConvertible>(_ type: Key.Type = Key.self, key: String) throws -> Key? {
        guard let data = try getData(key) else { return nil }
        do { return try Key(rawRepresentation: data) } catch {
            throw KeychainError(status: errSecDecode, operation: .read)
        }
    }
}
