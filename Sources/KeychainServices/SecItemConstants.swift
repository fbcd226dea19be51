#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

// The dictionary keys and values of the SecItem API: item classes, attribute keys and the values
// some attributes take. Each constant is a string whose contents are exactly the ones Apple's
// Security framework uses, because those strings (not the Swift names) are what a query really
// carries, what the store persists and what an exported dictionary shows. The declarations mirror
// how Swift sees Apple's constants (`let kSecClass: CFString`). NSString is not Sendable, so each
// one is `nonisolated(unsafe)`; the objects are immutable, which makes that safe.
//
// Match, return, value and use keys, the SecKey generation keys and the SecKeyAlgorithm names are
// in SecItemConstants+Search.swift. Constants marked "private" are Apple SPI: they are not in the
// public SDK headers, but their strings can appear in dictionaries and some code spells them out.
// Constants marked "macOS file keychain" only mean something to the legacy macOS keychain; they
// are declared so that code mentioning them compiles.

// MARK: - Item class

/// The key whose value says which kind of item a dictionary describes.
nonisolated(unsafe) public let kSecClass: CFString = "class"
/// A password with a service and an account and no network details.
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
/// A password for a network server (server, protocol, port, path, …).
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = "inet"
/// AppleShare password (private; legacy).
nonisolated(unsafe) public let kSecClassAppleSharePassword: CFString = "apls"
/// An X.509 certificate.
nonisolated(unsafe) public let kSecClassCertificate: CFString = "cert"
/// A cryptographic key (public, private or symmetric).
nonisolated(unsafe) public let kSecClassKey: CFString = "keys"
/// A certificate paired with the private key of its public key; stored as two items.
nonisolated(unsafe) public let kSecClassIdentity: CFString = "idnt"

// MARK: - Accessibility (values of kSecAttrAccessible)

/// Readable only while the device is unlocked; may move to other devices by backup or sync.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
/// Readable once the device has been unlocked after boot; may move to other devices.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
/// Readable at any time. Deprecated by Apple; use kSecAttrAccessibleAfterFirstUnlock instead.
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = "dk"
/// Readable only while the device is unlocked; never leaves this device.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// Readable once the device has been unlocked after boot; never leaves this device.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// Readable at any time; never leaves this device. Deprecated by Apple; use
/// kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly instead.
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku"
/// Readable only while unlocked and only while a passcode is set; removing the passcode makes the
/// item unreadable. Never leaves this device.
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
/// Private spelling of kSecAttrAccessibleAlways (same string) without the deprecation.
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysPrivate: CFString = "dk"
/// Private spelling of kSecAttrAccessibleAlwaysThisDeviceOnly (same string).
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnlyPrivate: CFString = "dku"
/// Private: readable until the next reboot. Apple's store rejects it when writing an item.
nonisolated(unsafe) public let kSecAttrAccessibleUntilReboot: CFString = "f"

// MARK: - Protocols (values of kSecAttrProtocol)

// Four-character codes naming the network protocol of an internet password. Codes shorter than
// four letters are padded with a trailing space, exactly as Apple stores them.

nonisolated(unsafe) public let kSecAttrProtocolFTP: CFString = "ftp "
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount: CFString = "ftpa"
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = "http"
nonisolated(unsafe) public let kSecAttrProtocolIRC: CFString = "irc "
nonisolated(unsafe) public let kSecAttrProtocolNNTP: CFString = "nntp"
nonisolated(unsafe) public let kSecAttrProtocolPOP3: CFString = "pop3"
nonisolated(unsafe) public let kSecAttrProtocolSMTP: CFString = "smtp"
nonisolated(unsafe) public let kSecAttrProtocolSOCKS: CFString = "sox "
nonisolated(unsafe) public let kSecAttrProtocolIMAP: CFString = "imap"
nonisolated(unsafe) public let kSecAttrProtocolLDAP: CFString = "ldap"
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk: CFString = "atlk"
nonisolated(unsafe) public let kSecAttrProtocolAFP: CFString = "afp "
nonisolated(unsafe) public let kSecAttrProtocolTelnet: CFString = "teln"
nonisolated(unsafe) public let kSecAttrProtocolSSH: CFString = "ssh "
nonisolated(unsafe) public let kSecAttrProtocolFTPS: CFString = "ftps"
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = "htps"
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy: CFString = "htpx"
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy: CFString = "htsx"
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy: CFString = "ftpx"
nonisolated(unsafe) public let kSecAttrProtocolSMB: CFString = "smb "
nonisolated(unsafe) public let kSecAttrProtocolRTSP: CFString = "rtsp"
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy: CFString = "rtsx"
nonisolated(unsafe) public let kSecAttrProtocolDAAP: CFString = "daap"
nonisolated(unsafe) public let kSecAttrProtocolEPPC: CFString = "eppc"
nonisolated(unsafe) public let kSecAttrProtocolIPP: CFString = "ipp "
nonisolated(unsafe) public let kSecAttrProtocolNNTPS: CFString = "ntps"
nonisolated(unsafe) public let kSecAttrProtocolLDAPS: CFString = "ldps"
nonisolated(unsafe) public let kSecAttrProtocolTelnetS: CFString = "tels"
nonisolated(unsafe) public let kSecAttrProtocolIMAPS: CFString = "imps"
nonisolated(unsafe) public let kSecAttrProtocolIRCS: CFString = "ircs"
nonisolated(unsafe) public let kSecAttrProtocolPOP3S: CFString = "pops"

// MARK: - Authentication types (values of kSecAttrAuthenticationType)

// Four-character codes naming how an internet password is presented to its server.

nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM: CFString = "ntlm"
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN: CFString = "msna"
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA: CFString = "dpaa"
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA: CFString = "rpaa"
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = "http"
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest: CFString = "httd"
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm: CFString = "form"
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = "dflt"

// MARK: - Key classes (values of kSecAttrKeyClass)

// Which half of a key pair, or a secret key. Note the values are decimal digits in strings.

/// The public half of an asymmetric key pair.
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = "0"
/// The private half of an asymmetric key pair.
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = "1"
/// A secret (symmetric) key.
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = "2"

// MARK: - Key types (values of kSecAttrKeyType)

// Algorithm families, written as decimal numbers in strings (they are CSSM algorithm numbers).

/// RSA keys.
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = "42"
/// Elliptic-curve keys on the NIST prime curves. Older name of kSecAttrKeyTypeECSECPrimeRandom.
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = "73"
/// Elliptic-curve keys on the NIST prime curves (P-256, P-384, P-521).
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = "73"
/// Private: EC keys used for Apple Pay style key agreement.
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandomPKA: CFString = "2147483678"
/// Private: Secure Enclave attestation keys.
nonisolated(unsafe) public let kSecAttrKeyTypeSecureEnclaveAttestation: CFString = "2147483679"
/// Private: Secure Enclave anonymous attestation keys.
nonisolated(unsafe) public let kSecAttrKeyTypeSecureEnclaveAnonymousAttestation: CFString = "2147483680"
/// Private: Ed25519 signing keys.
nonisolated(unsafe) public let kSecAttrKeyTypeEd25519: CFString = "105"
/// Private: X25519 key-agreement keys.
nonisolated(unsafe) public let kSecAttrKeyTypeX25519: CFString = "106"
/// Private: Ed448 signing keys.
nonisolated(unsafe) public let kSecAttrKeyTypeEd448: CFString = "107"
/// Private: X448 key-agreement keys.
nonisolated(unsafe) public let kSecAttrKeyTypeX448: CFString = "108"
/// Private: Kyber key-encapsulation keys.
nonisolated(unsafe) public let kSecAttrKeyTypeKyber: CFString = "109"
/// Private: ML-KEM key-encapsulation keys.
nonisolated(unsafe) public let kSecAttrKeyTypeMLKEM: CFString = "110"
/// Private: ML-DSA signing keys.
nonisolated(unsafe) public let kSecAttrKeyTypeMLDSA: CFString = "111"
/// DES keys (macOS file keychain).
nonisolated(unsafe) public let kSecAttrKeyTypeDES: CFString = "14"
/// Triple-DES keys (macOS file keychain).
nonisolated(unsafe) public let kSecAttrKeyType3DES: CFString = "17"
/// RC2 keys (macOS file keychain).
nonisolated(unsafe) public let kSecAttrKeyTypeRC2: CFString = "23"
/// RC4 keys (macOS file keychain).
nonisolated(unsafe) public let kSecAttrKeyTypeRC4: CFString = "25"
/// DSA keys (macOS file keychain).
nonisolated(unsafe) public let kSecAttrKeyTypeDSA: CFString = "43"
/// CAST keys (macOS file keychain).
nonisolated(unsafe) public let kSecAttrKeyTypeCAST: CFString = "56"
/// ECDSA keys (macOS file keychain); same string as kSecAttrKeyTypeECSECPrimeRandom.
nonisolated(unsafe) public let kSecAttrKeyTypeECDSA: CFString = "73"
/// AES keys (macOS file keychain).
nonisolated(unsafe) public let kSecAttrKeyTypeAES: CFString = "2147483649"

// MARK: - Key sizes (private kSecAttrKeySize* values)

// Parameter-set names for the post-quantum key types, used as kSecAttrKeySizeInBits values.

nonisolated(unsafe) public let kSecAttrKeySizeKyber768: CFString = "768"
nonisolated(unsafe) public let kSecAttrKeySizeKyber1024: CFString = "1024"
nonisolated(unsafe) public let kSecAttrKeySizeMLKEM768: CFString = "768"
nonisolated(unsafe) public let kSecAttrKeySizeMLKEM1024: CFString = "1024"
nonisolated(unsafe) public let kSecAttrKeySizeMLDSA65: CFString = "65"
nonisolated(unsafe) public let kSecAttrKeySizeMLDSA87: CFString = "87"

// MARK: - Pseudo-random functions (values of kSecAttrPRF; macOS file keychain)

// HMAC variants used when deriving a key from a password on the macOS file keychain.

nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA1: CFString = "hsha1"
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA224: CFString = "hsha224"
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA256: CFString = "hsha256"
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA384: CFString = "hsha384"
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA512: CFString = "hsha512"

// MARK: - Synchronizable value

/// Used as the kSecAttrSynchronizable value of a query to match both synced and local-only items
/// (without it a query only sees items that are not synced).
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = "syna"

// MARK: - Token IDs (values of kSecAttrTokenID)

/// Keys whose private part lives in the Secure Enclave and cannot be exported.
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = "com.apple.setoken"
/// Private: keys held by the AppleKeyStore token.
nonisolated(unsafe) public let kSecAttrTokenIDAppleKeyStore: CFString = "com.apple.setoken:aks"
/// Private: keys held by the secure element.
nonisolated(unsafe) public let kSecAttrTokenIDSecureElement: CFString = "com.apple.secelemtoken"

// MARK: - Predefined access groups and sharing groups

/// The access group of items that belong to hardware tokens (smart cards); read-only to apps.
nonisolated(unsafe) public let kSecAttrAccessGroupToken: CFString = "com.apple.token"
/// Private: the access group of the iCloud Keychain circle's own items.
nonisolated(unsafe) public let kSOSInternalAccessGroup: CFString = "com.apple.security.sos"
/// Private: the kSecAttrSharingGroup value meaning "not shared with any group".
nonisolated(unsafe) public let kSecAttrSharingGroupNone: CFString = ""

// MARK: - Attribute keys

// Keys of item attributes. Most are four-character codes that name a column of the item's class;
// a key that is not an attribute of the query's class is refused with errSecNoSuchAttr.

/// When the item can be read (one of the kSecAttrAccessible* values).
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
/// A SecAccessControl that adds conditions (such as user presence) to reading the item.
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc"
/// The access group the item belongs to; decides which applications can see it.
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
/// When the item was created (set by the keychain; read-only).
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = "cdat"
/// When the item was last changed (set by the keychain; read-only).
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = "mdat"
/// A user-visible description of the kind of item.
nonisolated(unsafe) public let kSecAttrDescription: CFString = "desc"
/// A free-form comment.
nonisolated(unsafe) public let kSecAttrComment: CFString = "icmt"
/// A four-character creator code, stored as a number.
nonisolated(unsafe) public let kSecAttrCreator: CFString = "crtr"
/// A four-character type code, stored as a number.
nonisolated(unsafe) public let kSecAttrType: CFString = "type"
/// A user-visible label.
nonisolated(unsafe) public let kSecAttrLabel: CFString = "labl"
/// Whether the item should be hidden from user interfaces.
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = "invi"
/// Whether the item is a placeholder recording that no password is stored.
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = "nega"
/// The account name of a password.
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
/// The service name of a generic password.
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
/// Application-defined bytes attached to a generic password.
nonisolated(unsafe) public let kSecAttrGeneric: CFString = "gena"
/// The security domain (realm) of an internet password.
nonisolated(unsafe) public let kSecAttrSecurityDomain: CFString = "sdmn"
/// The server name or address of an internet password.
nonisolated(unsafe) public let kSecAttrServer: CFString = "srvr"
/// The protocol of an internet password (a kSecAttrProtocol* value).
nonisolated(unsafe) public let kSecAttrProtocol: CFString = "ptcl"
/// The authentication scheme of an internet password (a kSecAttrAuthenticationType* value).
nonisolated(unsafe) public let kSecAttrAuthenticationType: CFString = "atyp"
/// The network port of an internet password.
nonisolated(unsafe) public let kSecAttrPort: CFString = "port"
/// The path part of an internet password's URL.
nonisolated(unsafe) public let kSecAttrPath: CFString = "path"
/// Private: AppleShare volume name.
nonisolated(unsafe) public let kSecAttrVolume: CFString = "volm"
/// Private: AppleShare server address.
nonisolated(unsafe) public let kSecAttrAddress: CFString = "addr"
/// Private: AppleShare server signature.
nonisolated(unsafe) public let kSecAttrAFPServerSignature: CFString = "afps"
/// Private: an alias (for certificates, typically the e-mail address).
nonisolated(unsafe) public let kSecAttrAlias: CFString = "alis"
/// The DER-encoded subject name of a certificate (read-only).
nonisolated(unsafe) public let kSecAttrSubject: CFString = "subj"
/// The DER-encoded issuer name of a certificate (read-only).
nonisolated(unsafe) public let kSecAttrIssuer: CFString = "issr"
/// The DER-encoded serial number of a certificate (read-only).
nonisolated(unsafe) public let kSecAttrSerialNumber: CFString = "slnr"
/// The subject key identifier of a certificate (read-only).
nonisolated(unsafe) public let kSecAttrSubjectKeyID: CFString = "skid"
/// The SHA-1 hash of a certificate's public key (read-only).
nonisolated(unsafe) public let kSecAttrPublicKeyHash: CFString = "pkhh"
/// The certificate type (read-only).
nonisolated(unsafe) public let kSecAttrCertificateType: CFString = "ctyp"
/// The certificate encoding (read-only).
nonisolated(unsafe) public let kSecAttrCertificateEncoding: CFString = "cenc"
/// Which kind of key (a kSecAttrKeyClass* value).
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = "kcls"
/// A label for a key; for asymmetric keys, by default the hash of the public key.
nonisolated(unsafe) public let kSecAttrApplicationLabel: CFString = "klbl"
/// Whether a generated key is stored in the keychain.
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = "perm"
/// Private: whether the key is private.
nonisolated(unsafe) public let kSecAttrIsPrivate: CFString = "priv"
/// Private: whether the key's attributes may be changed.
nonisolated(unsafe) public let kSecAttrIsModifiable: CFString = "modi"
/// Application-defined bytes identifying a key; the usual way to find a key again.
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = "atag"
/// Private: creator of a key (same string as kSecAttrCreator).
nonisolated(unsafe) public let kSecAttrKeyCreator: CFString = "crtr"
/// The algorithm family of a key (a kSecAttrKeyType* value).
nonisolated(unsafe) public let kSecAttrKeyType: CFString = "type"
/// The size of a key in bits.
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = "bsiz"
/// The number of bits of a key that are actually used.
nonisolated(unsafe) public let kSecAttrEffectiveKeySize: CFString = "esiz"
/// Private: start of a key's validity period.
nonisolated(unsafe) public let kSecAttrStartDate: CFString = "sdat"
/// Private: end of a key's validity period.
nonisolated(unsafe) public let kSecAttrEndDate: CFString = "edat"
/// Whether the key may only be exported wrapped.
nonisolated(unsafe) public let kSecAttrIsSensitive: CFString = "sens"
/// Private: whether the key has always been sensitive.
nonisolated(unsafe) public let kSecAttrWasAlwaysSensitive: CFString = "asen"
/// Whether the key may be exported.
nonisolated(unsafe) public let kSecAttrIsExtractable: CFString = "extr"
/// Private: whether the key has never been exportable.
nonisolated(unsafe) public let kSecAttrWasNeverExtractable: CFString = "next"
/// Whether the key may encrypt.
nonisolated(unsafe) public let kSecAttrCanEncrypt: CFString = "encr"
/// Whether the key may decrypt.
nonisolated(unsafe) public let kSecAttrCanDecrypt: CFString = "decr"
/// Whether the key may be used to derive other keys.
nonisolated(unsafe) public let kSecAttrCanDerive: CFString = "drve"
/// Whether the key may sign.
nonisolated(unsafe) public let kSecAttrCanSign: CFString = "sign"
/// Whether the key may verify signatures.
nonisolated(unsafe) public let kSecAttrCanVerify: CFString = "vrfy"
/// Private: whether the key may sign with message recovery.
nonisolated(unsafe) public let kSecAttrCanSignRecover: CFString = "snrc"
/// Private: whether the key may verify with message recovery.
nonisolated(unsafe) public let kSecAttrCanVerifyRecover: CFString = "vyrc"
/// Whether the key may wrap other keys.
nonisolated(unsafe) public let kSecAttrCanWrap: CFString = "wrap"
/// Whether the key may unwrap other keys.
nonisolated(unsafe) public let kSecAttrCanUnwrap: CFString = "unwp"
/// Which iCloud Keychain view a synced item belongs to.
nonisolated(unsafe) public let kSecAttrSyncViewHint: CFString = "vwht"
/// The token that holds the key (a kSecAttrTokenID* value).
nonisolated(unsafe) public let kSecAttrTokenID: CFString = "tkid"
/// Private: script code (legacy).
nonisolated(unsafe) public let kSecAttrScriptCode: CFString = "scrp"
/// Private: whether the item has a custom icon (legacy).
nonisolated(unsafe) public let kSecAttrHasCustomIcon: CFString = "cusi"
/// Private: certificate revocation list type.
nonisolated(unsafe) public let kSecAttrCRLType: CFString = "crlt"
/// Private: certificate revocation list encoding.
nonisolated(unsafe) public let kSecAttrCRLEncoding: CFString = "crle"
/// Whether the item is synced through iCloud Keychain (see also kSecAttrSynchronizableAny).
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync"
/// Private: whether the row is a tombstone left behind by deleting a synced item.
nonisolated(unsafe) public let kSecAttrTombstone: CFString = "tomb"
/// Private: the user the item belongs to on a multi-user device.
nonisolated(unsafe) public let kSecAttrMultiUser: CFString = "musr"
/// Private: older name of kSecUseDataProtectionKeychain (same string).
nonisolated(unsafe) public let kSecAttrNoLegacy: CFString = "nleg"
/// Private: token object identifier of a token-backed item.
nonisolated(unsafe) public let kSecAttrTokenOID: CFString = "toid"
/// Private: a unique identifier of the item.
nonisolated(unsafe) public let kSecAttrUUID: CFString = "UUID"
/// Misspelled name of kSecAttrPersistentReference that Apple keeps for compatibility.
nonisolated(unsafe) public let kSecAttrPersistantReference: CFString = "persistref"
/// The item's persistent reference, as returned among its attributes.
nonisolated(unsafe) public let kSecAttrPersistentReference: CFString = "persistref"
/// Private: whether the item is bound to this system.
nonisolated(unsafe) public let kSecAttrSysBound: CFString = "sysb"
/// Private: SHA-1 digest of the item's contents.
nonisolated(unsafe) public let kSecAttrSHA1: CFString = "sha1"
/// Private: derive the sync identifier of the item from its attributes.
nonisolated(unsafe) public let kSecAttrDeriveSyncIDFromItemAttributes: CFString = "dspk"
/// Private: plaintext service identifier of a protected-cloud-storage item.
nonisolated(unsafe) public let kSecAttrPCSPlaintextServiceIdentifier: CFString = "pcss"
/// Private: plaintext public key of a protected-cloud-storage item.
nonisolated(unsafe) public let kSecAttrPCSPlaintextPublicKey: CFString = "pcsk"
/// Private: plaintext public identity of a protected-cloud-storage item.
nonisolated(unsafe) public let kSecAttrPCSPlaintextPublicIdentity: CFString = "pcsi"
/// Private: notes attached to an internet password.
nonisolated(unsafe) public let kSecDataInetExtraNotes: CFString = "binn"
/// Private: history attached to an internet password.
nonisolated(unsafe) public let kSecDataInetExtraHistory: CFString = "bini"
/// Private: client-defined extra data of an internet password (slot 0).
nonisolated(unsafe) public let kSecDataInetExtraClientDefined0: CFString = "bin0"
/// Private: client-defined extra data of an internet password (slot 1).
nonisolated(unsafe) public let kSecDataInetExtraClientDefined1: CFString = "bin1"
/// Private: client-defined extra data of an internet password (slot 2).
nonisolated(unsafe) public let kSecDataInetExtraClientDefined2: CFString = "bin2"
/// Private: client-defined extra data of an internet password (slot 3).
nonisolated(unsafe) public let kSecDataInetExtraClientDefined3: CFString = "bin3"
/// Private: the Secure Enclave blob of a key (same string as kSecAttrTokenOID).
nonisolated(unsafe) public let kSecAttrSecureEnclaveKeyBlob: CFString = "toid"
/// Private: the group an item is shared with.
nonisolated(unsafe) public let kSecAttrSharingGroup: CFString = "ggrp"
/// Access object of an item (macOS file keychain).
nonisolated(unsafe) public let kSecAttrAccess: CFString = "acls"
/// Pseudo-random function for password-based key derivation (macOS file keychain).
nonisolated(unsafe) public let kSecAttrPRF: CFString = "prf"
/// Salt for password-based key derivation (macOS file keychain).
nonisolated(unsafe) public let kSecAttrSalt: CFString = "salt"
/// Iteration count for password-based key derivation (macOS file keychain).
nonisolated(unsafe) public let kSecAttrRounds: CFString = "rounds"
#endif
