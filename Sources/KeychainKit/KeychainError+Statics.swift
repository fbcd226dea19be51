// Generated once from the names and numbers of Apple's SecBase.h (the numbers are facts; the
// sentences are ours). Every public errSec code has a static here, so no status is ever lost or
// renamed; the numbers are checked against KeychainServices by KeychainErrorCatalogueTests.

// MARK: - Codes of Apple's SecBase.h outside the cryptographic-services range

extension KeychainError {
    /// `errSecSuccess` (0): the call succeeded; never thrown, kept so that every status has a name.
    public static let success = KeychainError(status: 0)

    /// `errSecUnimplemented` (-4): the operation, or a search option for this item class, is not
    /// supported.
    public static let unimplemented = KeychainError(status: -4)

    /// `errSecDiskFull` (-34): the disk holding the keychain is full.
    public static let diskFull = KeychainError(status: -34)

    /// `errSecIO` (-36): reading or writing the keychain's storage failed.
    public static let io = KeychainError(status: -36)

    /// `errSecOpWr` (-49): a file was already open for writing.
    public static let opWr = KeychainError(status: -49)

    /// `errSecParam` (-50): a query or attribute was missing, had the wrong type, or is not allowed for
    /// this call.
    public static let param = KeychainError(status: -50)

    /// `errSecWrPerm` (-61): the keychain's storage could not be written for lack of permission.
    public static let wrPerm = KeychainError(status: -61)

    /// `errSecAllocate` (-108): memory could not be allocated.
    public static let allocate = KeychainError(status: -108)

    /// `errSecUserCanceled` (-128): the user dismissed the authentication prompt.
    public static let userCanceled = KeychainError(status: -128)

    /// `errSecBadReq` (-909): the request is not valid in the keychain's current state.
    public static let badReq = KeychainError(status: -909)

    /// `errSecInternalComponent` (-2070): a component the keychain relies on (its database, for
    /// example) failed.
    public static let internalComponent = KeychainError(status: -2070)

    /// `errSecCoreFoundationUnknown` (-4960): an unexpected Core Foundation error happened.
    public static let coreFoundationUnknown = KeychainError(status: -4960)

    /// `errSecMissingEntitlement` (-34018): the process does not hold the access group (or other
    /// entitlement) the call needs.
    public static let missingEntitlement = KeychainError(status: -34018)

    /// `errSecRestrictedAPI` (-34020): the process is not allowed to use this call (an App Clip adding
    /// a synchronizable item, for example).
    public static let restrictedAPI = KeychainError(status: -34020)

    /// `errSecNotAvailable` (-25291): the keychain, or the key of the item's protection class, is not
    /// available.
    public static let notAvailable = KeychainError(status: -25291)

    /// `errSecReadOnly` (-25292): the keychain can only be read.
    public static let readOnly = KeychainError(status: -25292)

    /// `errSecAuthFailed` (-25293): authentication failed: a wrong password, or too many attempts.
    public static let authFailed = KeychainError(status: -25293)

    /// `errSecNoSuchKeychain` (-25294): the keychain file does not exist.
    public static let noSuchKeychain = KeychainError(status: -25294)

    /// `errSecInvalidKeychain` (-25295): the file is not a valid keychain.
    public static let invalidKeychain = KeychainError(status: -25295)

    /// `errSecDuplicateKeychain` (-25296): a keychain with this name already exists.
    public static let duplicateKeychain = KeychainError(status: -25296)

    /// `errSecDuplicateCallback` (-25297): the callback is already installed.
    public static let duplicateCallback = KeychainError(status: -25297)

    /// `errSecInvalidCallback` (-25298): the callback is not valid.
    public static let invalidCallback = KeychainError(status: -25298)

    /// `errSecDuplicateItem` (-25299): an item with the same identifying attributes (class, key,
    /// service or server, group, synchronizable) already exists.
    public static let duplicateItem = KeychainError(status: -25299)

    /// `errSecItemNotFound` (-25300): no item matched.
    public static let itemNotFound = KeychainError(status: -25300)

    /// `errSecBufferTooSmall` (-25301): a buffer was too small for the item.
    public static let bufferTooSmall = KeychainError(status: -25301)

    /// `errSecDataTooLarge` (-25302): the item's data is too large or cannot be shown.
    public static let dataTooLarge = KeychainError(status: -25302)

    /// `errSecNoSuchAttr` (-25303): an attribute is not defined for this item class.
    public static let noSuchAttr = KeychainError(status: -25303)

    /// `errSecInvalidItemRef` (-25304): an item reference is no longer valid; the item may have been
    /// deleted.
    public static let invalidItemRef = KeychainError(status: -25304)

    /// `errSecInvalidSearchRef` (-25305): a search reference is not valid.
    public static let invalidSearchRef = KeychainError(status: -25305)

    /// `errSecNoSuchClass` (-25306): the item class does not exist.
    public static let noSuchClass = KeychainError(status: -25306)

    /// `errSecNoDefaultKeychain` (-25307): there is no default keychain.
    public static let noDefaultKeychain = KeychainError(status: -25307)

    /// `errSecInteractionNotAllowed` (-25308): the item cannot be used now: the keychain is locked, or
    /// authentication would need a prompt that is not allowed.
    public static let interactionNotAllowed = KeychainError(status: -25308)

    /// `errSecReadOnlyAttr` (-25309): the attribute cannot be changed.
    public static let readOnlyAttr = KeychainError(status: -25309)

    /// `errSecWrongSecVersion` (-25310): the keychain was written by an incompatible version.
    public static let wrongSecVersion = KeychainError(status: -25310)

    /// `errSecKeySizeNotAllowed` (-25311): the key size is not supported.
    public static let keySizeNotAllowed = KeychainError(status: -25311)

    /// `errSecNoStorageModule` (-25312): the storage module could not be loaded.
    public static let noStorageModule = KeychainError(status: -25312)

    /// `errSecNoCertificateModule` (-25313): the certificate module could not be loaded.
    public static let noCertificateModule = KeychainError(status: -25313)

    /// `errSecNoPolicyModule` (-25314): the policy module could not be loaded.
    public static let noPolicyModule = KeychainError(status: -25314)

    /// `errSecInteractionRequired` (-25315): user interaction is needed but not allowed now.
    public static let interactionRequired = KeychainError(status: -25315)

    /// `errSecDataNotAvailable` (-25316): the item's contents cannot be read.
    public static let dataNotAvailable = KeychainError(status: -25316)

    /// `errSecDataNotModifiable` (-25317): the item's contents cannot be changed.
    public static let dataNotModifiable = KeychainError(status: -25317)

    /// `errSecCreateChainFailed` (-25318): a certificate chain could not be built.
    public static let createChainFailed = KeychainError(status: -25318)

    /// `errSecInvalidPrefsDomain` (-25319): the preferences domain is not valid.
    public static let invalidPrefsDomain = KeychainError(status: -25319)

    /// `errSecInDarkWake` (-25320): no prompt can be shown while the Mac is in dark wake.
    public static let inDarkWake = KeychainError(status: -25320)

    /// `errSecACLNotSimple` (-25240): the access list is not in simple form.
    public static let aclNotSimple = KeychainError(status: -25240)

    /// `errSecPolicyNotFound` (-25241): the trust policy was not found.
    public static let policyNotFound = KeychainError(status: -25241)

    /// `errSecInvalidTrustSetting` (-25242): the trust setting is not valid.
    public static let invalidTrustSetting = KeychainError(status: -25242)

    /// `errSecNoAccessForItem` (-25243): the item's access list does not grant access (legacy macOS
    /// file keychain).
    public static let noAccessForItem = KeychainError(status: -25243)

    /// `errSecInvalidOwnerEdit` (-25244): the item's owner cannot be changed this way.
    public static let invalidOwnerEdit = KeychainError(status: -25244)

    /// `errSecTrustNotAvailable` (-25245): no trust result is available.
    public static let trustNotAvailable = KeychainError(status: -25245)

    /// `errSecUnsupportedFormat` (-25256): the import or export format is not supported.
    public static let unsupportedFormat = KeychainError(status: -25256)

    /// `errSecUnknownFormat` (-25257): the format of the imported data was not recognised.
    public static let unknownFormat = KeychainError(status: -25257)

    /// `errSecKeyIsSensitive` (-25258): the key is sensitive and must be wrapped to be exported.
    public static let keyIsSensitive = KeychainError(status: -25258)

    /// `errSecMultiplePrivKeys` (-25259): the import holds more than one private key.
    public static let multiplePrivKeys = KeychainError(status: -25259)

    /// `errSecPassphraseRequired` (-25260): a passphrase is needed for the import or export.
    public static let passphraseRequired = KeychainError(status: -25260)

    /// `errSecInvalidPasswordRef` (-25261): the password reference is not valid.
    public static let invalidPasswordRef = KeychainError(status: -25261)

    /// `errSecInvalidTrustSettings` (-25262): the trust settings record is damaged.
    public static let invalidTrustSettings = KeychainError(status: -25262)

    /// `errSecNoTrustSettings` (-25263): there are no trust settings.
    public static let noTrustSettings = KeychainError(status: -25263)

    /// `errSecPkcs12VerifyFailure` (-25264): the PKCS #12 integrity check failed, usually because of a
    /// wrong password.
    public static let pkcs12VerifyFailure = KeychainError(status: -25264)

    /// `errSecNotSigner` (-26267): the certificate was not signed by the proposed issuer.
    public static let notSigner = KeychainError(status: -26267)

    /// `errSecDecode` (-26275): the data could not be decoded (a damaged item, a certificate or key in
    /// an unknown form).
    public static let decode = KeychainError(status: -26275)
}

// MARK: - Private codes (SecBasePriv.h) and other names for the same numbers

extension KeychainError {
    /// `errSecAuthNeeded` (-25330): private: authentication is needed before the call can go on; the
    /// keychain resolves it and callers should not see it.
    public static let authNeeded = KeychainError(status: -25330)

    /// `errSecInternal` (-26276): private: an internal error happened.
    public static let `internal` = KeychainError(status: -26276)

    /// `errSecPolicyDenied` (-26270): private: the certificate chain is not trusted under the policy.
    public static let policyDenied = KeychainError(status: -26270)

    /// `errSecWaitForCallback` (-34017): private: the call will finish later (not a failure).
    public static let waitForCallback = KeychainError(status: -34017)

    /// `errSecUpgradePending` (-34019): private: the keychain must be upgraded, which can only happen
    /// once it is unlocked.
    public static let upgradePending = KeychainError(status: -34019)

    /// `errSecUnsupportedOperation`: another name Apple uses for ``unimplemented`` (-4).
    public static let unsupportedOperation = unimplemented

    /// `errSecUnsupportedAlgorithm`: another name Apple uses for ``unimplemented`` (-4).
    public static let unsupportedAlgorithm = unimplemented

    /// `errSecInvalidCertificate`: another name Apple uses for ``decode`` (-26275).
    public static let invalidCertificate = decode

    /// `errSecInvalidKey`: another name Apple uses for ``decode`` (-26275).
    public static let invalidKey = decode

    /// `errSecItemInvalidKey`: a private code Apple folded into ``param`` (-50).
    public static let itemInvalidKey = param

    /// `errSecItemInvalidKeyType`: a private code Apple folded into ``param`` (-50).
    public static let itemInvalidKeyType = param

    /// `errSecItemInvalidValue`: a private code Apple folded into ``param`` (-50).
    public static let itemInvalidValue = param

    /// `errSecItemClassMissing`: a private code Apple folded into ``param`` (-50).
    public static let itemClassMissing = param

    /// `errSecItemMatchUnsupported`: a private code Apple folded into ``param`` (-50).
    public static let itemMatchUnsupported = param

    /// `errSecUseItemListUnsupported`: a private code Apple folded into ``param`` (-50).
    public static let useItemListUnsupported = param

    /// `errSecUseKeychainUnsupported`: a private code Apple folded into ``param`` (-50).
    public static let useKeychainUnsupported = param

    /// `errSecUseKeychainListUnsupported`: a private code Apple folded into ``param`` (-50).
    public static let useKeychainListUnsupported = param

    /// `errSecReturnDataUnsupported`: a private code Apple folded into ``param`` (-50).
    public static let returnDataUnsupported = param

    /// `errSecReturnAttributesUnsupported`: a private code Apple folded into ``param`` (-50).
    public static let returnAttributesUnsupported = param

    /// `errSecReturnRefUnsupported`: a private code Apple folded into ``param`` (-50).
    public static let returnRefUnsupported = param

    /// `errSecReturnPersistentRefUnsupported`: a private code Apple folded into ``param`` (-50).
    public static let returnPersistentRefUnsupported = param

    /// `errSecValueRefUnsupported`: a private code Apple folded into ``param`` (-50).
    public static let valueRefUnsupported = param

    /// `errSecValuePersistentRefUnsupported`: a private code Apple folded into ``param`` (-50).
    public static let valuePersistentRefUnsupported = param

    /// `errSecReturnMissingPointer`: a private code Apple folded into ``param`` (-50).
    public static let returnMissingPointer = param

    /// `errSecMatchLimitUnsupported`: a private code Apple folded into ``param`` (-50).
    public static let matchLimitUnsupported = param

    /// `errSecItemIllegalQuery`: a private code Apple folded into ``param`` (-50).
    public static let itemIllegalQuery = param

    /// `errSecUnsupportedPadding`: a private code Apple folded into ``param`` (-50).
    public static let unsupportedPadding = param

    /// Apple's deprecated spelling of ``diskFull``.
    @available(*, deprecated, renamed: "diskFull")
    public static let dskFull = diskFull
    /// Apple's misspelled name for ``invalidCRLAuthority``.
    @available(*, deprecated, renamed: "invalidCRLAuthority")
    public static let invaldCRLAuthority = invalidCRLAuthority
    /// Apple's misspelled name for ``invalidTupleCredentials``.
    @available(*, deprecated, renamed: "invalidTupleCredentials")
    public static let invalidTupleCredendtials = invalidTupleCredentials
}
