#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation

/// The padding or signature format of the older SecKey calls (``SecKeyRawSign(_:_:_:_:_:_:)``,
/// ``SecKeyRawVerify(_:_:_:_:_:_:)``, ``SecKeyEncrypt(_:_:_:_:_:_:)``,
/// ``SecKeyDecrypt(_:_:_:_:_:_:)``). Security declares it `CF_OPTIONS(uint32_t, SecPadding)`,
/// which the SDK imports as this option set; "no padding" (`kSecPaddingNone`, zero) is the
/// empty set, `[]`, as Swift imports every zero option.
///
/// Each value names one scheme; the calls compare the whole value (SecKey.m), they do not
/// combine bits.
public struct SecPadding: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Swift's importer gives a zero option no member; Apple's Swift says the same.
    @available(*, unavailable, message: "use [] to construct an empty option set")
    public static var none: SecPadding { [] }

    /// RSA PKCS #1 v1.5: signatures over the caller's bytes as they are (no DigestInfo), and
    /// encryption padding. For EC keys, an X9.62 (DER) signature.
    public static let PKCS1 = SecPadding(rawValue: 1)
    /// RSA-OAEP with SHA-1, for encryption.
    public static let OAEP = SecPadding(rawValue: 2)
    /// For EC keys, a raw signature, r ‖ s (RFC 4754).
    public static let sigRaw = SecPadding(rawValue: 0x4000)
    /// PKCS #1 v1.5 over an MD2 digest. Security's calls refuse it (errSecParam).
    public static let PKCS1MD2 = SecPadding(rawValue: 0x8000)
    /// PKCS #1 v1.5 over an MD5 digest. Security's calls refuse it (errSecParam).
    public static let PKCS1MD5 = SecPadding(rawValue: 0x8001)
    /// PKCS #1 v1.5 with the DigestInfo of a SHA-1 digest, which the caller computed.
    public static let PKCS1SHA1 = SecPadding(rawValue: 0x8002)
    /// PKCS #1 v1.5 with the DigestInfo of a SHA-224 digest.
    public static let PKCS1SHA224 = SecPadding(rawValue: 0x8003)
    /// PKCS #1 v1.5 with the DigestInfo of a SHA-256 digest.
    public static let PKCS1SHA256 = SecPadding(rawValue: 0x8004)
    /// PKCS #1 v1.5 with the DigestInfo of a SHA-384 digest.
    public static let PKCS1SHA384 = SecPadding(rawValue: 0x8005)
    /// PKCS #1 v1.5 with the DigestInfo of a SHA-512 digest.
    public static let PKCS1SHA512 = SecPadding(rawValue: 0x8006)
}

/// SecureTransport's "underlying cryptographic error", which the older SecKey calls return for
/// a signature that does not verify, where the newer ones say `errSecVerifyFailed` (SecKey.m).
public let errSSLCrypto: OSStatus = -9809

/// Signs `dataToSign` (a digest, for the digest paddings) with a private key into `sig`, whose
/// capacity `sigLen` gives and which receives the signature's length.
///
/// Mirrors Security's deprecated `SecKeyRawSign` as iOS has it: the padding names the algorithm
/// (``SecPadding`` says which); for an EC key any padding but `.sigRaw` is an X9.62 signature of
/// the bytes as a digest. A padding the key has no algorithm for is `errSecParam`, and so is a
/// buffer too small for the signature (nothing is written then).
@discardableResult
public func SecKeyRawSign(_ key: SecKey, _ padding: SecPadding, _ dataToSign: UnsafePointer<UInt8>, _ dataToSignLen: Int,
                          _ sig: UnsafeMutablePointer<UInt8>, _ sigLen: UnsafeMutablePointer<Int>) -> OSStatus {
    LegacyKeyCalls.output(into: sig, sigLen) { () throws(KeyError) in
        let data = try LegacyKeyCalls.bytes(dataToSign, dataToSignLen)
        let algorithm = try LegacyKeyCalls.signatureAlgorithm(key, padding, digestLength: data.count)
        return try KeyOperations.sign(key, algorithm, data)
    }
}

/// Checks a signature made by ``SecKeyRawSign(_:_:_:_:_:_:)``: `errSecSuccess`, or
/// `errSSLCrypto` when it does not verify (Security's deprecated `SecKeyRawVerify`).
@discardableResult
public func SecKeyRawVerify(_ key: SecKey, _ padding: SecPadding, _ signedData: UnsafePointer<UInt8>, _ signedDataLen: Int,
                            _ sig: UnsafePointer<UInt8>, _ sigLen: Int) -> OSStatus {
    LegacyKeyCalls.status { () throws(KeyError) in
        let data = try LegacyKeyCalls.bytes(signedData, signedDataLen)
        let signature = try LegacyKeyCalls.bytes(sig, sigLen)
        let algorithm = try LegacyKeyCalls.signatureAlgorithm(key, padding, digestLength: data.count)
        try KeyOperations.verify(key, algorithm, data, signature)
    }
}

/// Encrypts with an RSA public key: `[]` is raw RSA, `.PKCS1` PKCS #1 v1.5, `.OAEP` OAEP with
/// SHA-1; the ciphertext goes into `cipherText`, whose capacity `cipherTextLen` gives and which
/// receives its length (Security's deprecated `SecKeyEncrypt`).
@discardableResult
public func SecKeyEncrypt(_ key: SecKey, _ padding: SecPadding, _ plainText: UnsafePointer<UInt8>, _ plainTextLen: Int,
                          _ cipherText: UnsafeMutablePointer<UInt8>, _ cipherTextLen: UnsafeMutablePointer<Int>) -> OSStatus {
    LegacyKeyCalls.output(into: cipherText, cipherTextLen) { () throws(KeyError) in
        let data = try LegacyKeyCalls.bytes(plainText, plainTextLen)
        return try KeyOperations.encrypt(key, try LegacyKeyCalls.encryptionAlgorithm(key, padding), data)
    }
}

/// Decrypts with an RSA private key, the paddings as ``SecKeyEncrypt(_:_:_:_:_:_:)``'s. Raw RSA
/// (`[]`) returns the block without its leading zero bytes, as Security's deprecated
/// `SecKeyDecrypt` promises.
@discardableResult
public func SecKeyDecrypt(_ key: SecKey, _ padding: SecPadding, _ cipherText: UnsafePointer<UInt8>, _ cipherTextLen: Int,
                          _ plainText: UnsafeMutablePointer<UInt8>, _ plainTextLen: UnsafeMutablePointer<Int>) -> OSStatus {
    LegacyKeyCalls.output(into: plainText, plainTextLen) { () throws(KeyError) in
        let data = try LegacyKeyCalls.bytes(cipherText, cipherTextLen)
        let algorithm = try LegacyKeyCalls.encryptionAlgorithm(key, padding)
        let plain = try KeyOperations.decrypt(key, algorithm, data)
        return algorithm == .rsaEncryptionRaw ? Data(plain.drop { $0 == 0 }) : plain
    }
}
#endif
