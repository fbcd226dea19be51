// Compile-only fixture: Apple-platform code that calls keychain functions for their effect and
// drops what they return, as code written against Apple's imported C functions may (they never
// warn about an unused result). EndToEndTests/ImportPathTests type-checks this file with
// `-module-alias Security=KeychainServices -warnings-as-errors`; nothing here runs.
import Foundation
import Security

func dropTheResults(_ query: [String: Any], _ changes: [String: Any], _ key: SecKey, _ trust: SecTrust) {
    SecItemDelete(query as CFDictionary)
    SecItemAdd(query as CFDictionary, nil)
    SecItemUpdate(query as CFDictionary, changes as CFDictionary)
    SecItemCopyMatching(query as CFDictionary, nil)
    var bytes = [UInt8](repeating: 0, count: 16)
    SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes)
    SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256] as CFDictionary, nil)
    SecKeyCopyPublicKey(key)
    SecKeyCopyExternalRepresentation(key, nil)
    SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Data() as CFData, nil)
    SecTrustEvaluateWithError(trust, nil)
    SecTrustSetAnchorCertificatesOnly(trust, true)
    SecCertificateCreateWithData(nil, Data() as CFData)
    SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)
    SecCopyErrorMessageString(errSecItemNotFound, nil)
}
