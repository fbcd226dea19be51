// On Apple platforms KeychainServices is the system Security framework, which has neither the SPI
// constants nor _statusName; these tests are for this package's own implementation.
#if !(os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
import Foundation
import Testing
@testable import KeychainServices

// Checks every constant of SecItemConstants*.swift and SecBase+Codes.swift against Apple's values
// (the strings of Security's `SecItemConstants.c` and the codes of `SecBase.h` and `SecBasePriv.h`;
// the SecKeyAlgorithm strings come from Apple's `SecKeyAdaptors.m`), plus the error messages and
// SecRandomCopyBytes.

/// Every kSec constant: its name as written in the source, the constant, and Apple's string.
/// A function rather than a global because NSString is not Sendable.
private func constantTable() -> [(name: String, constant: CFString, expected: String)] {
    [
        ("kSecClass", kSecClass, "class"),
        ("kSecClassGenericPassword", kSecClassGenericPassword, "genp"),
        ("kSecClassInternetPassword", kSecClassInternetPassword, "inet"),
        ("kSecClassAppleSharePassword", kSecClassAppleSharePassword, "apls"),
        ("kSecClassCertificate", kSecClassCertificate, "cert"),
        ("kSecClassKey", kSecClassKey, "keys"),
        ("kSecClassIdentity", kSecClassIdentity, "idnt"),
        ("kSecAttrAccessibleWhenUnlocked", kSecAttrAccessibleWhenUnlocked, "ak"),
        ("kSecAttrAccessibleAfterFirstUnlock", kSecAttrAccessibleAfterFirstUnlock, "ck"),
        ("kSecAttrAccessibleAlways", kSecAttrAccessibleAlways, "dk"),
        ("kSecAttrAccessibleWhenUnlockedThisDeviceOnly", kSecAttrAccessibleWhenUnlockedThisDeviceOnly, "aku"),
        ("kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly", kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, "cku"),
        ("kSecAttrAccessibleAlwaysThisDeviceOnly", kSecAttrAccessibleAlwaysThisDeviceOnly, "dku"),
        ("kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly", kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, "akpu"),
        ("kSecAttrAccessibleAlwaysPrivate", kSecAttrAccessibleAlwaysPrivate, "dk"),
        ("kSecAttrAccessibleAlwaysThisDeviceOnlyPrivate", kSecAttrAccessibleAlwaysThisDeviceOnlyPrivate, "dku"),
        ("kSecAttrAccessibleUntilReboot", kSecAttrAccessibleUntilReboot, "f"),
        ("kSecAttrProtocolFTP", kSecAttrProtocolFTP, "ftp "),
        ("kSecAttrProtocolFTPAccount", kSecAttrProtocolFTPAccount, "ftpa"),
        ("kSecAttrProtocolHTTP", kSecAttrProtocolHTTP, "http"),
        ("kSecAttrProtocolIRC", kSecAttrProtocolIRC, "irc "),
        ("kSecAttrProtocolNNTP", kSecAttrProtocolNNTP, "nntp"),
        ("kSecAttrProtocolPOP3", kSecAttrProtocolPOP3, "pop3"),
        ("kSecAttrProtocolSMTP", kSecAttrProtocolSMTP, "smtp"),
        ("kSecAttrProtocolSOCKS", kSecAttrProtocolSOCKS, "sox "),
        ("kSecAttrProtocolIMAP", kSecAttrProtocolIMAP, "imap"),
        ("kSecAttrProtocolLDAP", kSecAttrProtocolLDAP, "ldap"),
        ("kSecAttrProtocolAppleTalk", kSecAttrProtocolAppleTalk, "atlk"),
        ("kSecAttrProtocolAFP", kSecAttrProtocolAFP, "afp "),
        ("kSecAttrProtocolTelnet", kSecAttrProtocolTelnet, "teln"),
        ("kSecAttrProtocolSSH", kSecAttrProtocolSSH, "ssh "),
        ("kSecAttrProtocolFTPS", kSecAttrProtocolFTPS, "ftps"),
        ("kSecAttrProtocolHTTPS", kSecAttrProtocolHTTPS, "htps"),
        ("kSecAttrProtocolHTTPProxy", kSecAttrProtocolHTTPProxy, "htpx"),
        ("kSecAttrProtocolHTTPSProxy", kSecAttrProtocolHTTPSProxy, "htsx"),
        ("kSecAttrProtocolFTPProxy", kSecAttrProtocolFTPProxy, "ftpx"),
        ("kSecAttrProtocolSMB", kSecAttrProtocolSMB, "smb "),
        ("kSecAttrProtocolRTSP", kSecAttrProtocolRTSP, "rtsp"),
        ("kSecAttrProtocolRTSPProxy", kSecAttrProtocolRTSPProxy, "rtsx"),
        ("kSecAttrProtocolDAAP", kSecAttrProtocolDAAP, "daap"),
        ("kSecAttrProtocolEPPC", kSecAttrProtocolEPPC, "eppc"),
        ("kSecAttrProtocolIPP", kSecAttrProtocolIPP, "ipp "),
        ("kSecAttrProtocolNNTPS", kSecAttrProtocolNNTPS, "ntps"),
        ("kSecAttrProtocolLDAPS", kSecAttrProtocolLDAPS, "ldps"),
        ("kSecAttrProtocolTelnetS", kSecAttrProtocolTelnetS, "tels"),
        ("kSecAttrProtocolIMAPS", kSecAttrProtocolIMAPS, "imps"),
        ("kSecAttrProtocolIRCS", kSecAttrProtocolIRCS, "ircs"),
        ("kSecAttrProtocolPOP3S", kSecAttrProtocolPOP3S, "pops"),
        ("kSecAttrAuthenticationTypeNTLM", kSecAttrAuthenticationTypeNTLM, "ntlm"),
        ("kSecAttrAuthenticationTypeMSN", kSecAttrAuthenticationTypeMSN, "msna"),
        ("kSecAttrAuthenticationTypeDPA", kSecAttrAuthenticationTypeDPA, "dpaa"),
        ("kSecAttrAuthenticationTypeRPA", kSecAttrAuthenticationTypeRPA, "rpaa"),
        ("kSecAttrAuthenticationTypeHTTPBasic", kSecAttrAuthenticationTypeHTTPBasic, "http"),
        ("kSecAttrAuthenticationTypeHTTPDigest", kSecAttrAuthenticationTypeHTTPDigest, "httd"),
        ("kSecAttrAuthenticationTypeHTMLForm", kSecAttrAuthenticationTypeHTMLForm, "form"),
        ("kSecAttrAuthenticationTypeDefault", kSecAttrAuthenticationTypeDefault, "dflt"),
        ("kSecAttrKeyClassPublic", kSecAttrKeyClassPublic, "0"),
        ("kSecAttrKeyClassPrivate", kSecAttrKeyClassPrivate, "1"),
        ("kSecAttrKeyClassSymmetric", kSecAttrKeyClassSymmetric, "2"),
        ("kSecAttrKeyTypeRSA", kSecAttrKeyTypeRSA, "42"),
        ("kSecAttrKeyTypeEC", kSecAttrKeyTypeEC, "73"),
        ("kSecAttrKeyTypeECSECPrimeRandom", kSecAttrKeyTypeECSECPrimeRandom, "73"),
        ("kSecAttrKeyTypeECSECPrimeRandomPKA", kSecAttrKeyTypeECSECPrimeRandomPKA, "2147483678"),
        ("kSecAttrKeyTypeSecureEnclaveAttestation", kSecAttrKeyTypeSecureEnclaveAttestation, "2147483679"),
        ("kSecAttrKeyTypeSecureEnclaveAnonymousAttestation", kSecAttrKeyTypeSecureEnclaveAnonymousAttestation, "2147483680"),
        ("kSecAttrKeyTypeEd25519", kSecAttrKeyTypeEd25519, "105"),
        ("kSecAttrKeyTypeX25519", kSecAttrKeyTypeX25519, "106"),
        ("kSecAttrKeyTypeEd448", kSecAttrKeyTypeEd448, "107"),
        ("kSecAttrKeyTypeX448", kSecAttrKeyTypeX448, "108"),
        ("kSecAttrKeyTypeKyber", kSecAttrKeyTypeKyber, "109"),
        ("kSecAttrKeyTypeMLKEM", kSecAttrKeyTypeMLKEM, "110"),
        ("kSecAttrKeyTypeMLDSA", kSecAttrKeyTypeMLDSA, "111"),
        ("kSecAttrKeyTypeDES", kSecAttrKeyTypeDES, "14"),
        ("kSecAttrKeyType3DES", kSecAttrKeyType3DES, "17"),
        ("kSecAttrKeyTypeRC2", kSecAttrKeyTypeRC2, "23"),
        ("kSecAttrKeyTypeRC4", kSecAttrKeyTypeRC4, "25"),
        ("kSecAttrKeyTypeDSA", kSecAttrKeyTypeDSA, "43"),
        ("kSecAttrKeyTypeCAST", kSecAttrKeyTypeCAST, "56"),
        ("kSecAttrKeyTypeECDSA", kSecAttrKeyTypeECDSA, "73"),
        ("kSecAttrKeyTypeAES", kSecAttrKeyTypeAES, "2147483649"),
        ("kSecAttrKeySizeKyber768", kSecAttrKeySizeKyber768, "768"),
        ("kSecAttrKeySizeKyber1024", kSecAttrKeySizeKyber1024, "1024"),
        ("kSecAttrKeySizeMLKEM768", kSecAttrKeySizeMLKEM768, "768"),
        ("kSecAttrKeySizeMLKEM1024", kSecAttrKeySizeMLKEM1024, "1024"),
        ("kSecAttrKeySizeMLDSA65", kSecAttrKeySizeMLDSA65, "65"),
        ("kSecAttrKeySizeMLDSA87", kSecAttrKeySizeMLDSA87, "87"),
        ("kSecAttrPRFHmacAlgSHA1", kSecAttrPRFHmacAlgSHA1, "hsha1"),
        ("kSecAttrPRFHmacAlgSHA224", kSecAttrPRFHmacAlgSHA224, "hsha224"),
        ("kSecAttrPRFHmacAlgSHA256", kSecAttrPRFHmacAlgSHA256, "hsha256"),
        ("kSecAttrPRFHmacAlgSHA384", kSecAttrPRFHmacAlgSHA384, "hsha384"),
        ("kSecAttrPRFHmacAlgSHA512", kSecAttrPRFHmacAlgSHA512, "hsha512"),
        ("kSecAttrSynchronizableAny", kSecAttrSynchronizableAny, "syna"),
        ("kSecAttrTokenIDSecureEnclave", kSecAttrTokenIDSecureEnclave, "com.apple.setoken"),
        ("kSecAttrTokenIDAppleKeyStore", kSecAttrTokenIDAppleKeyStore, "com.apple.setoken:aks"),
        ("kSecAttrTokenIDSecureElement", kSecAttrTokenIDSecureElement, "com.apple.secelemtoken"),
        ("kSecAttrAccessGroupToken", kSecAttrAccessGroupToken, "com.apple.token"),
        ("kSOSInternalAccessGroup", kSOSInternalAccessGroup, "com.apple.security.sos"),
        ("kSecAttrSharingGroupNone", kSecAttrSharingGroupNone, ""),
        ("kSecAttrAccessible", kSecAttrAccessible, "pdmn"),
        ("kSecAttrAccessControl", kSecAttrAccessControl, "accc"),
        ("kSecAttrAccessGroup", kSecAttrAccessGroup, "agrp"),
        ("kSecAttrCreationDate", kSecAttrCreationDate, "cdat"),
        ("kSecAttrModificationDate", kSecAttrModificationDate, "mdat"),
        ("kSecAttrDescription", kSecAttrDescription, "desc"),
        ("kSecAttrComment", kSecAttrComment, "icmt"),
        ("kSecAttrCreator", kSecAttrCreator, "crtr"),
        ("kSecAttrType", kSecAttrType, "type"),
        ("kSecAttrLabel", kSecAttrLabel, "labl"),
        ("kSecAttrIsInvisible", kSecAttrIsInvisible, "invi"),
        ("kSecAttrIsNegative", kSecAttrIsNegative, "nega"),
        ("kSecAttrAccount", kSecAttrAccount, "acct"),
        ("kSecAttrService", kSecAttrService, "svce"),
        ("kSecAttrGeneric", kSecAttrGeneric, "gena"),
        ("kSecAttrSecurityDomain", kSecAttrSecurityDomain, "sdmn"),
        ("kSecAttrServer", kSecAttrServer, "srvr"),
        ("kSecAttrProtocol", kSecAttrProtocol, "ptcl"),
        ("kSecAttrAuthenticationType", kSecAttrAuthenticationType, "atyp"),
        ("kSecAttrPort", kSecAttrPort, "port"),
        ("kSecAttrPath", kSecAttrPath, "path"),
        ("kSecAttrVolume", kSecAttrVolume, "volm"),
        ("kSecAttrAddress", kSecAttrAddress, "addr"),
        ("kSecAttrAFPServerSignature", kSecAttrAFPServerSignature, "afps"),
        ("kSecAttrAlias", kSecAttrAlias, "alis"),
        ("kSecAttrSubject", kSecAttrSubject, "subj"),
        ("kSecAttrIssuer", kSecAttrIssuer, "issr"),
        ("kSecAttrSerialNumber", kSecAttrSerialNumber, "slnr"),
        ("kSecAttrSubjectKeyID", kSecAttrSubjectKeyID, "skid"),
        ("kSecAttrPublicKeyHash", kSecAttrPublicKeyHash, "pkhh"),
        ("kSecAttrCertificateType", kSecAttrCertificateType, "ctyp"),
        ("kSecAttrCertificateEncoding", kSecAttrCertificateEncoding, "cenc"),
        ("kSecAttrKeyClass", kSecAttrKeyClass, "kcls"),
        ("kSecAttrApplicationLabel", kSecAttrApplicationLabel, "klbl"),
        ("kSecAttrIsPermanent", kSecAttrIsPermanent, "perm"),
        ("kSecAttrIsPrivate", kSecAttrIsPrivate, "priv"),
        ("kSecAttrIsModifiable", kSecAttrIsModifiable, "modi"),
        ("kSecAttrApplicationTag", kSecAttrApplicationTag, "atag"),
        ("kSecAttrKeyCreator", kSecAttrKeyCreator, "crtr"),
        ("kSecAttrKeyType", kSecAttrKeyType, "type"),
        ("kSecAttrKeySizeInBits", kSecAttrKeySizeInBits, "bsiz"),
        ("kSecAttrEffectiveKeySize", kSecAttrEffectiveKeySize, "esiz"),
        ("kSecAttrStartDate", kSecAttrStartDate, "sdat"),
        ("kSecAttrEndDate", kSecAttrEndDate, "edat"),
        ("kSecAttrIsSensitive", kSecAttrIsSensitive, "sens"),
        ("kSecAttrWasAlwaysSensitive", kSecAttrWasAlwaysSensitive, "asen"),
        ("kSecAttrIsExtractable", kSecAttrIsExtractable, "extr"),
        ("kSecAttrWasNeverExtractable", kSecAttrWasNeverExtractable, "next"),
        ("kSecAttrCanEncrypt", kSecAttrCanEncrypt, "encr"),
        ("kSecAttrCanDecrypt", kSecAttrCanDecrypt, "decr"),
        ("kSecAttrCanDerive", kSecAttrCanDerive, "drve"),
        ("kSecAttrCanSign", kSecAttrCanSign, "sign"),
        ("kSecAttrCanVerify", kSecAttrCanVerify, "vrfy"),
        ("kSecAttrCanSignRecover", kSecAttrCanSignRecover, "snrc"),
        ("kSecAttrCanVerifyRecover", kSecAttrCanVerifyRecover, "vyrc"),
        ("kSecAttrCanWrap", kSecAttrCanWrap, "wrap"),
        ("kSecAttrCanUnwrap", kSecAttrCanUnwrap, "unwp"),
        ("kSecAttrSyncViewHint", kSecAttrSyncViewHint, "vwht"),
        ("kSecAttrTokenID", kSecAttrTokenID, "tkid"),
        ("kSecAttrScriptCode", kSecAttrScriptCode, "scrp"),
        ("kSecAttrHasCustomIcon", kSecAttrHasCustomIcon, "cusi"),
        ("kSecAttrCRLType", kSecAttrCRLType, "crlt"),
        ("kSecAttrCRLEncoding", kSecAttrCRLEncoding, "crle"),
        ("kSecAttrSynchronizable", kSecAttrSynchronizable, "sync"),
        ("kSecAttrTombstone", kSecAttrTombstone, "tomb"),
        ("kSecAttrMultiUser", kSecAttrMultiUser, "musr"),
        ("kSecAttrNoLegacy", kSecAttrNoLegacy, "nleg"),
        ("kSecAttrTokenOID", kSecAttrTokenOID, "toid"),
        ("kSecAttrUUID", kSecAttrUUID, "UUID"),
        ("kSecAttrPersistantReference", kSecAttrPersistantReference, "persistref"),
        ("kSecAttrPersistentReference", kSecAttrPersistentReference, "persistref"),
        ("kSecAttrSysBound", kSecAttrSysBound, "sysb"),
        ("kSecAttrSHA1", kSecAttrSHA1, "sha1"),
        ("kSecAttrDeriveSyncIDFromItemAttributes", kSecAttrDeriveSyncIDFromItemAttributes, "dspk"),
        ("kSecAttrPCSPlaintextServiceIdentifier", kSecAttrPCSPlaintextServiceIdentifier, "pcss"),
        ("kSecAttrPCSPlaintextPublicKey", kSecAttrPCSPlaintextPublicKey, "pcsk"),
        ("kSecAttrPCSPlaintextPublicIdentity", kSecAttrPCSPlaintextPublicIdentity, "pcsi"),
        ("kSecDataInetExtraNotes", kSecDataInetExtraNotes, "binn"),
        ("kSecDataInetExtraHistory", kSecDataInetExtraHistory, "bini"),
        ("kSecDataInetExtraClientDefined0", kSecDataInetExtraClientDefined0, "bin0"),
        ("kSecDataInetExtraClientDefined1", kSecDataInetExtraClientDefined1, "bin1"),
        ("kSecDataInetExtraClientDefined2", kSecDataInetExtraClientDefined2, "bin2"),
        ("kSecDataInetExtraClientDefined3", kSecDataInetExtraClientDefined3, "bin3"),
        ("kSecAttrSecureEnclaveKeyBlob", kSecAttrSecureEnclaveKeyBlob, "toid"),
        ("kSecAttrSharingGroup", kSecAttrSharingGroup, "ggrp"),
        ("kSecAttrAccess", kSecAttrAccess, "acls"),
        ("kSecAttrPRF", kSecAttrPRF, "prf"),
        ("kSecAttrSalt", kSecAttrSalt, "salt"),
        ("kSecAttrRounds", kSecAttrRounds, "rounds"),
        ("kSecMatchPolicy", kSecMatchPolicy, "m_Policy"),
        ("kSecMatchItemList", kSecMatchItemList, "m_ItemList"),
        ("kSecMatchSearchList", kSecMatchSearchList, "m_SearchList"),
        ("kSecMatchIssuers", kSecMatchIssuers, "m_Issuers"),
        ("kSecMatchEmailAddressIfPresent", kSecMatchEmailAddressIfPresent, "m_EmailAddressIfPresent"),
        ("kSecMatchSubjectContains", kSecMatchSubjectContains, "m_SubjectContains"),
        ("kSecMatchHostOrSubdomainOfHost", kSecMatchHostOrSubdomainOfHost, "m_HostOrSubdomainOfHost"),
        ("kSecMatchCaseInsensitive", kSecMatchCaseInsensitive, "m_CaseInsensitive"),
        ("kSecMatchTrustedOnly", kSecMatchTrustedOnly, "m_TrustedOnly"),
        ("kSecMatchValidOnDate", kSecMatchValidOnDate, "m_ValidOnDate"),
        ("kSecMatchSubjectStartsWith", kSecMatchSubjectStartsWith, "m_SubjectStartsWith"),
        ("kSecMatchSubjectEndsWith", kSecMatchSubjectEndsWith, "m_SubjectEndsWith"),
        ("kSecMatchSubjectWholeString", kSecMatchSubjectWholeString, "m_SubjectWholeString"),
        ("kSecMatchDiacriticInsensitive", kSecMatchDiacriticInsensitive, "m_DiacriticInsensitive"),
        ("kSecMatchWidthInsensitive", kSecMatchWidthInsensitive, "m_WidthInsensitive"),
        ("kSecMatchLimit", kSecMatchLimit, "m_Limit"),
        ("kSecMatchLimitOne", kSecMatchLimitOne, "m_LimitOne"),
        ("kSecMatchLimitAll", kSecMatchLimitAll, "m_LimitAll"),
        ("kSecReturnData", kSecReturnData, "r_Data"),
        ("kSecReturnAttributes", kSecReturnAttributes, "r_Attributes"),
        ("kSecReturnRef", kSecReturnRef, "r_Ref"),
        ("kSecReturnPersistentRef", kSecReturnPersistentRef, "r_PersistentRef"),
        ("kSecValueData", kSecValueData, "v_Data"),
        ("kSecValueRef", kSecValueRef, "v_Ref"),
        ("kSecValuePersistentRef", kSecValuePersistentRef, "v_PersistentRef"),
        ("kSecUseAuthenticationUIAllow", kSecUseAuthenticationUIAllow, "u_AuthUIA"),
        ("kSecUseAuthenticationUIFail", kSecUseAuthenticationUIFail, "u_AuthUIF"),
        ("kSecUseAuthenticationUISkip", kSecUseAuthenticationUISkip, "u_AuthUIS"),
        ("kSecUseItemList", kSecUseItemList, "u_ItemList"),
        ("kSecUseTombstones", kSecUseTombstones, "u_Tomb"),
        ("kSecUseCredentialReference", kSecUseCredentialReference, "u_CredRef"),
        ("kSecUseOperationPrompt", kSecUseOperationPrompt, "u_OpPrompt"),
        ("kSecUseNoAuthenticationUI", kSecUseNoAuthenticationUI, "u_NoAuthUI"),
        ("kSecUseAuthenticationUI", kSecUseAuthenticationUI, "u_AuthUI"),
        ("kSecUseSystemKeychainAlways", kSecUseSystemKeychainAlways, "u_SystemKeychainAlways"),
        ("kSecUseSystemKeychainAlwaysDarwinOSOnlyUnavailableOnMacOS", kSecUseSystemKeychainAlwaysDarwinOSOnlyUnavailableOnMacOS, "u_SystemKeychainAlways"),
        ("kSecUseSystemKeychain", kSecUseSystemKeychain, "u_SystemKeychain"),
        ("kSecUseSyncBubbleKeychain", kSecUseSyncBubbleKeychain, "u_SyncBubbleKeychain"),
        ("kSecUseCallerName", kSecUseCallerName, "u_CallerName"),
        ("kSecUseTokenRawItems", kSecUseTokenRawItems, "u_TokenRawItems"),
        ("kSecUseCertificatesWithMatchIssuers", kSecUseCertificatesWithMatchIssuers, "u_CertWithIssuers"),
        ("kSecUseDataProtectionKeychain", kSecUseDataProtectionKeychain, "nleg"),
        ("kSecUseUserIndependentKeychain", kSecUseUserIndependentKeychain, "u_UserIndependentKeychain"),
        ("kSecUseAuthenticationContext", kSecUseAuthenticationContext, "u_AuthCtx"),
        ("kSecUseKeychain", kSecUseKeychain, "u_Keychain"),
        ("kSecPrivateKeyAttrs", kSecPrivateKeyAttrs, "private"),
        ("kSecPublicKeyAttrs", kSecPublicKeyAttrs, "public"),
        ("kSecKeyApplePayEnabled", kSecKeyApplePayEnabled, "applepay"),
        ("kSecKeyOSBound", kSecKeyOSBound, "osbound"),
        ("kSecKeySealedHashesBound", kSecKeySealedHashesBound, "sealedhashesbound"),
        ("kSecPasswordMaxLength", kSecPasswordMaxLength, "PasswordMaxLength"),
        ("kSecPasswordMinLength", kSecPasswordMinLength, "PasswordMaxLength"),
        ("kSecPasswordAllowedCharacters", kSecPasswordAllowedCharacters, "PasswordAllowedCharacters"),
        ("kSecPasswordRequiredCharacters", kSecPasswordRequiredCharacters, "PasswordRequiredCharacters"),
        ("kSecSharedPassword", kSecSharedPassword, "spwd"),
        ("kSecSymmetricKeyAttrs", kSecSymmetricKeyAttrs, "symmetric"),
        ("kSecKeyAlgorithmRSASignatureRaw", kSecKeyAlgorithmRSASignatureRaw.rawValue, "algid:sign:RSA:raw"),
        ("kSecKeyAlgorithmRSASignatureDigestPKCS1v15Raw", kSecKeyAlgorithmRSASignatureDigestPKCS1v15Raw.rawValue, "algid:sign:RSA:digest-PKCS1v15"),
        ("kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA1", kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA1.rawValue, "algid:sign:RSA:digest-PKCS1v15:SHA1"),
        ("kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA224", kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA224.rawValue, "algid:sign:RSA:digest-PKCS1v15:SHA224"),
        ("kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA256", kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA256.rawValue, "algid:sign:RSA:digest-PKCS1v15:SHA256"),
        ("kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA384", kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA384.rawValue, "algid:sign:RSA:digest-PKCS1v15:SHA384"),
        ("kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA512", kSecKeyAlgorithmRSASignatureDigestPKCS1v15SHA512.rawValue, "algid:sign:RSA:digest-PKCS1v15:SHA512"),
        ("kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA1", kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA1.rawValue, "algid:sign:RSA:message-PKCS1v15:SHA1"),
        ("kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA224", kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA224.rawValue, "algid:sign:RSA:message-PKCS1v15:SHA224"),
        ("kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA256", kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA256.rawValue, "algid:sign:RSA:message-PKCS1v15:SHA256"),
        ("kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA384", kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA384.rawValue, "algid:sign:RSA:message-PKCS1v15:SHA384"),
        ("kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA512", kSecKeyAlgorithmRSASignatureMessagePKCS1v15SHA512.rawValue, "algid:sign:RSA:message-PKCS1v15:SHA512"),
        ("kSecKeyAlgorithmRSASignatureDigestPSSSHA1", kSecKeyAlgorithmRSASignatureDigestPSSSHA1.rawValue, "algid:sign:RSA:digest-PSS:SHA1:SHA1:20"),
        ("kSecKeyAlgorithmRSASignatureDigestPSSSHA224", kSecKeyAlgorithmRSASignatureDigestPSSSHA224.rawValue, "algid:sign:RSA:digest-PSS:SHA224:SHA224:24"),
        ("kSecKeyAlgorithmRSASignatureDigestPSSSHA256", kSecKeyAlgorithmRSASignatureDigestPSSSHA256.rawValue, "algid:sign:RSA:digest-PSS:SHA256:SHA256:32"),
        ("kSecKeyAlgorithmRSASignatureDigestPSSSHA384", kSecKeyAlgorithmRSASignatureDigestPSSSHA384.rawValue, "algid:sign:RSA:digest-PSS:SHA384:SHA384:48"),
        ("kSecKeyAlgorithmRSASignatureDigestPSSSHA512", kSecKeyAlgorithmRSASignatureDigestPSSSHA512.rawValue, "algid:sign:RSA:digest-PSS:SHA512:SHA512:64"),
        ("kSecKeyAlgorithmRSASignatureMessagePSSSHA1", kSecKeyAlgorithmRSASignatureMessagePSSSHA1.rawValue, "algid:sign:RSA:message-PSS:SHA1:SHA1:20"),
        ("kSecKeyAlgorithmRSASignatureMessagePSSSHA224", kSecKeyAlgorithmRSASignatureMessagePSSSHA224.rawValue, "algid:sign:RSA:message-PSS:SHA224:SHA224:24"),
        ("kSecKeyAlgorithmRSASignatureMessagePSSSHA256", kSecKeyAlgorithmRSASignatureMessagePSSSHA256.rawValue, "algid:sign:RSA:message-PSS:SHA256:SHA256:32"),
        ("kSecKeyAlgorithmRSASignatureMessagePSSSHA384", kSecKeyAlgorithmRSASignatureMessagePSSSHA384.rawValue, "algid:sign:RSA:message-PSS:SHA384:SHA384:48"),
        ("kSecKeyAlgorithmRSASignatureMessagePSSSHA512", kSecKeyAlgorithmRSASignatureMessagePSSSHA512.rawValue, "algid:sign:RSA:message-PSS:SHA512:SHA512:64"),
        ("kSecKeyAlgorithmECDSASignatureRFC4754", kSecKeyAlgorithmECDSASignatureRFC4754.rawValue, "algid:sign:ECDSA:RFC4754"),
        ("kSecKeyAlgorithmECDSASignatureDigestX962", kSecKeyAlgorithmECDSASignatureDigestX962.rawValue, "algid:sign:ECDSA:digest-X962"),
        ("kSecKeyAlgorithmECDSASignatureDigestX962SHA1", kSecKeyAlgorithmECDSASignatureDigestX962SHA1.rawValue, "algid:sign:ECDSA:digest-X962:SHA1"),
        ("kSecKeyAlgorithmECDSASignatureDigestX962SHA224", kSecKeyAlgorithmECDSASignatureDigestX962SHA224.rawValue, "algid:sign:ECDSA:digest-X962:SHA224"),
        ("kSecKeyAlgorithmECDSASignatureDigestX962SHA256", kSecKeyAlgorithmECDSASignatureDigestX962SHA256.rawValue, "algid:sign:ECDSA:digest-X962:SHA256"),
        ("kSecKeyAlgorithmECDSASignatureDigestX962SHA384", kSecKeyAlgorithmECDSASignatureDigestX962SHA384.rawValue, "algid:sign:ECDSA:digest-X962:SHA384"),
        ("kSecKeyAlgorithmECDSASignatureDigestX962SHA512", kSecKeyAlgorithmECDSASignatureDigestX962SHA512.rawValue, "algid:sign:ECDSA:digest-X962:SHA512"),
        ("kSecKeyAlgorithmECDSASignatureMessageX962SHA1", kSecKeyAlgorithmECDSASignatureMessageX962SHA1.rawValue, "algid:sign:ECDSA:message-X962:SHA1"),
        ("kSecKeyAlgorithmECDSASignatureMessageX962SHA224", kSecKeyAlgorithmECDSASignatureMessageX962SHA224.rawValue, "algid:sign:ECDSA:message-X962:SHA224"),
        ("kSecKeyAlgorithmECDSASignatureMessageX962SHA256", kSecKeyAlgorithmECDSASignatureMessageX962SHA256.rawValue, "algid:sign:ECDSA:message-X962:SHA256"),
        ("kSecKeyAlgorithmECDSASignatureMessageX962SHA384", kSecKeyAlgorithmECDSASignatureMessageX962SHA384.rawValue, "algid:sign:ECDSA:message-X962:SHA384"),
        ("kSecKeyAlgorithmECDSASignatureMessageX962SHA512", kSecKeyAlgorithmECDSASignatureMessageX962SHA512.rawValue, "algid:sign:ECDSA:message-X962:SHA512"),
        ("kSecKeyAlgorithmECDSASignatureDigestRFC4754", kSecKeyAlgorithmECDSASignatureDigestRFC4754.rawValue, "algid:sign:ECDSA:digest-RFC4754"),
        ("kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA1", kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA1.rawValue, "algid:sign:ECDSA:digest-RFC4754:SHA1"),
        ("kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA224", kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA224.rawValue, "algid:sign:ECDSA:digest-RFC4754:SHA224"),
        ("kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA256", kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA256.rawValue, "algid:sign:ECDSA:digest-RFC4754:SHA256"),
        ("kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA384", kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA384.rawValue, "algid:sign:ECDSA:digest-RFC4754:SHA384"),
        ("kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA512", kSecKeyAlgorithmECDSASignatureDigestRFC4754SHA512.rawValue, "algid:sign:ECDSA:digest-RFC4754:SHA512"),
        ("kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA1", kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA1.rawValue, "algid:sign:ECDSA:message-RFC4754:SHA1"),
        ("kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA224", kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA224.rawValue, "algid:sign:ECDSA:message-RFC4754:SHA224"),
        ("kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA256", kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA256.rawValue, "algid:sign:ECDSA:message-RFC4754:SHA256"),
        ("kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA384", kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA384.rawValue, "algid:sign:ECDSA:message-RFC4754:SHA384"),
        ("kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA512", kSecKeyAlgorithmECDSASignatureMessageRFC4754SHA512.rawValue, "algid:sign:ECDSA:message-RFC4754:SHA512"),
        ("kSecKeyAlgorithmEdDSASignatureMessageCurve25519SHA512", kSecKeyAlgorithmEdDSASignatureMessageCurve25519SHA512.rawValue, "algid:sign:EdDSA:message-Curve25519:SHA512"),
        ("kSecKeyAlgorithmRSAEncryptionRaw", kSecKeyAlgorithmRSAEncryptionRaw.rawValue, "algid:encrypt:RSA:raw"),
        ("kSecKeyAlgorithmRSAEncryptionPKCS1", kSecKeyAlgorithmRSAEncryptionPKCS1.rawValue, "algid:encrypt:RSA:PKCS1"),
        ("kSecKeyAlgorithmRSAEncryptionOAEPSHA1", kSecKeyAlgorithmRSAEncryptionOAEPSHA1.rawValue, "algid:encrypt:RSA:OAEP:SHA1"),
        ("kSecKeyAlgorithmRSAEncryptionOAEPSHA224", kSecKeyAlgorithmRSAEncryptionOAEPSHA224.rawValue, "algid:encrypt:RSA:OAEP:SHA224"),
        ("kSecKeyAlgorithmRSAEncryptionOAEPSHA256", kSecKeyAlgorithmRSAEncryptionOAEPSHA256.rawValue, "algid:encrypt:RSA:OAEP:SHA256"),
        ("kSecKeyAlgorithmRSAEncryptionOAEPSHA384", kSecKeyAlgorithmRSAEncryptionOAEPSHA384.rawValue, "algid:encrypt:RSA:OAEP:SHA384"),
        ("kSecKeyAlgorithmRSAEncryptionOAEPSHA512", kSecKeyAlgorithmRSAEncryptionOAEPSHA512.rawValue, "algid:encrypt:RSA:OAEP:SHA512"),
        ("kSecKeyAlgorithmRSAEncryptionOAEPSHA1AESGCM", kSecKeyAlgorithmRSAEncryptionOAEPSHA1AESGCM.rawValue, "algid:encrypt:RSA:OAEP:SHA1:AESGCM"),
        ("kSecKeyAlgorithmRSAEncryptionOAEPSHA224AESGCM", kSecKeyAlgorithmRSAEncryptionOAEPSHA224AESGCM.rawValue, "algid:encrypt:RSA:OAEP:SHA224:AESGCM"),
        ("kSecKeyAlgorithmRSAEncryptionOAEPSHA256AESGCM", kSecKeyAlgorithmRSAEncryptionOAEPSHA256AESGCM.rawValue, "algid:encrypt:RSA:OAEP:SHA256:AESGCM"),
        ("kSecKeyAlgorithmRSAEncryptionOAEPSHA384AESGCM", kSecKeyAlgorithmRSAEncryptionOAEPSHA384AESGCM.rawValue, "algid:encrypt:RSA:OAEP:SHA384:AESGCM"),
        ("kSecKeyAlgorithmRSAEncryptionOAEPSHA512AESGCM", kSecKeyAlgorithmRSAEncryptionOAEPSHA512AESGCM.rawValue, "algid:encrypt:RSA:OAEP:SHA512:AESGCM"),
        ("kSecKeyAlgorithmECIESEncryptionStandardX963SHA1AESGCM", kSecKeyAlgorithmECIESEncryptionStandardX963SHA1AESGCM.rawValue, "algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM"),
        ("kSecKeyAlgorithmECIESEncryptionStandardX963SHA224AESGCM", kSecKeyAlgorithmECIESEncryptionStandardX963SHA224AESGCM.rawValue, "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM"),
        ("kSecKeyAlgorithmECIESEncryptionStandardX963SHA256AESGCM", kSecKeyAlgorithmECIESEncryptionStandardX963SHA256AESGCM.rawValue, "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM"),
        ("kSecKeyAlgorithmECIESEncryptionStandardX963SHA384AESGCM", kSecKeyAlgorithmECIESEncryptionStandardX963SHA384AESGCM.rawValue, "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM"),
        ("kSecKeyAlgorithmECIESEncryptionStandardX963SHA512AESGCM", kSecKeyAlgorithmECIESEncryptionStandardX963SHA512AESGCM.rawValue, "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM"),
        ("kSecKeyAlgorithmECIESEncryptionCofactorX963SHA1AESGCM", kSecKeyAlgorithmECIESEncryptionCofactorX963SHA1AESGCM.rawValue, "algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM"),
        ("kSecKeyAlgorithmECIESEncryptionCofactorX963SHA224AESGCM", kSecKeyAlgorithmECIESEncryptionCofactorX963SHA224AESGCM.rawValue, "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM"),
        ("kSecKeyAlgorithmECIESEncryptionCofactorX963SHA256AESGCM", kSecKeyAlgorithmECIESEncryptionCofactorX963SHA256AESGCM.rawValue, "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM"),
        ("kSecKeyAlgorithmECIESEncryptionCofactorX963SHA384AESGCM", kSecKeyAlgorithmECIESEncryptionCofactorX963SHA384AESGCM.rawValue, "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM"),
        ("kSecKeyAlgorithmECIESEncryptionCofactorX963SHA512AESGCM", kSecKeyAlgorithmECIESEncryptionCofactorX963SHA512AESGCM.rawValue, "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM"),
        ("kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA224AESGCM", kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA224AESGCM.rawValue, "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV"),
        ("kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA256AESGCM", kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA256AESGCM.rawValue, "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV"),
        ("kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA384AESGCM", kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA384AESGCM.rawValue, "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV"),
        ("kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA512AESGCM", kSecKeyAlgorithmECIESEncryptionStandardVariableIVX963SHA512AESGCM.rawValue, "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV"),
        ("kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA224AESGCM", kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA224AESGCM.rawValue, "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV"),
        ("kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM", kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM.rawValue, "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV"),
        ("kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA384AESGCM", kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA384AESGCM.rawValue, "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV"),
        ("kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA512AESGCM", kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA512AESGCM.rawValue, "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV"),
        ("kSecKeyAlgorithmECDHKeyExchangeStandard", kSecKeyAlgorithmECDHKeyExchangeStandard.rawValue, "algid:keyexchange:ECDH"),
        ("kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA1", kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA1.rawValue, "algid:keyexchange:ECDH:KDFX963:SHA1"),
        ("kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA224", kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA224.rawValue, "algid:keyexchange:ECDH:KDFX963:SHA224"),
        ("kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA256", kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA256.rawValue, "algid:keyexchange:ECDH:KDFX963:SHA256"),
        ("kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA384", kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA384.rawValue, "algid:keyexchange:ECDH:KDFX963:SHA384"),
        ("kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA512", kSecKeyAlgorithmECDHKeyExchangeStandardX963SHA512.rawValue, "algid:keyexchange:ECDH:KDFX963:SHA512"),
        ("kSecKeyAlgorithmECDHKeyExchangeCofactor", kSecKeyAlgorithmECDHKeyExchangeCofactor.rawValue, "algid:keyexchange:ECDHC"),
        ("kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA1", kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA1.rawValue, "algid:keyexchange:ECDHC:KDFX963:SHA1"),
        ("kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA224", kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA224.rawValue, "algid:keyexchange:ECDHC:KDFX963:SHA224"),
        ("kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA256", kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA256.rawValue, "algid:keyexchange:ECDHC:KDFX963:SHA256"),
        ("kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA384", kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA384.rawValue, "algid:keyexchange:ECDHC:KDFX963:SHA384"),
        ("kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA512", kSecKeyAlgorithmECDHKeyExchangeCofactorX963SHA512.rawValue, "algid:keyexchange:ECDHC:KDFX963:SHA512"),
    ]
}

// statusCodeTable (every errSec code: name, constant, Apple's number) is generated into
// StatusCodeTable.swift from scripts/status-codes.tsv.

/// Each distinct number of the table once (aliases share a number), for the message tests.
private let distinctStatusCodes: [OSStatus] = Array(Set(statusCodeTable.map(\.status))).sorted()

@Suite("SecItem constants and status codes")
struct ConstantsTableTests {
    @Test("Every kSec constant has Apple's raw value")
    func constantValues() {
        let table = constantTable()
        #expect(table.count == 331)
        for entry in table {
            #expect(entry.constant as String == entry.expected, "\(entry.name)")
        }
    }

    @Test("No constant is listed twice in the table")
    func constantNamesAreUnique() {
        let names = constantTable().map(\.name)
        #expect(Set(names).count == names.count)
    }

    @Test("Constants can be used as dictionary keys next to plain strings")
    func constantsBridgeToStringKeys() {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "service",
            kSecMatchLimit as String: kSecMatchLimitOne,
        ]
        #expect(query["class"] as? String == "genp")
        #expect(query["m_Limit"] as? String == "m_LimitOne")
        #expect(kSecPasswordMinLength as String == kSecPasswordMaxLength as String)
        #expect(kSecAttrPersistantReference as String == kSecAttrPersistentReference as String)
    }

    @Test("Every errSec code has Apple's value", arguments: statusCodeTable)
    func statusValues(entry: (name: String, status: OSStatus, expected: OSStatus)) {
        #expect(entry.status == entry.expected, "\(entry.name)")
    }

    @Test("Every errSec code has a non-empty message of its own", arguments: distinctStatusCodes)
    func statusMessages(status: OSStatus) throws {
        let message = try #require(SecCopyErrorMessageString(status, nil)) as String
        #expect(!message.isEmpty)
        #expect(!message.hasPrefix("Unknown error"), "code \(status) has no message")
    }

    @Test("Every errSec code has a canonical name that is one of its constants", arguments: distinctStatusCodes)
    func statusNameIsDeclared(status: OSStatus) throws {
        let name = try #require(_statusName(status))
        #expect(statusCodeTable.contains { $0.name == name && $0.status == status })
    }

    @Test("The message and name tables hold no codes that are not declared")
    func tablesMatchDeclaredCodes() {
        let declared = Set(distinctStatusCodes)
        #expect(Set(statusNames.keys) == declared)
        #expect(Set(KeychainServices.statusMessages.keys) == declared)
    }

    @Test("An unknown code gets a generic message that includes the number")
    func unknownStatusMessage() throws {
        let message = try #require(SecCopyErrorMessageString(-99_999, nil)) as String
        #expect(message == "Unknown error -99999.")
        #expect(_statusName(-99_999) == nil)
    }

    @Test("Some messages tell the caller what to do")
    func actionableMessages() throws {
        let entitlement = try #require(SecCopyErrorMessageString(errSecMissingEntitlement, nil)) as String
        #expect(entitlement.contains("SWIFT_KEYCHAIN_ACCESS_GROUPS"))
        let locked = try #require(SecCopyErrorMessageString(errSecInteractionNotAllowed, nil)) as String
        #expect(locked.contains("locked"))
        let notFound = try #require(SecCopyErrorMessageString(errSecItemNotFound, nil)) as String
        #expect(notFound.contains("No item"))
    }

    // These two tests pin Apple's numbers on purpose: _statusName takes a raw OSStatus, and the
    // point is that Apple's number (not whatever our constant holds) gets Apple's name.
    @Test("The status name of -25300 is errSecItemNotFound")
    func itemNotFoundName() {
        #expect(_statusName(-25300) == "errSecItemNotFound")
    }

    @Test("Shared numbers are named by their public constant")
    func aliasesPreferPublicNames() {
        #expect(_statusName(-50) == "errSecParam")
        #expect(_statusName(-26275) == "errSecDecode")
        #expect(_statusName(-4) == "errSecUnimplemented")
        #expect(_statusName(0) == "errSecSuccess")
    }

    @Test("SecRandomCopyBytes fills 32 bytes, returns 0 and gives different bytes each time")
    func randomBytes() {
        var first = [UInt8](repeating: 0, count: 32)
        var second = [UInt8](repeating: 0, count: 32)
        let firstStatus = first.withUnsafeMutableBytes { SecRandomCopyBytes(kSecRandomDefault, 32, $0.baseAddress!) }
        let secondStatus = second.withUnsafeMutableBytes { SecRandomCopyBytes(kSecRandomDefault, 32, $0.baseAddress!) }
        #expect(firstStatus == errSecSuccess)
        #expect(secondStatus == errSecSuccess)
        #expect(first.contains { $0 != 0 })
        #expect(second.contains { $0 != 0 })
        #expect(first != second)
    }

    @Test("SecRandomCopyBytes fills requests larger than one system call allows")
    func randomBytesLargeRequest() {
        var buffer = [UInt8](repeating: 0, count: 4_099)
        let status = buffer.withUnsafeMutableBytes { SecRandomCopyBytes(nil, $0.count, $0.baseAddress!) }
        #expect(status == errSecSuccess)
        // The last 256 bytes all being zero would mean the tail was not filled.
        #expect(buffer.suffix(256).contains { $0 != 0 })
    }

    @Test("SecRandomCopyBytes accepts zero bytes and rejects bad arguments")
    func randomBytesEdgeCases() {
        var byte: UInt8 = 0
        #expect(SecRandomCopyBytes(kSecRandomDefault, 0, &byte) == errSecSuccess)
        #expect(SecRandomCopyBytes(kSecRandomDefault, -1, &byte) == -1)
        let other = OpaquePointer(bitPattern: 0x10)
        #expect(SecRandomCopyBytes(other, 1, &byte) == errSecParam)
    }
}
#endif
