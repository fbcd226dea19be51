public import Foundation
public import KeychainServices

/// A private key kept in the keychain, found again by its application tag: the typed form of
/// `SecKeyCreateRandomKey` with `kSecAttrIsPermanent`, `SecItemCopyMatching` for a `SecKey` and
/// the `SecKeyCreateSignature` family.
///
/// ```swift
/// let key = try KeychainKey.generate(.p256, tag: "com.example.signing")
/// let signature = try key.sign(Data("hello".utf8))
/// let later = try KeychainKey.find(tag: "com.example.signing")      // the same key
/// later?.isValidSignature(signature, for: Data("hello".utf8))        // true
/// ```
///
/// The bytes are CryptoKit's formats: ``publicKeyData()`` is what
/// `P256.Signing.PublicKey(x963Representation:)` reads, and the default EC signature is what
/// `P256.Signing.ECDSASignature(derRepresentation:)` reads, so keys and signatures pass between
/// this type and CryptoKit (or swift-crypto) unchanged. With swift-crypto's types directly:
/// ``store(_:tag:label:accessibility:)``, ``cryptoKitKey(_:)``, ``signature(for:as:)`` (see
/// <doc:CryptoKitKeys>).
///
/// The private key's material stays in the keychain; this value holds the `SecKey` the keychain
/// returned, so a key whose access control says `.privateKeyUsage` asks for authentication when
/// it signs or decrypts, not when it is found.
public struct KeychainKey: @unchecked Sendable {
    /// The kind of key to generate.
    public enum Kind: Sendable, Hashable {
        case p256, p384, p521
        /// RSA with a modulus of this many bits (2048, 3072, 4096…).
        case rsa(bits: Int)

        var parameters: (type: CFString, bits: Int) {
            switch self {
            case .p256: return (kSecAttrKeyTypeECSECPrimeRandom, 256)
            case .p384: return (kSecAttrKeyTypeECSECPrimeRandom, 384)
            case .p521: return (kSecAttrKeyTypeECSECPrimeRandom, 521)
            case .rsa(let bits): return (kSecAttrKeyTypeRSA, bits)
            }
        }
    }

    /// The private key, for the SecKey functions.
    public let secKey: SecKey
    /// The application tag it is stored under.
    public let tag: String

    /// Whether it is an RSA key (otherwise an elliptic-curve key).
    public var isRSA: Bool {
        (SecKeyCopyAttributes(secKey) as? [String: Any])?[kSecAttrKeyType as String] as? String == kSecAttrKeyTypeRSA as String
    }

    /// Generates a key pair and stores both halves in the keychain under `tag`.
    ///
    /// - Parameters:
    ///   - accessControl: authentication needed to use the private key (`.privateKeyUsage` is
    ///     added, so the key is found without it and asks when it is used).
    /// - Throws: ``KeychainError`` with the status of the failed call.
    public static func generate(_ kind: Kind = .p256, tag: String, label: String? = nil,
                                accessibility: Accessibility = .whenUnlocked,
                                accessControl: SecAccessControlCreateFlags? = nil) throws -> KeychainKey {
        var parameters: [String: Any] = [
            kSecAttrKeyType as String: kind.parameters.type,
            kSecAttrKeySizeInBits as String: kind.parameters.bits,
            kSecAttrIsPermanent as String: true,
            kSecAttrApplicationTag as String: Data(tag.utf8),
        ]
        if let label { parameters[kSecAttrLabel as String] = label }
        if let accessControl {
            var error: Unmanaged<CFError>?
            guard let control = SecAccessControlCreateWithFlags(nil, accessibility.rawValue as CFString,
                                                                accessControl.union(.privateKeyUsage), &error) else {
                throw KeychainKey.failure(error, .createAccessControl)
            }
            parameters[kSecAttrAccessControl as String] = control
        } else {
            parameters[kSecAttrAccessible as String] = accessibility.rawValue
        }
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else { throw failure(error, .add) }
        return KeychainKey(secKey: key, tag: tag)
    }

    /// The private key stored under `tag`, or nil when there is none.
    public static func find(tag: String, prompt: String? = nil) throws -> KeychainKey? {
        var query = privateKeyQuery(tag: tag)
        query[kSecReturnRef as String] = true
        if let prompt { query[kSecUseOperationPrompt as String] = prompt }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let key = result as? SecKey else {
            throw KeychainError(status: status == errSecSuccess ? errSecInternal : status, operation: .read)
        }
        return KeychainKey(secKey: key, tag: tag)
    }

    /// Deletes both halves stored under `tag`. Succeeds when there is nothing to delete.
    public static func delete(tag: String) throws {
        let query: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data(tag.utf8)]
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status, operation: .delete) }
    }

    private static func privateKeyQuery(tag: String) -> [String: Any] {
        [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data(tag.utf8),
         kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
    }

    /// The public key's bytes: X9.63 (`04 ‖ X ‖ Y`) for EC keys, PKCS#1 for RSA keys.
    public func publicKeyData() throws -> Data {
        guard let publicKey = SecKeyCopyPublicKey(secKey) else { throw KeychainError(status: errSecInternal, operation: .read) }
        var error: Unmanaged<CFError>?
        guard let data = SecKeyCopyExternalRepresentation(publicKey, &error) else { throw Self.failure(error, .read) }
        return data as Data
    }

    /// The default signature algorithm: ECDSA over SHA-256 (DER, as CryptoKit's
    /// `derRepresentation`), or RSA-PSS over SHA-256.
    public var defaultSignatureAlgorithm: SecKeyAlgorithm {
        isRSA ? .rsaSignatureMessagePSSSHA256 : .ecdsaSignatureMessageX962SHA256
    }

    /// The default encryption algorithm: ECIES with a derived IV (SHA-256, AES-GCM), or RSA-OAEP
    /// SHA-256 with AES-GCM, so that data of any length can be encrypted.
    public var defaultEncryptionAlgorithm: SecKeyAlgorithm {
        isRSA ? .rsaEncryptionOAEPSHA256AESGCM : .eciesEncryptionStandardVariableIVX963SHA256AESGCM
    }

    /// Signs `data` (hashing it as the algorithm says).
    public func sign(_ data: Data, algorithm: SecKeyAlgorithm? = nil) throws -> Data {
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(secKey, algorithm ?? defaultSignatureAlgorithm, data as CFData, &error) else {
            throw Self.failure(error, .read)
        }
        return signature as Data
    }

    /// Whether `signature` is this key's over `data`.
    public func isValidSignature(_ signature: Data, for data: Data, algorithm: SecKeyAlgorithm? = nil) -> Bool {
        guard let publicKey = SecKeyCopyPublicKey(secKey) else { return false }
        return SecKeyVerifySignature(publicKey, algorithm ?? defaultSignatureAlgorithm, data as CFData, signature as CFData, nil)
    }

    /// Encrypts `data` to this key (with its public half).
    public func encrypt(_ data: Data, algorithm: SecKeyAlgorithm? = nil) throws -> Data {
        guard let publicKey = SecKeyCopyPublicKey(secKey) else { throw KeychainError(status: errSecInternal, operation: .read) }
        var error: Unmanaged<CFError>?
        guard let ciphertext = SecKeyCreateEncryptedData(publicKey, algorithm ?? defaultEncryptionAlgorithm, data as CFData, &error) else {
            throw Self.failure(error, .read)
        }
        return ciphertext as Data
    }

    /// Decrypts what ``encrypt(_:algorithm:)`` made.
    public func decrypt(_ data: Data, algorithm: SecKeyAlgorithm? = nil) throws -> Data {
        var error: Unmanaged<CFError>?
        guard let plaintext = SecKeyCreateDecryptedData(secKey, algorithm ?? defaultEncryptionAlgorithm, data as CFData, &error) else {
            throw Self.failure(error, .read)
        }
        return plaintext as Data
    }

    /// A KeychainError with the status a SecKey call put in its CFError.
    static func failure(_ error: Unmanaged<CFError>?, _ operation: KeychainError.Operation) -> KeychainError {
        let status = error.map { OSStatus(truncatingIfNeeded: CFErrorGetCode($0.takeRetainedValue())) } ?? errSecInternal
        return KeychainError(status: status, operation: operation)
    }
}
