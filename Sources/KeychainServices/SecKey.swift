#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation
import KeychainStore

/// An asymmetric key: an elliptic-curve key on P-256, P-384 or P-521, an RSA key or an Ed25519
/// key, private or public. Mirrors Security's `SecKeyRef`. A key is either in memory only or stands for a `keys`
/// item of the keychain (made with `kSecAttrIsPermanent`, or returned by `kSecReturnRef`).
///
/// Keys are compared by their key material: two objects for the same key are equal and hash
/// alike, whichever call made them. Put one in a dictionary under `kSecValueRef` to store it or
/// to search for its item.
public final class SecKey: NSObject, @unchecked Sendable {
    /// The key itself.
    let material: KeyMaterial
    /// What the keychain keeps beside the key material when the key is a stored item (label,
    /// tag, access group, usage flags…), reported by ``SecKeyCopyAttributes(_:)``.
    let storedItem: KeyItemAttributes?
    /// The access control to satisfy before the key is used (sign, decrypt, key exchange), for
    /// a stored private key whose access control says `.privateKeyUsage`.
    let usageGuard: KeyUsageGuard?
    /// The external representation and application label, worked out on first use
    /// (``derivedBytes``): for an EC key each costs a conversion of the point to affine
    /// coordinates, and storing a key asks for both more than once.
    private let derivedCache = Locked<DerivedKeyBytes?>(nil)

    init(material: KeyMaterial, storedItem: KeyItemAttributes? = nil, usageGuard: KeyUsageGuard? = nil) {
        self.material = material
        self.storedItem = storedItem
        self.usageGuard = usageGuard
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecKey else { return false }
        return other === self || (other.material.isPrivate == material.isPrivate
            && other.derivedBytes.externalRepresentation == derivedBytes.externalRepresentation)
    }

    public override var hash: Int { derivedBytes.applicationLabel.hashValue }

    /// ``KeyMaterial/externalRepresentation`` and ``KeyMaterial/applicationLabel``, computed once
    /// per key object (an EC private key's public bytes are the start of its own X9.63 bytes).
    var derivedBytes: DerivedKeyBytes {
        if let cached = derivedCache.withLock({ $0 }) { return cached }
        let external = material.externalRepresentation
        let publicBytes: Data
        switch material {
        case .ecPrivate(let key): publicBytes = external.prefix(1 + 2 * key.curve.byteCount)
        case .ecPublic, .rsaPublic, .rsaSmallPublic, .ed25519Public: publicBytes = external
        case .rsaPrivate, .rsaSmallPrivate, .ed25519Private: publicBytes = material.publicKeyBytes
        }
        let derived = DerivedKeyBytes(externalRepresentation: external, applicationLabel: KeyMaterial.applicationLabel(of: publicBytes))
        derivedCache.withLock { $0 = derived }
        return derived
    }

    /// False for a stored private key whose item says `kSecAttrIsExtractable` false (the SSH
    /// agent's keys, or any key added so): its bytes are then refused to
    /// ``SecKeyCopyExternalRepresentation(_:_:)``. A public key is always extractable.
    var isExtractable: Bool {
        !material.isPrivate || storedItem?.attributes[KeyAttributes.extractable]?.integerValue != 0
    }

    /// Never the key material: only its kind, size and application label.
    public override var description: String {
        let kind = material.isPrivate ? "private" : "public"
        let label = material.applicationLabel.map { String(format: "%02x", $0) }.joined()
        return "<SecKeyRef algorithm: \(material.algorithmName), \(kind), \(material.sizeInBits) bits, application label: \(label)>"
    }
}

/// What a key is to be used for, asked of ``SecKeyIsAlgorithmSupported(_:_:_:)``.
/// Mirrors Security's `SecKeyOperationType`.
public enum SecKeyOperationType: CFIndex, Sendable {
    case sign = 0
    case verify = 1
    case encrypt = 2
    case decrypt = 3
    case keyExchange = 4
}

/// A key of ``SecKeyCopyKeyExchangeResult(_:_:_:_:_:)``'s parameters. Security declares it a
/// `CF_STRING_ENUM`, which the SDK imports as this struct with static members: Apple code writes
/// `SecKeyKeyExchangeParameter.requestedSize.rawValue as String` (or the struct itself as a
/// dictionary key), never the C name.
public struct SecKeyKeyExchangeParameter: RawRepresentable, Hashable, Sendable {
    /// The parameter's string, held as a Swift string so that the type is Sendable.
    let name: String

    public init(rawValue: CFString) { name = rawValue as String }

    /// Apple's string for the parameter.
    public var rawValue: CFString { name as NSString }
}

extension SecKeyKeyExchangeParameter {
    /// How many bytes to derive (a number), for the algorithms with a key-derivation function.
    public static let requestedSize = SecKeyKeyExchangeParameter(rawValue: "requestedSize")
    /// The shared information mixed into the key derivation (data).
    public static let sharedInfo = SecKeyKeyExchangeParameter(rawValue: "sharedInfo")
}

// The C names. Apple's Swift has them only as members (the bare names are "renamed" errors
// there); they are kept here because code that compiles on Apple never names them, so they
// cannot break it, while Linux code written against them keeps compiling, with a warning that
// points at the spelling both platforms accept.
/// The C name of ``SecKeyKeyExchangeParameter/requestedSize``.
@available(*, deprecated, message: "Apple's Swift SDK has no such name: write SecKeyKeyExchangeParameter.requestedSize.rawValue")
nonisolated(unsafe) public let kSecKeyKeyExchangeParameterRequestedSize: CFString = SecKeyKeyExchangeParameter.requestedSize.rawValue
/// The C name of ``SecKeyKeyExchangeParameter/sharedInfo``.
@available(*, deprecated, message: "Apple's Swift SDK has no such name: write SecKeyKeyExchangeParameter.sharedInfo.rawValue")
nonisolated(unsafe) public let kSecKeyKeyExchangeParameterSharedInfo: CFString = SecKeyKeyExchangeParameter.sharedInfo.rawValue

/// The type identifier of keys, comparable with `CFGetTypeID(object)`.
@discardableResult
public func SecKeyGetTypeID() -> CFTypeID { SecurityTypeID.key.rawValue }

/// Generates a key pair and returns its private key.
///
/// Mirrors Security's `SecKeyCreateRandomKey`. The parameters name the type
/// (`kSecAttrKeyType`: EC or RSA) and size (`kSecAttrKeySizeInBits`: 256, 384 or 521 for EC;
/// for RSA Apple's 512–8192, of which 1024–8192 in steps of 128 are made here). With
/// `kSecAttrIsPermanent` true (at the top level or in `kSecPrivateKeyAttrs` /
/// `kSecPublicKeyAttrs`) the key is stored in the keychain, with the other attributes given
/// (`kSecAttrApplicationTag`, `kSecAttrLabel`, `kSecAttrAccessControl`…).
///
/// - Returns: the private key, or nil with `error` set (`errSecParam`, also for a size Apple
///   has no key for, `errSecDuplicateItem`, `errSecUnimplemented` for an RSA size in Apple's
///   range that is not made here or a Secure Enclave key…).
@discardableResult
public func SecKeyCreateRandomKey(_ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? {
    KeyCalls.run(error) { () throws(KeyError) in try KeyGeneration.createRandomKey(parameters) }
}

/// Makes a key from its external representation.
///
/// Mirrors Security's `SecKeyCreateWithData`: `attributes` must say the type (`kSecAttrKeyType`)
/// and class (`kSecAttrKeyClass`); the data is ANSI X9.63 for EC keys (`04 ‖ X ‖ Y`, followed by
/// the scalar for a private key) and PKCS#1 DER for RSA keys.
@discardableResult
public func SecKeyCreateWithData(_ keyData: CFData, _ attributes: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? {
    KeyCalls.run(error) { () throws(KeyError) in try KeyGeneration.createWithData(keyData.copiedBytes, attributes) }
}

/// The public key of a key pair (for a public key: the key itself).
/// Mirrors Security's `SecKeyCopyPublicKey`.
@discardableResult
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    SecKey(material: key.material.publicMaterial)
}

/// The key's attributes, as Security's `SecKeyCopyAttributes` gives them: class, type, size,
/// application label, usage flags, the external representation under `kSecValueData`, and for a
/// stored key the item's attributes (label, tag, access group…).
@discardableResult
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? {
    KeyAttributes.dictionary(for: key)
}

/// The key's external representation: ANSI X9.63 for EC keys, PKCS#1 DER for RSA keys.
/// Mirrors Security's `SecKeyCopyExternalRepresentation`.
@discardableResult
public func SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    KeyCalls.run(error) { () throws(KeyError) in
        // As on macOS, a stored private key marked not extractable never leaves as bytes.
        guard key.isExtractable else { throw .unimplemented("the key is not extractable") }
        return key.material.externalRepresentation.resultObject
    }
}

/// The size in bytes of the key's blocks: the modulus for RSA, and for EC what Security reports.
/// Mirrors Security's `SecKeyGetBlockSize`.
@discardableResult
public func SecKeyGetBlockSize(_ key: SecKey) -> Int {
    key.material.blockSize
}

/// Signs data (or a digest, for the "digest" algorithms) with a private key.
/// Mirrors Security's `SecKeyCreateSignature`.
///
/// - Returns: the signature, or nil with `error` set: `errSecParam` when the algorithm does not
///   fit the key, `errSecUnimplemented` for an algorithm this platform cannot compute, an
///   authentication status when the key's access control was not satisfied.
@discardableResult
public func SecKeyCreateSignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    KeyCalls.run(error) { () throws(KeyError) in
        try KeyOperations.sign(key, algorithm, dataToSign.copiedBytes).resultObject
    }
}

/// Checks a signature with a public key (or the public half of a private key).
/// Mirrors Security's `SecKeyVerifySignature`: a wrong signature is false with
/// `errSecVerifyFailed`.
@discardableResult
public func SecKeyVerifySignature(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
                                  _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> Bool {
    KeyCalls.run(error) { () throws(KeyError) -> Bool in
        try KeyOperations.verify(key, algorithm, signedData.copiedBytes, signature.copiedBytes)
        return true
    } ?? false
}

/// Encrypts data with a public key (RSA PKCS#1, OAEP; ECIES).
/// Mirrors Security's `SecKeyCreateEncryptedData`.
@discardableResult
public func SecKeyCreateEncryptedData(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: CFData,
                                      _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    KeyCalls.run(error) { () throws(KeyError) in
        try KeyOperations.encrypt(key, algorithm, plaintext.copiedBytes).resultObject
    }
}

/// Decrypts data with a private key. Mirrors Security's `SecKeyCreateDecryptedData`.
@discardableResult
public func SecKeyCreateDecryptedData(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: CFData,
                                      _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    KeyCalls.run(error) { () throws(KeyError) in
        try KeyOperations.decrypt(key, algorithm, ciphertext.copiedBytes).resultObject
    }
}

/// Computes an ECDH shared secret between a private key and another party's public key, raw or
/// through the X9.63 key derivation (``SecKeyKeyExchangeParameter/requestedSize``,
/// ``SecKeyKeyExchangeParameter/sharedInfo``). Mirrors Security's `SecKeyCopyKeyExchangeResult`.
@discardableResult
public func SecKeyCopyKeyExchangeResult(_ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey,
                                        _ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    KeyCalls.run(error) { () throws(KeyError) in
        try KeyOperations.keyExchange(privateKey, algorithm, publicKey, parameters).resultObject
    }
}

/// Whether the key can carry out `operation` with `algorithm` here.
/// Mirrors Security's `SecKeyIsAlgorithmSupported`.
@discardableResult
public func SecKeyIsAlgorithmSupported(_ key: SecKey, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm) -> Bool {
    KeyOperations.isSupported(key.material, operation, algorithm)
}

/// Generates a key pair; the older form of ``SecKeyCreateRandomKey(_:_:)`` that returns a status
/// and both keys. Mirrors Security's `SecKeyGeneratePair`.
@discardableResult
public func SecKeyGeneratePair(_ parameters: CFDictionary, _ publicKey: UnsafeMutablePointer<SecKey?>?,
                               _ privateKey: UnsafeMutablePointer<SecKey?>?) -> OSStatus {
    do {
        let key = try KeyGeneration.createRandomKey(parameters)
        privateKey?.pointee = key
        publicKey?.pointee = SecKey(material: key.material.publicMaterial)
        return errSecSuccess
    } catch {
        return error.status
    }
}
#endif
