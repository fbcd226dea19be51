#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

/// The name of a cryptographic operation on a ``SecKey``: which signature, encryption or key
/// exchange scheme, with which digest. Its raw value is Apple's `algid:<operation>:<scheme>:…`
/// string, so a name written as a string, a C constant (`kSecKeyAlgorithm…`) or a Swift member
/// (`.ecdsaSignatureMessageX962SHA256`) are the same algorithm.
///
/// Mirrors the SDK's Swift overlay, where the C string type is imported as a struct with static
/// members. Which algorithms a key supports: ``SecKeyIsAlgorithmSupported(_:_:_:)``, and
/// docs/keys-and-certificates.md.
public struct SecKeyAlgorithm: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The algorithm's string, held as a Swift string so that the type is Sendable.
    let name: String

    public init(rawValue: CFString) { name = rawValue as String }
    public init(_ rawValue: CFString) { name = rawValue as String }
    public init(stringLiteral value: String) { name = value }

    /// Apple's string for the algorithm.
    public var rawValue: CFString { name as NSString }
    public var description: String { name }
}

extension SecKeyAlgorithm {
    public static let rsaSignatureRaw = kSecKeyAlgorithmRSASignatureRaw
    public static let rsaSignatureDigestPKCS1v15Raw = kSecKeyAlgorithmRSASignatureDigestPKCS1v15Raw
    public static let rsaSignatureDigestPKCS1v15SHA1 = kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA1
    public static let rsaSignatureDigestPKCS1v15SHA224 = kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA224
    public static let rsaSignatureDigestPKCS1v15SHA256 = kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA256
    public static let rsaSignatureDigestPKCS1v15SHA384 = kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA384
    public static let rsaSignatureDigestPKCS1v15SHA512 = kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA512
    public static let rsaSignatureMessagePKCS1v15SHA1 = kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA1
    public static let rsaSignatureMessagePKCS1v15SHA224 = kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA224
    public static let rsaSignatureMessagePKCS1v15SHA256 = kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA256
    public static let rsaSignatureMessagePKCS1v15SHA384 = kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA384
    public static let rsaSignatureMessagePKCS1v15SHA512 = kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA512
    public static let rsaSignatureDigestPSSSHA1 = kSecKeyAlgorithmRSASignatureDigestPSSSHA1
    public static let rsaSignatureDigestPSSSHA224 = kSecKeyAlgorithmRSASignatureDigestPSSSHA224
    public static let rsaSignatureDigestPSSSHA256 = kSecKeyAlgorithmRSASignatureDigestPSSSHA256
    public static let rsaSignatureDigestPSSSHA384 = kSecKeyAlgorithmRSASignatureDigestPSSSHA384
    public static let rsaSignatureDigestPSSSHA512 = kSecKeyAlgorithmRSASignatureDigestPSSSHA512
    public static let rsaSignatureMessagePSSSHA1 = kSecKeyAlgorithmRSASignatureMessagePSSSHA1
    public static let rsaSignatureMessagePSSSHA224 = kSecKeyAlgorithmRSASignatureMessagePSSSHA224
    public static let rsaSignatureMessagePSSSHA256 = kSecKeyAlgorithmRSASignatureMessagePSSSHA256
    public static let rsaSignatureMessagePSSSHA384 = kSecKeyAlgorithmRSASignatureMessagePSSSHA384
    public static let rsaSignatureMessagePSSSHA512 = kSecKeyAlgorithmRSASignatureMessagePSSSHA512
    public static let ecdsaSignatureRFC4754 = kSecKeyAlgorithmECDSASignatureRFC4754
    public static let ecdsaSignatureDigestX962 = kSecKeyAlgorithmECDSASignatureDigestX962
    public static let ecdsaSignatureDigestX962SHA1 = kSecKeyAlgorithmECDSASignatureDigestX962SHA1
    public static let ecdsaSignatureDigestX962SHA224 = kSecKeyAlgorithmECDSASignatureDigestX962SHA224
    public static let ecdsaSignatureDigestX962SHA256 = kSecKeyAlgorithmECDSASignatureDigestX962SHA256
    public static let ecdsaSignatureDigestX962SHA384 = kSecKeyAlgorithmECDSASignatureDigestX962SHA384
    public static let ecdsaSignatureDigestX962SHA512 = kSecKeyAlgorithmECDSASignatureDigestX962SHA512
    public static let ecdsaSignatureMessageX962SHA1 = kSecKeyAlgorithmECDSASignatureMessageX962SHA1
    public static let ecdsaSignatureMessageX962SHA224 = kSecKeyAlgorithmECDSASignatureMessageX962SHA224
    public static let ecdsaSignatureMessageX962SHA256 = kSecKeyAlgorithmECDSASignatureMessageX962SHA256
    public static let ecdsaSignatureMessageX962SHA384 = kSecKeyAlgorithmECDSASignatureMessageX962SHA384
    public static let ecdsaSignatureMessageX962SHA512 = kSecKeyAlgorithmECDSASignatureMessageX962SHA512
    public static let ecdsaSignatureDigestRFC4754 = kSecKeyAlgorithmECDSASignatureDigestRFC4754
    public static let ecdsaSignatureDigestRFC4754SHA1 = kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA1
    public static let ecdsaSignatureDigestRFC4754SHA224 = kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA224
    public static let ecdsaSignatureDigestRFC4754SHA256 = kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA256
    public static let ecdsaSignatureDigestRFC4754SHA384 = kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA384
    public static let ecdsaSignatureDigestRFC4754SHA512 = kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA512
    public static let ecdsaSignatureMessageRFC4754SHA1 = kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA1
    public static let ecdsaSignatureMessageRFC4754SHA224 = kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA224
    public static let ecdsaSignatureMessageRFC4754SHA256 = kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA256
    public static let ecdsaSignatureMessageRFC4754SHA384 = kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA384
    public static let ecdsaSignatureMessageRFC4754SHA512 = kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA512
    public static let edDSASignatureMessageCurve25519SHA512 = kSecKeyAlgorithmEdDSASignatureMessageCurve25519SHA512
    public static let rsaEncryptionRaw = kSecKeyAlgorithmRSAEncryptionRaw
    public static let rsaEncryptionPKCS1 = kSecKeyAlgorithmRSAEncryptionPKCS1
    public static let rsaEncryptionOAEPSHA1 = kSecKeyAlgorithmRSAEncryptionOAEPSHA1
    public static let rsaEncryptionOAEPSHA224 = kSecKeyAlgorithmRSAEncryptionOAEPSHA224
    public static let rsaEncryptionOAEPSHA256 = kSecKeyAlgorithmRSAEncryptionOAEPSHA256
    public static let rsaEncryptionOAEPSHA384 = kSecKeyAlgorithmRSAEncryptionOAEPSHA384
    public static let rsaEncryptionOAEPSHA512 = kSecKeyAlgorithmRSAEncryptionOAEPSHA512
    public static let rsaEncryptionOAEPSHA1AESGCM = kSecKeyAlgorithmRSAEncryptionOAEPSHA1AESGCM
    public static let rsaEncryptionOAEPSHA224AESGCM = kSecKeyAlgorithmRSAEncryptionOAEPSHA224AESGCM
    public static let rsaEncryptionOAEPSHA256AESGCM = kSecKeyAlgorithmRSAEncryptionOAEPSHA256AESGCM
    public static let rsaEncryptionOAEPSHA384AESGCM = kSecKeyAlgorithmRSAEncryptionOAEPSHA384AESGCM
    public static let rsaEncryptionOAEPSHA512AESGCM = kSecKeyAlgorithmRSAEncryptionOAEPSHA512AESGCM
    public static let eciesEncryptionStandardX963SHA1AESGCM = kSecKeyAlgorithmECIESEncryptionStandardX963SHA1AESGCM
    public static let eciesEncryptionStandardX963SHA224AESGCM = kSecKeyAlgorithmECIESEncryptionStandardX963SHA224AESGCM
    public static let eciesEncryptionStandardX963SHA256AESGCM = kSecKeyAlgorithmECIESEncryptionStandardX963SHA256AESGCM
    public static let eciesEncryptionStandardX963SHA384AESGCM = kSecKeyAlgorithmECIESEncryptionStandardX963SHA384AESGCM
    public static let eciesEncryptionStandardX963SHA512AESGCM = kSecKeyAlgorithmECIESEncryptionStandardX963SHA512AESGCM
    public static let eciesEncryptionCofactorX963SHA1AESGCM = kSecKeyAlgorithmECIESEncryptionCofactorX963SHA1AESGCM
    public static let eciesEncryptionCofactorX963SHA224AESGCM = kSecKeyAlgorithmECIESEncryptionCofactorX963SHA224AESGCM
    public static let eciesEncryptionCofactorX963SHA256AESGCM = kSecKeyAlgorithmECIESEncryptionCofactorX963SHA256AESGCM
    public static let eciesEncryptionCofactorX963SHA384AESGCM = kSecKeyAlgorithmECIESEncryptionCofactorX963SHA384AESGCM
    public static let eciesEncryptionCofactorX963SHA512AESGCM = kSecKeyAlgorithmECIESEncryptionCofactorX963SHA512AESGCM
    public static let eciesEncryptionStandardVariableIVX963SHA224AESGCM = kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA224AESGCM
    public static let eciesEncryptionStandardVariableIVX963SHA256AESGCM = kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA256AESGCM
    public static let eciesEncryptionStandardVariableIVX963SHA384AESGCM = kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA384AESGCM
    public static let eciesEncryptionStandardVariableIVX963SHA512AESGCM = kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA512AESGCM
    public static let eciesEncryptionCofactorVariableIVX963SHA224AESGCM = kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA224AESGCM
    public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM = kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM
    public static let eciesEncryptionCofactorVariableIVX963SHA384AESGCM = kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA384AESGCM
    public static let eciesEncryptionCofactorVariableIVX963SHA512AESGCM = kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA512AESGCM
    public static let ecdhKeyExchangeStandard = kSecKeyAlgorithmECDHKeyExchangeStandard
    public static let ecdhKeyExchangeStandardX963SHA1 = kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA1
    public static let ecdhKeyExchangeStandardX963SHA224 = kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA224
    public static let ecdhKeyExchangeStandardX963SHA256 = kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA256
    public static let ecdhKeyExchangeStandardX963SHA384 = kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA384
    public static let ecdhKeyExchangeStandardX963SHA512 = kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA512
    public static let ecdhKeyExchangeCofactor = kSecKeyAlgorithmECDHKeyExchangeCofactor
    public static let ecdhKeyExchangeCofactorX963SHA1 = kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA1
    public static let ecdhKeyExchangeCofactorX963SHA224 = kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA224
    public static let ecdhKeyExchangeCofactorX963SHA256 = kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA256
    public static let ecdhKeyExchangeCofactorX963SHA384 = kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA384
    public static let ecdhKeyExchangeCofactorX963SHA512 = kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA512
}
#endif
