public import Crypto
public import Foundation
public import KeychainServices

/// A CryptoKit private key on a NIST curve, which the keychain keeps as a `SecKey` (an EC key
/// item). Its X9.63 bytes are what `SecKeyCreateWithData` and `SecKeyCopyExternalRepresentation`
/// exchange, as in Apple's "Storing CryptoKit Keys in the Keychain" sample.
public protocol KeychainSecKeyConvertible: Sendable {
    /// The key from its X9.63 bytes (`04 ‖ X ‖ Y ‖ K`).
    init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws
    /// The key's X9.63 bytes.
    var x963Representation: Data { get }
    /// The curve's size, as `kSecAttrKeySizeInBits` says it.
    static var keychainKeySizeInBits: Int { get }
}

extension P256.Signing.PrivateKey: KeychainSecKeyConvertible { public static var keychainKeySizeInBits: Int { 256 } }
extension P256.KeyAgreement.PrivateKey: KeychainSecKeyConvertible { public static var keychainKeySizeInBits: Int { 256 } }
extension P384.Signing.PrivateKey: KeychainSecKeyConvertible { public static var keychainKeySizeInBits: Int { 384 } }
extension P384.KeyAgreement.PrivateKey: KeychainSecKeyConvertible { public static var keychainKeySizeInBits: Int { 384 } }
extension P521.Signing.PrivateKey: KeychainSecKeyConvertible { public static var keychainKeySizeInBits: Int { 521 } }
extension P521.KeyAgreement.PrivateKey: KeychainSecKeyConvertible { public static var keychainKeySizeInBits: Int { 521 } }

/// A CryptoKit ECDSA signature type, with the SecKey algorithm that makes what CryptoKit's own
/// `signature(for:)` makes: X9.62 (DER) over SHA-256 on P-256, SHA-384 on P-384, SHA-512 on P-521.
public protocol KeychainECDSASignature: Sendable {
    init<Bytes: DataProtocol>(derRepresentation: Bytes) throws
    var derRepresentation: Data { get }
    /// The `SecKeyAlgorithm` matching CryptoKit's signing of a message with this curve.
    static var messageAlgorithm: SecKeyAlgorithm { get }
}

extension P256.Signing.ECDSASignature: KeychainECDSASignature {
    public static var messageAlgorithm: SecKeyAlgorithm { .ecdsaSignatureMessageX962SHA256 }
}
extension P384.Signing.ECDSASignature: KeychainECDSASignature {
    public static var messageAlgorithm: SecKeyAlgorithm { .ecdsaSignatureMessageX962SHA384 }
}
extension P521.Signing.ECDSASignature: KeychainECDSASignature {
    public static var messageAlgorithm: SecKeyAlgorithm { .ecdsaSignatureMessageX962SHA512 }
}

/// A CryptoKit public key that reads the X9.63 bytes of ``KeychainKey/publicKeyData()``.
public protocol KeychainPublicKeyConvertible: Sendable {
    init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws
}

extension P256.Signing.PublicKey: KeychainPublicKeyConvertible {}
extension P256.KeyAgreement.PublicKey: KeychainPublicKeyConvertible {}
extension P384.Signing.PublicKey: KeychainPublicKeyConvertible {}
extension P384.KeyAgreement.PublicKey: KeychainPublicKeyConvertible {}
extension P521.Signing.PublicKey: KeychainPublicKeyConvertible {}
extension P521.KeyAgreement.PublicKey: KeychainPublicKeyConvertible {}

extension KeychainKey {
    /// Stores a CryptoKit private key in the keychain under `tag` (a private EC key item, its
    /// material sealed like every secret) and returns it as a ``KeychainKey``.
    ///
    /// ```swift
    /// let signingKey = P256.Signing.PrivateKey()
    /// try KeychainKey.store(signingKey, tag: "com.example.signing")
    /// let loaded = try KeychainKey.find(tag: "com.example.signing")?.cryptoKitKey(P256.Signing.PrivateKey.self)
    /// ```
    ///
    /// - Throws: ``KeychainError`` with `errSecDuplicateItem` when the same key is already stored
    ///   under `tag`, or the status of the failed call.
    @discardableResult
    public static func store<Key: KeychainSecKeyConvertible>(_ key: Key, tag: String, label: String? = nil,
                                                             accessibility: Accessibility = .whenUnlocked) throws -> KeychainKey {
        let attributes: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
            kSecAttrKeySizeInBits as String: Key.keychainKeySizeInBits,
        ]
        var error: Unmanaged<CFError>?
        guard let secKey = SecKeyCreateWithData(key.x963Representation as CFData, attributes as CFDictionary, &error) else {
            throw failure(error, .add)
        }
        var item: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecValueRef as String: secKey,
            kSecAttrApplicationTag as String: Data(tag.utf8),
            kSecAttrAccessible as String: accessibility.rawValue,
        ]
        if let label { item[kSecAttrLabel as String] = label }
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainError(status: status, operation: .add) }
        return KeychainKey(secKey: secKey, tag: tag)
    }

    /// This key as a CryptoKit private key of the matching curve (its X9.63 bytes read back).
    public func cryptoKitKey<Key: KeychainSecKeyConvertible>(_ type: Key.Type = Key.self) throws -> Key {
        var error: Unmanaged<CFError>?
        guard let data = SecKeyCopyExternalRepresentation(secKey, &error) else { throw Self.failure(error, .read) }
        do { return try Key(x963Representation: data as Data) } catch {
            throw KeychainError(status: errSecDecode, operation: .read)
        }
    }

    /// The public key as a CryptoKit type (`P256.Signing.PublicKey` and the like).
    public func publicKey<PublicKey: KeychainPublicKeyConvertible>(_ type: PublicKey.Type = PublicKey.self) throws -> PublicKey {
        do { return try PublicKey(x963Representation: publicKeyData()) } catch let error as KeychainError { throw error } catch {
            throw KeychainError(status: errSecDecode, operation: .read)
        }
    }

    /// Signs `data` as CryptoKit's `signature(for:)` would with this key, through the keychain.
    ///
    /// ```swift
    /// let signature: P256.Signing.ECDSASignature = try key.signature(for: message)
    /// ```
    public func signature<Signature: KeychainECDSASignature>(for data: Data, as type: Signature.Type = Signature.self) throws -> Signature {
        let der = try sign(data, algorithm: Signature.messageAlgorithm)
        do { return try Signature(derRepresentation: der) } catch { throw KeychainError(status: errSecDecode, operation: .read) }
    }

    /// Whether `signature` is this key's CryptoKit-style signature over `data`.
    public func isValidSignature<Signature: KeychainECDSASignature>(_ signature: Signature, for data: Data) -> Bool {
        isValidSignature(signature.derRepresentation, for: data, algorithm: Signature.messageAlgorithm)
    }
}
