#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

// The non-attribute keys of SecItem dictionaries (search, return, value and use keys), the keys of
// key-generation dictionaries and the SecKeyAlgorithm names. As in SecItemConstants.swift, every
// string is Apple's exact value and every declaration is `nonisolated(unsafe)` because NSString is
// not Sendable (the objects are immutable). The prefix of a key's string tells the keychain what
// kind of key it is: `m_` search, `r_` return, `v_` value, `u_` use.

// MARK: - Search keys

// Keys that narrow a search beyond attribute equality. Most of them only apply to certificates
// and identities; SecItemCopyMatching accepts the ones it does not understand and ignores them.

/// A SecPolicy that returned certificates must satisfy.
nonisolated(unsafe) public let kSecMatchPolicy: CFString = "m_Policy"
/// Restricts the search to the items (references) in this array.
nonisolated(unsafe) public let kSecMatchItemList: CFString = "m_ItemList"
/// A list of keychains to search (macOS).
nonisolated(unsafe) public let kSecMatchSearchList: CFString = "m_SearchList"
/// DER-encoded issuer names; only certificates chaining to one of them match.
nonisolated(unsafe) public let kSecMatchIssuers: CFString = "m_Issuers"
/// An e-mail address that certificates must contain, when they contain one at all.
nonisolated(unsafe) public let kSecMatchEmailAddressIfPresent: CFString = "m_EmailAddressIfPresent"
/// Text that the certificate subject must contain.
nonisolated(unsafe) public let kSecMatchSubjectContains: CFString = "m_SubjectContains"
/// A host name that the certificate must be valid for (itself or a parent domain).
nonisolated(unsafe) public let kSecMatchHostOrSubdomainOfHost: CFString = "m_HostOrSubdomainOfHost"
/// Compare strings without regard to case.
nonisolated(unsafe) public let kSecMatchCaseInsensitive: CFString = "m_CaseInsensitive"
/// Only return certificates that are trusted.
nonisolated(unsafe) public let kSecMatchTrustedOnly: CFString = "m_TrustedOnly"
/// Only return certificates valid on this date (kCFNull means now).
nonisolated(unsafe) public let kSecMatchValidOnDate: CFString = "m_ValidOnDate"
/// Subject must start with this text (macOS file keychain).
nonisolated(unsafe) public let kSecMatchSubjectStartsWith: CFString = "m_SubjectStartsWith"
/// Subject must end with this text (macOS file keychain).
nonisolated(unsafe) public let kSecMatchSubjectEndsWith: CFString = "m_SubjectEndsWith"
/// Subject must equal this text (macOS file keychain).
nonisolated(unsafe) public let kSecMatchSubjectWholeString: CFString = "m_SubjectWholeString"
/// Compare strings ignoring diacritics (macOS file keychain).
nonisolated(unsafe) public let kSecMatchDiacriticInsensitive: CFString = "m_DiacriticInsensitive"
/// Compare strings ignoring character width (macOS file keychain).
nonisolated(unsafe) public let kSecMatchWidthInsensitive: CFString = "m_WidthInsensitive"

// MARK: - Match limit

/// How many results a search may return: kSecMatchLimitOne, kSecMatchLimitAll or a number.
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
/// Return at most one result (the default of SecItemCopyMatching).
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// Return every matching item, as an array.
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"

// MARK: - Return keys

// Booleans saying what a call hands back for each item. Several may be combined; then each result
// is a dictionary.

/// Return the item's secret contents as data.
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
/// Return the item's attributes as a dictionary.
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
/// Return an object reference (SecKey, SecCertificate, SecIdentity) for the item.
nonisolated(unsafe) public let kSecReturnRef: CFString = "r_Ref"
/// Return a persistent reference: opaque data that finds the same item again later.
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = "r_PersistentRef"

// MARK: - Value keys

/// The item's secret contents (the password, or the key or certificate bytes).
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"
/// An object reference (SecKey, SecCertificate, SecIdentity) standing for the item.
nonisolated(unsafe) public let kSecValueRef: CFString = "v_Ref"
/// A persistent reference identifying the item.
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = "v_PersistentRef"

// MARK: - Authentication UI values (of kSecUseAuthenticationUI)

/// Prompt the user when an item needs authentication (the default).
nonisolated(unsafe) public let kSecUseAuthenticationUIAllow: CFString = "u_AuthUIA"
/// Do not prompt; fail with errSecInteractionNotAllowed when authentication would be needed.
nonisolated(unsafe) public let kSecUseAuthenticationUIFail: CFString = "u_AuthUIF"
/// Do not prompt; silently leave out items that would need authentication.
nonisolated(unsafe) public let kSecUseAuthenticationUISkip: CFString = "u_AuthUIS"

// MARK: - Use keys

// Keys that change how a call is carried out rather than what it matches.

/// A list of items to act on instead of the keychain (macOS).
nonisolated(unsafe) public let kSecUseItemList: CFString = "u_ItemList"
/// Private: include tombstones (records of deleted synced items).
nonisolated(unsafe) public let kSecUseTombstones: CFString = "u_Tomb"
/// Private: an externalised authentication context (data), as made from an LAContext.
nonisolated(unsafe) public let kSecUseCredentialReference: CFString = "u_CredRef"
/// The reason shown to the user when authentication is needed. Deprecated by Apple; set
/// localizedReason on the LAContext passed with kSecUseAuthenticationContext instead.
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = "u_OpPrompt"
/// Boolean; true means never prompt and fail instead. Deprecated by Apple; use
/// kSecUseAuthenticationUI with kSecUseAuthenticationUIFail instead.
nonisolated(unsafe) public let kSecUseNoAuthenticationUI: CFString = "u_NoAuthUI"
/// Whether and how the user may be prompted (a kSecUseAuthenticationUI* value).
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = "u_AuthUI"
/// Private: always use the system keychain.
nonisolated(unsafe) public let kSecUseSystemKeychainAlways: CFString = "u_SystemKeychainAlways"
/// Private: platform-restricted spelling of kSecUseSystemKeychainAlways (same string).
nonisolated(unsafe) public let kSecUseSystemKeychainAlwaysDarwinOSOnlyUnavailableOnMacOS: CFString =
    "u_SystemKeychainAlways"
/// Private: use the system keychain.
nonisolated(unsafe) public let kSecUseSystemKeychain: CFString = "u_SystemKeychain"
/// Private: use the sync-bubble keychain of a given user.
nonisolated(unsafe) public let kSecUseSyncBubbleKeychain: CFString = "u_SyncBubbleKeychain"
/// Private: the name of the calling component, for logging.
nonisolated(unsafe) public let kSecUseCallerName: CFString = "u_CallerName"
/// Private: return token items without decoding them.
nonisolated(unsafe) public let kSecUseTokenRawItems: CFString = "u_TokenRawItems"
/// Private: apply kSecMatchIssuers to certificates as well as identities.
nonisolated(unsafe) public let kSecUseCertificatesWithMatchIssuers: CFString = "u_CertWithIssuers"
/// Boolean; on macOS selects the data-protection keychain. Accepted and ignored here, as on iOS.
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"
/// Use the keychain that does not depend on the current user.
nonisolated(unsafe) public let kSecUseUserIndependentKeychain: CFString = "u_UserIndependentKeychain"
/// An LAContext to use for (or reuse from) authentication.
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = "u_AuthCtx"
/// The keychain to use (macOS file keychain).
nonisolated(unsafe) public let kSecUseKeychain: CFString = "u_Keychain"

// MARK: - SecKey generation and other dictionary keys

/// In key-generation parameters: a dictionary of attributes for the private key.
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = "private"
/// In key-generation parameters: a dictionary of attributes for the public key.
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = "public"
/// Private: key may be used for Apple Pay.
nonisolated(unsafe) public let kSecKeyApplePayEnabled: CFString = "applepay"
/// Private: key is bound to the operating system.
nonisolated(unsafe) public let kSecKeyOSBound: CFString = "osbound"
/// Private: key is bound to the sealed system hashes.
nonisolated(unsafe) public let kSecKeySealedHashesBound: CFString = "sealedhashesbound"
/// Private: password-generation rule, maximum length.
nonisolated(unsafe) public let kSecPasswordMaxLength: CFString = "PasswordMaxLength"
/// Private: password-generation rule, minimum length. Apple's value really is the same string as
/// kSecPasswordMaxLength; it is copied unchanged.
nonisolated(unsafe) public let kSecPasswordMinLength: CFString = "PasswordMaxLength"
/// Private: password-generation rule, allowed characters.
nonisolated(unsafe) public let kSecPasswordAllowedCharacters: CFString = "PasswordAllowedCharacters"
/// Private: password-generation rule, required characters.
nonisolated(unsafe) public let kSecPasswordRequiredCharacters: CFString = "PasswordRequiredCharacters"
/// Private: shared web credential password.
nonisolated(unsafe) public let kSecSharedPassword: CFString = "spwd"
/// In key-generation parameters: attributes of a symmetric key (macOS file keychain).
nonisolated(unsafe) public let kSecSymmetricKeyAttrs: CFString = "symmetric"

// MARK: - Key algorithms

// The type SecKeyAlgorithm and its Swift names (`.ecdsaSignatureMessageX962SHA256`) are in
// SecKeyAlgorithm.swift; the C names below are values of it.

// RSA signatures. "Digest" variants sign a hash the caller already computed; "Message" variants
// hash the input first. The PSS strings end with the salt length; the SHA-224 one says 24 in
// Apple's code (not 28), and that string is kept as it is.

public let kSecKeyAlgorithmRSASignatureRaw: SecKeyAlgorithm = "algid:sign:RSA:raw"
public let kSecKeyAlgorithmRSASignatureDigestPKCS1v15Raw: SecKeyAlgorithm = "algid:sign:RSA:digest-PKCS1v15"
public let kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA1: SecKeyAlgorithm = "algid:sign:RSA:digest-PKCS1v15:SHA1"
public let kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA224: SecKeyAlgorithm = "algid:sign:RSA:digest-PKCS1v15:SHA224"
public let kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA256: SecKeyAlgorithm = "algid:sign:RSA:digest-PKCS1v15:SHA256"
public let kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA384: SecKeyAlgorithm = "algid:sign:RSA:digest-PKCS1v15:SHA384"
public let kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA512: SecKeyAlgorithm = "algid:sign:RSA:digest-PKCS1v15:SHA512"
public let kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA1: SecKeyAlgorithm = "algid:sign:RSA:message-PKCS1v15:SHA1"
public let kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA224: SecKeyAlgorithm = "algid:sign:RSA:message-PKCS1v15:SHA224"
public let kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA256: SecKeyAlgorithm = "algid:sign:RSA:message-PKCS1v15:SHA256"
public let kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA384: SecKeyAlgorithm = "algid:sign:RSA:message-PKCS1v15:SHA384"
public let kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA512: SecKeyAlgorithm = "algid:sign:RSA:message-PKCS1v15:SHA512"
public let kSecKeyAlgorithmRSASignatureDigestPSSSHA1: SecKeyAlgorithm = "algid:sign:RSA:digest-PSS:SHA1:SHA1:20"
public let kSecKeyAlgorithmRSASignatureDigestPSSSHA224: SecKeyAlgorithm = "algid:sign:RSA:digest-PSS:SHA224:SHA224:24"
public let kSecKeyAlgorithmRSASignatureDigestPSSSHA256: SecKeyAlgorithm = "algid:sign:RSA:digest-PSS:SHA256:SHA256:32"
public let kSecKeyAlgorithmRSASignatureDigestPSSSHA384: SecKeyAlgorithm = "algid:sign:RSA:digest-PSS:SHA384:SHA384:48"
public let kSecKeyAlgorithmRSASignatureDigestPSSSHA512: SecKeyAlgorithm = "algid:sign:RSA:digest-PSS:SHA512:SHA512:64"
public let kSecKeyAlgorithmRSASignatureMessagePSSSHA1: SecKeyAlgorithm = "algid:sign:RSA:message-PSS:SHA1:SHA1:20"
public let kSecKeyAlgorithmRSASignatureMessagePSSSHA224: SecKeyAlgorithm = "algid:sign:RSA:message-PSS:SHA224:SHA224:24"
public let kSecKeyAlgorithmRSASignatureMessagePSSSHA256: SecKeyAlgorithm = "algid:sign:RSA:message-PSS:SHA256:SHA256:32"
public let kSecKeyAlgorithmRSASignatureMessagePSSSHA384: SecKeyAlgorithm = "algid:sign:RSA:message-PSS:SHA384:SHA384:48"
public let kSecKeyAlgorithmRSASignatureMessagePSSSHA512: SecKeyAlgorithm = "algid:sign:RSA:message-PSS:SHA512:SHA512:64"

// ECDSA signatures. X9.62 signatures are DER sequences; RFC 4754 signatures are the raw r and s
// values, each padded to the curve size.

public let kSecKeyAlgorithmECDSASignatureRFC4754: SecKeyAlgorithm = "algid:sign:ECDSA:RFC4754"
public let kSecKeyAlgorithmECDSASignatureDigestX962: SecKeyAlgorithm = "algid:sign:ECDSA:digest-X962"
public let kSecKeyAlgorithmECDSASignatureDigestX962SHA1: SecKeyAlgorithm = "algid:sign:ECDSA:digest-X962:SHA1"
public let kSecKeyAlgorithmECDSASignatureDigestX962SHA224: SecKeyAlgorithm = "algid:sign:ECDSA:digest-X962:SHA224"
public let kSecKeyAlgorithmECDSASignatureDigestX962SHA256: SecKeyAlgorithm = "algid:sign:ECDSA:digest-X962:SHA256"
public let kSecKeyAlgorithmECDSASignatureDigestX962SHA384: SecKeyAlgorithm = "algid:sign:ECDSA:digest-X962:SHA384"
public let kSecKeyAlgorithmECDSASignatureDigestX962SHA512: SecKeyAlgorithm = "algid:sign:ECDSA:digest-X962:SHA512"
public let kSecKeyAlgorithmECDSASignatureMessageX962SHA1: SecKeyAlgorithm = "algid:sign:ECDSA:message-X962:SHA1"
public let kSecKeyAlgorithmECDSASignatureMessageX962SHA224: SecKeyAlgorithm = "algid:sign:ECDSA:message-X962:SHA224"
public let kSecKeyAlgorithmECDSASignatureMessageX962SHA256: SecKeyAlgorithm = "algid:sign:ECDSA:message-X962:SHA256"
public let kSecKeyAlgorithmECDSASignatureMessageX962SHA384: SecKeyAlgorithm = "algid:sign:ECDSA:message-X962:SHA384"
public let kSecKeyAlgorithmECDSASignatureMessageX962SHA512: SecKeyAlgorithm = "algid:sign:ECDSA:message-X962:SHA512"
public let kSecKeyAlgorithmECDSASignatureDigestRFC4754: SecKeyAlgorithm = "algid:sign:ECDSA:digest-RFC4754"
public let kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA1: SecKeyAlgorithm = "algid:sign:ECDSA:digest-RFC4754:SHA1"
public let kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA224: SecKeyAlgorithm = "algid:sign:ECDSA:digest-RFC4754:SHA224"
public let kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA256: SecKeyAlgorithm = "algid:sign:ECDSA:digest-RFC4754:SHA256"
public let kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA384: SecKeyAlgorithm = "algid:sign:ECDSA:digest-RFC4754:SHA384"
public let kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA512: SecKeyAlgorithm = "algid:sign:ECDSA:digest-RFC4754:SHA512"
public let kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA1: SecKeyAlgorithm = "algid:sign:ECDSA:message-RFC4754:SHA1"
public let kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA224: SecKeyAlgorithm = "algid:sign:ECDSA:message-RFC4754:SHA224"
public let kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA256: SecKeyAlgorithm = "algid:sign:ECDSA:message-RFC4754:SHA256"
public let kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA384: SecKeyAlgorithm = "algid:sign:ECDSA:message-RFC4754:SHA384"
public let kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA512: SecKeyAlgorithm = "algid:sign:ECDSA:message-RFC4754:SHA512"

// EdDSA signatures (Ed25519 with SHA-512, over the whole message).

public let kSecKeyAlgorithmEdDSASignatureMessageCurve25519SHA512: SecKeyAlgorithm = "algid:sign:EdDSA:message-Curve25519:SHA512"

// RSA encryption. The AESGCM variants encrypt a fresh AES key with RSA-OAEP and the data with it.

public let kSecKeyAlgorithmRSAEncryptionRaw: SecKeyAlgorithm = "algid:encrypt:RSA:raw"
public let kSecKeyAlgorithmRSAEncryptionPKCS1: SecKeyAlgorithm = "algid:encrypt:RSA:PKCS1"
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA1: SecKeyAlgorithm = "algid:encrypt:RSA:OAEP:SHA1"
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA224: SecKeyAlgorithm = "algid:encrypt:RSA:OAEP:SHA224"
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA256: SecKeyAlgorithm = "algid:encrypt:RSA:OAEP:SHA256"
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA384: SecKeyAlgorithm = "algid:encrypt:RSA:OAEP:SHA384"
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA512: SecKeyAlgorithm = "algid:encrypt:RSA:OAEP:SHA512"
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA1AESGCM: SecKeyAlgorithm = "algid:encrypt:RSA:OAEP:SHA1:AESGCM"
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA224AESGCM: SecKeyAlgorithm = "algid:encrypt:RSA:OAEP:SHA224:AESGCM"
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA256AESGCM: SecKeyAlgorithm = "algid:encrypt:RSA:OAEP:SHA256:AESGCM"
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA384AESGCM: SecKeyAlgorithm = "algid:encrypt:RSA:OAEP:SHA384:AESGCM"
public let kSecKeyAlgorithmRSAEncryptionOAEPSHA512AESGCM: SecKeyAlgorithm = "algid:encrypt:RSA:OAEP:SHA512:AESGCM"

// ECIES encryption: an ephemeral EC key agreement, an X9.63 key derivation, then AES-GCM.
// "Cofactor" variants use cofactor Diffie-Hellman; "VariableIV" variants also derive the IV.

public let kSecKeyAlgorithmECIESEncryptionStandardX963SHA1AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM"
public let kSecKeyAlgorithmECIESEncryptionStandardX963SHA224AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM"
public let kSecKeyAlgorithmECIESEncryptionStandardX963SHA256AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM"
public let kSecKeyAlgorithmECIESEncryptionStandardX963SHA384AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM"
public let kSecKeyAlgorithmECIESEncryptionStandardX963SHA512AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM"
public let kSecKeyAlgorithmECIESEncryptionCofactorX963SHA1AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM"
public let kSecKeyAlgorithmECIESEncryptionCofactorX963SHA224AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM"
public let kSecKeyAlgorithmECIESEncryptionCofactorX963SHA256AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM"
public let kSecKeyAlgorithmECIESEncryptionCofactorX963SHA384AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM"
public let kSecKeyAlgorithmECIESEncryptionCofactorX963SHA512AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM"
public let kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA224AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV"
public let kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA256AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV"
public let kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA384AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV"
public let kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA512AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV"
public let kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA224AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV"
public let kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV"
public let kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA384AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV"
public let kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA512AESGCM: SecKeyAlgorithm = "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV"

// EC key exchange. Without a KDF the result is the raw shared secret; the X963 variants run it
// through the X9.63 key derivation.

public let kSecKeyAlgorithmECDHKeyExchangeStandard: SecKeyAlgorithm = "algid:keyexchange:ECDH"
public let kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA1: SecKeyAlgorithm = "algid:keyexchange:ECDH:KDFX963:SHA1"
public let kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA224: SecKeyAlgorithm = "algid:keyexchange:ECDH:KDFX963:SHA224"
public let kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA256: SecKeyAlgorithm = "algid:keyexchange:ECDH:KDFX963:SHA256"
public let kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA384: SecKeyAlgorithm = "algid:keyexchange:ECDH:KDFX963:SHA384"
public let kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA512: SecKeyAlgorithm = "algid:keyexchange:ECDH:KDFX963:SHA512"
public let kSecKeyAlgorithmECDHKeyExchangeCofactor: SecKeyAlgorithm = "algid:keyexchange:ECDHC"
public let kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA1: SecKeyAlgorithm = "algid:keyexchange:ECDHC:KDFX963:SHA1"
public let kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA224: SecKeyAlgorithm = "algid:keyexchange:ECDHC:KDFX963:SHA224"
public let kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA256: SecKeyAlgorithm = "algid:keyexchange:ECDHC:KDFX963:SHA256"
public let kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA384: SecKeyAlgorithm = "algid:keyexchange:ECDHC:KDFX963:SHA384"
public let kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA512: SecKeyAlgorithm = "algid:keyexchange:ECDHC:KDFX963:SHA512"
#endif
