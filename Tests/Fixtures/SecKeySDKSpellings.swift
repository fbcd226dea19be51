// Compile-only fixture: every Swift spelling Apple's SDK gives the SecKey types Security
// declares as CF_STRING_ENUM, CF_ENUM or CF_OPTIONS (SecKey.h, SecAccessControl.h, SecTrust.h),
// the older SecKey calls with the signatures Swift imports them with, and the CoreFoundation
// names Apple's "Storing CryptoKit Keys in the Keychain" sample uses, written as Apple code
// writes them. EndToEndTests/SDKSpellingTests type-checks it with
// `-module-alias Security=KeychainServices`; a name missing here fails that test. Nothing runs.
import Foundation
import Security

// MARK: CF_STRING_ENUM SecKeyKeyExchangeParameter: a struct with static members.

func keyExchangeParameters(_ size: Int, _ info: Data) -> [[String: Any]] {
    let byRawValue: [String: Any] = [
        SecKeyKeyExchangeParameter.requestedSize.rawValue as String: size,
        SecKeyKeyExchangeParameter.sharedInfo.rawValue as String: info,
    ]
    let byStruct: [SecKeyKeyExchangeParameter: Any] = [.requestedSize: size, .sharedInfo: info]
    let rebuilt = SecKeyKeyExchangeParameter(rawValue: "requestedSize" as CFString)
    _ = rebuilt == .requestedSize
    _ = byStruct as CFDictionary
    return [byRawValue, [String(SecKeyKeyExchangeParameter.requestedSize.rawValue): size]]
}

// MARK: CF_STRING_ENUM SecKeyAlgorithm: every member of the SDK's overlay.

let everyAlgorithm: [SecKeyAlgorithm] = [
    .rsaSignatureRaw, .rsaSignatureDigestPKCS1v15Raw,
    .rsaSignatureDigestPKCS1v15SHA1, .rsaSignatureDigestPKCS1v15SHA224, .rsaSignatureDigestPKCS1v15SHA256,
    .rsaSignatureDigestPKCS1v15SHA384, .rsaSignatureDigestPKCS1v15SHA512,
    .rsaSignatureMessagePKCS1v15SHA1, .rsaSignatureMessagePKCS1v15SHA224, .rsaSignatureMessagePKCS1v15SHA256,
    .rsaSignatureMessagePKCS1v15SHA384, .rsaSignatureMessagePKCS1v15SHA512,
    .rsaSignatureDigestPSSSHA1, .rsaSignatureDigestPSSSHA224, .rsaSignatureDigestPSSSHA256,
    .rsaSignatureDigestPSSSHA384, .rsaSignatureDigestPSSSHA512,
    .rsaSignatureMessagePSSSHA1, .rsaSignatureMessagePSSSHA224, .rsaSignatureMessagePSSSHA256,
    .rsaSignatureMessagePSSSHA384, .rsaSignatureMessagePSSSHA512,
    .ecdsaSignatureRFC4754, .ecdsaSignatureDigestX962,
    .ecdsaSignatureDigestX962SHA1, .ecdsaSignatureDigestX962SHA224, .ecdsaSignatureDigestX962SHA256,
    .ecdsaSignatureDigestX962SHA384, .ecdsaSignatureDigestX962SHA512,
    .ecdsaSignatureMessageX962SHA1, .ecdsaSignatureMessageX962SHA224, .ecdsaSignatureMessageX962SHA256,
    .ecdsaSignatureMessageX962SHA384, .ecdsaSignatureMessageX962SHA512,
    .ecdsaSignatureDigestRFC4754, .ecdsaSignatureDigestRFC4754SHA1, .ecdsaSignatureDigestRFC4754SHA224,
    .ecdsaSignatureDigestRFC4754SHA256, .ecdsaSignatureDigestRFC4754SHA384, .ecdsaSignatureDigestRFC4754SHA512,
    .ecdsaSignatureMessageRFC4754SHA1, .ecdsaSignatureMessageRFC4754SHA224, .ecdsaSignatureMessageRFC4754SHA256,
    .ecdsaSignatureMessageRFC4754SHA384, .ecdsaSignatureMessageRFC4754SHA512,
    .rsaEncryptionRaw, .rsaEncryptionPKCS1,
    .rsaEncryptionOAEPSHA1, .rsaEncryptionOAEPSHA224, .rsaEncryptionOAEPSHA256,
    .rsaEncryptionOAEPSHA384, .rsaEncryptionOAEPSHA512,
    .rsaEncryptionOAEPSHA1AESGCM, .rsaEncryptionOAEPSHA224AESGCM, .rsaEncryptionOAEPSHA256AESGCM,
    .rsaEncryptionOAEPSHA384AESGCM, .rsaEncryptionOAEPSHA512AESGCM,
    .eciesEncryptionStandardX963SHA1AESGCM, .eciesEncryptionStandardX963SHA224AESGCM,
    .eciesEncryptionStandardX963SHA256AESGCM, .eciesEncryptionStandardX963SHA384AESGCM,
    .eciesEncryptionStandardX963SHA512AESGCM,
    .eciesEncryptionCofactorX963SHA1AESGCM, .eciesEncryptionCofactorX963SHA224AESGCM,
    .eciesEncryptionCofactorX963SHA256AESGCM, .eciesEncryptionCofactorX963SHA384AESGCM,
    .eciesEncryptionCofactorX963SHA512AESGCM,
    .eciesEncryptionStandardVariableIVX963SHA224AESGCM, .eciesEncryptionStandardVariableIVX963SHA256AESGCM,
    .eciesEncryptionStandardVariableIVX963SHA384AESGCM, .eciesEncryptionStandardVariableIVX963SHA512AESGCM,
    .eciesEncryptionCofactorVariableIVX963SHA224AESGCM, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM,
    .eciesEncryptionCofactorVariableIVX963SHA384AESGCM, .eciesEncryptionCofactorVariableIVX963SHA512AESGCM,
    .ecdhKeyExchangeStandard, .ecdhKeyExchangeStandardX963SHA1, .ecdhKeyExchangeStandardX963SHA224,
    .ecdhKeyExchangeStandardX963SHA256, .ecdhKeyExchangeStandardX963SHA384, .ecdhKeyExchangeStandardX963SHA512,
    .ecdhKeyExchangeCofactor, .ecdhKeyExchangeCofactorX963SHA1, .ecdhKeyExchangeCofactorX963SHA224,
    .ecdhKeyExchangeCofactorX963SHA256, .ecdhKeyExchangeCofactorX963SHA384, .ecdhKeyExchangeCofactorX963SHA512,
    SecKeyAlgorithm(rawValue: "algid:sign:ECDSA:message-X962:SHA256" as CFString),
]

// MARK: CF_ENUM SecKeyOperationType: a Swift enum over CFIndex.

func operations(_ key: SecKey) -> [Bool] {
    let all: [SecKeyOperationType] = [.sign, .verify, .encrypt, .decrypt, .keyExchange]
    let raw: CFIndex = SecKeyOperationType.keyExchange.rawValue
    _ = SecKeyOperationType(rawValue: raw)
    return all.map { SecKeyIsAlgorithmSupported(key, $0, .ecdsaSignatureMessageX962SHA256) }
}

// MARK: CF_OPTIONS SecPadding: an option set over UInt32; no padding is [].

let everyPadding: [SecPadding] = [
    [], SecPadding(), .PKCS1, .OAEP, .sigRaw, .PKCS1MD2, .PKCS1MD5,
    .PKCS1SHA1, .PKCS1SHA224, .PKCS1SHA256, .PKCS1SHA384, .PKCS1SHA512,
    SecPadding(rawValue: UInt32(0x8004)),
]

// MARK: CF_OPTIONS SecAccessControlCreateFlags, CF_ENUM SecTrustResultType.

let everyAccessControlFlag: [SecAccessControlCreateFlags] = [
    .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion,
    .or, .and, .privateKeyUsage, .applicationPassword, [.biometryAny, .or, .devicePasscode],
    SecAccessControlCreateFlags(rawValue: 1),
]

let everyTrustResult: [SecTrustResultType] = [
    .invalid, .proceed, .deny, .unspecified, .recoverableTrustFailure, .fatalTrustFailure, .otherError,
    SecTrustResultType(rawValue: UInt32(4))!,
]

// MARK: The older SecKey calls, as iOS code calls them.

func legacySignAndVerify(_ privateKey: SecKey, _ publicKey: SecKey, digest: [UInt8]) -> Bool {
    var signature = [UInt8](repeating: 0, count: SecKeyGetBlockSize(privateKey))
    var signatureLength = signature.count
    let status = SecKeyRawSign(privateKey, .PKCS1SHA256, digest, digest.count, &signature, &signatureLength)
    guard status == errSecSuccess else { return false }
    let verified = SecKeyRawVerify(publicKey, .PKCS1SHA256, digest, digest.count, signature, signatureLength)
    return verified == noErr && verified != errSSLCrypto
}

func legacyEncryptAndDecrypt(_ publicKey: SecKey, _ privateKey: SecKey, _ message: Data) -> Data? {
    let blockSize = SecKeyGetBlockSize(publicKey)
    var cipherText = [UInt8](repeating: 0, count: blockSize)
    var cipherTextLength = blockSize
    let plain = [UInt8](message)
    guard SecKeyEncrypt(publicKey, SecPadding.OAEP, plain, plain.count, &cipherText, &cipherTextLength) == errSecSuccess else { return nil }
    var plainText = [UInt8](repeating: 0, count: blockSize)
    var plainTextLength = plainText.count
    let status = SecKeyDecrypt(privateKey, .PKCS1, cipherText, cipherTextLength, &plainText, &plainTextLength)
    let raw = SecKeyDecrypt(privateKey, [], cipherText, cipherTextLength, &plainText, &plainTextLength)
    _ = raw
    return status == errSecSuccess ? Data(plainText.prefix(plainTextLength)) : nil
}

func legacyWithPointers(_ key: SecKey, _ data: Data) -> OSStatus {
    var output = Data(count: SecKeyGetBlockSize(key))
    var length = output.count
    return data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> OSStatus in
        output.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) -> OSStatus in
            SecKeyRawSign(key, .sigRaw, input.bindMemory(to: UInt8.self).baseAddress!, data.count,
                          buffer.bindMemory(to: UInt8.self).baseAddress!, &length)
        }
    }
}

// MARK: CoreFoundation names: FourCharCode, CFDataCreate, CFDataCreateWithBytesNoCopy, kCFAllocatorNull.

extension ContiguousBytes {
    /// The sample's bridge from key bytes to Data, "without making any copies".
    var dataRepresentation: Data {
        return self.withUnsafeBytes { bytes in
            let cfdata = CFDataCreateWithBytesNoCopy(nil, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, kCFAllocatorNull)
            return ((cfdata as NSData?) as Data?) ?? Data()
        }
    }
}

func creatorQuery() -> [String: Any] {
    let creator: FourCharCode = 0x4B43_484E // 'KCHN'
    let type = FourCharCode(0x6B65_7973)
    let bytes: [UInt8] = [1, 2, 3]
    let copied: CFData = CFDataCreate(kCFAllocatorDefault, bytes, bytes.count)
    return [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrCreator as String: creator,
        kSecAttrType as String: NSNumber(value: type),
        kSecValueData as String: copied,
    ]
}

// MARK: Errors as SecKey calls report them.

func describe(_ error: Unmanaged<CFError>?) -> [String] {
    guard let error = error?.takeRetainedValue() else { return [] }
    let userInfo = CFErrorCopyUserInfo(error) as? [String: Any] ?? [:]
    let text = userInfo[kCFErrorDescriptionKey as String] as? String ?? ""
    let swiftError = error as Error
    let nsError = error as NSError
    return [text, swiftError.localizedDescription, nsError.domain, String(nsError.code), CFErrorCopyDescription(error) as String]
}
