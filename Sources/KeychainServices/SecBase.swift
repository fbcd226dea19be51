#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

// Result codes of the keychain functions, with Apple's names and numbers, and the function that
// turns a code into a sentence. Zero means success; every failure is a negative number. Several
// names share a number (Apple folded many historical codes into errSecParam); the numbers, not
// the names, are what callers compare against.

// MARK: - General

/// The call succeeded.
public let errSecSuccess: OSStatus = 0
/// The operation, or the requested algorithm, is not supported.
public let errSecUnimplemented: OSStatus = -4
/// There is no space left on the disk.
public let errSecDiskFull: OSStatus = -34
/// Reading or writing storage failed.
public let errSecIO: OSStatus = -36
/// A file is already open for writing.
public let errSecOpWr: OSStatus = -49
/// An argument is missing, has the wrong type or is not allowed here.
public let errSecParam: OSStatus = -50
/// Writing is not permitted.
public let errSecWrPerm: OSStatus = -61
/// Memory could not be allocated.
public let errSecAllocate: OSStatus = -108
/// The user dismissed the authentication prompt.
public let errSecUserCanceled: OSStatus = -128
/// The request cannot be handled in the current state.
public let errSecBadReq: OSStatus = -909
/// A component the keychain relies on failed.
public let errSecInternalComponent: OSStatus = -2070
/// An unexpected Core Foundation error occurred.
public let errSecCoreFoundationUnknown: OSStatus = -4960

// MARK: - Entitlements and access

/// The caller is not allowed to use the access group (or other capability) it asked for.
public let errSecMissingEntitlement: OSStatus = -34018
/// The caller is not allowed to use this function at all.
public let errSecRestrictedAPI: OSStatus = -34020

// MARK: - Keychain and item

/// The keychain, or the key protecting the item's class, is not available.
public let errSecNotAvailable: OSStatus = -25291
/// The keychain can only be read.
public let errSecReadOnly: OSStatus = -25292
/// Authentication failed (wrong credentials).
public let errSecAuthFailed: OSStatus = -25293
/// The keychain does not exist.
public let errSecNoSuchKeychain: OSStatus = -25294
/// The keychain is not valid.
public let errSecInvalidKeychain: OSStatus = -25295
/// A keychain with this name already exists.
public let errSecDuplicateKeychain: OSStatus = -25296
/// The callback is already registered.
public let errSecDuplicateCallback: OSStatus = -25297
/// The callback is not valid.
public let errSecInvalidCallback: OSStatus = -25298
/// An item with the same identifying attributes already exists.
public let errSecDuplicateItem: OSStatus = -25299
/// No item matched the query.
public let errSecItemNotFound: OSStatus = -25300
/// The buffer provided is too small.
public let errSecBufferTooSmall: OSStatus = -25301
/// The data is too large.
public let errSecDataTooLarge: OSStatus = -25302
/// The attribute does not exist for this class of item.
public let errSecNoSuchAttr: OSStatus = -25303
/// The item reference is no longer valid.
public let errSecInvalidItemRef: OSStatus = -25304
/// The search reference is not valid.
public let errSecInvalidSearchRef: OSStatus = -25305
/// The item class does not exist.
public let errSecNoSuchClass: OSStatus = -25306
/// There is no default keychain.
public let errSecNoDefaultKeychain: OSStatus = -25307
/// The item cannot be used now: the keychain is locked, or a prompt would be needed but is not
/// allowed.
public let errSecInteractionNotAllowed: OSStatus = -25308
/// The attribute cannot be changed.
public let errSecReadOnlyAttr: OSStatus = -25309
/// The keychain was made by an incompatible version.
public let errSecWrongSecVersion: OSStatus = -25310
/// The key size is not supported.
public let errSecKeySizeNotAllowed: OSStatus = -25311
/// The storage module is not available.
public let errSecNoStorageModule: OSStatus = -25312
/// The certificate module is not available.
public let errSecNoCertificateModule: OSStatus = -25313
/// The policy module is not available.
public let errSecNoPolicyModule: OSStatus = -25314
/// User interaction is needed but not allowed.
public let errSecInteractionRequired: OSStatus = -25315
/// The item's contents cannot be read.
public let errSecDataNotAvailable: OSStatus = -25316
/// The item's contents cannot be changed.
public let errSecDataNotModifiable: OSStatus = -25317
/// A certificate chain could not be built.
public let errSecCreateChainFailed: OSStatus = -25318
/// The preferences domain is not valid.
public let errSecInvalidPrefsDomain: OSStatus = -25319
/// No user interface can be shown during dark wake.
public let errSecInDarkWake: OSStatus = -25320

// MARK: - Access lists, trust and import/export

/// The access list is not in simple form.
public let errSecACLNotSimple: OSStatus = -25240
/// The policy was not found.
public let errSecPolicyNotFound: OSStatus = -25241
/// The trust setting is not valid.
public let errSecInvalidTrustSetting: OSStatus = -25242
/// The item's access list does not grant access (macOS file keychain only).
public let errSecNoAccessForItem: OSStatus = -25243
/// The owner change is not allowed.
public let errSecInvalidOwnerEdit: OSStatus = -25244
/// No trust result is available.
public let errSecTrustNotAvailable: OSStatus = -25245
/// The import or export format is not supported.
public let errSecUnsupportedFormat: OSStatus = -25256
/// The format of the imported data is not recognised.
public let errSecUnknownFormat: OSStatus = -25257
/// The key is sensitive and must be wrapped to be exported.
public let errSecKeyIsSensitive: OSStatus = -25258
/// The import contains more than one private key.
public let errSecMultiplePrivKeys: OSStatus = -25259
/// A passphrase is needed.
public let errSecPassphraseRequired: OSStatus = -25260
/// The password reference is not valid.
public let errSecInvalidPasswordRef: OSStatus = -25261
/// The trust settings are damaged.
public let errSecInvalidTrustSettings: OSStatus = -25262
/// There are no trust settings.
public let errSecNoTrustSettings: OSStatus = -25263
/// The PKCS #12 integrity check failed, usually because the password is wrong.
public let errSecPkcs12VerifyFailure: OSStatus = -25264
/// The certificate was not signed by the proposed issuer.
public let errSecNotSigner: OSStatus = -26267
/// The data could not be decoded.
public let errSecDecode: OSStatus = -26275

// MARK: - Cryptographic service range

/// A required service is not available.
public let errSecServiceNotAvailable: OSStatus = -67585
/// An internal error occurred.
public let errSecInternalError: OSStatus = -67671
/// The data is not valid.
public let errSecInvalidData: OSStatus = -67673
/// The key is not valid.
public let errSecInvalidKeyRef: OSStatus = -67712
/// The signature does not verify.
public let errSecVerifyFailed: OSStatus = -67808
/// A required value is missing.
public let errSecMissingValue: OSStatus = -67871

// MARK: - Private codes

/// Private: authentication is required before the operation can go on. The keychain resolves this
/// itself; callers never receive it.
public let errSecAuthNeeded: OSStatus = -25330
/// Private: an internal error occurred.
public let errSecInternal: OSStatus = -26276
/// Private: the certificate chain is not trusted under the policy.
public let errSecPolicyDenied: OSStatus = -26270
/// Private: the operation will finish asynchronously (not an error).
public let errSecWaitForCallback: OSStatus = -34017
/// Private: the database must be upgraded, which can only happen once the device is unlocked.
public let errSecUpgradePending: OSStatus = -34019

// MARK: - Private aliases of errSecParam

// Apple once had a distinct code for each of these query mistakes; they all became -50.

public let errSecItemInvalidKey: OSStatus = -50
public let errSecItemInvalidKeyType: OSStatus = -50
public let errSecItemInvalidValue: OSStatus = -50
public let errSecItemClassMissing: OSStatus = -50
public let errSecItemMatchUnsupported: OSStatus = -50
public let errSecUseItemListUnsupported: OSStatus = -50
public let errSecUseKeychainUnsupported: OSStatus = -50
public let errSecUseKeychainListUnsupported: OSStatus = -50
public let errSecReturnDataUnsupported: OSStatus = -50
public let errSecReturnAttributesUnsupported: OSStatus = -50
public let errSecReturnRefUnsupported: OSStatus = -50
public let errSecReturnPersistentRefUnsupported: OSStatus = -50
public let errSecValueRefUnsupported: OSStatus = -50
public let errSecValuePersistentRefUnsupported: OSStatus = -50
public let errSecReturnMissingPointer: OSStatus = -50
public let errSecMatchLimitUnsupported: OSStatus = -50
public let errSecItemIllegalQuery: OSStatus = -50
public let errSecUnsupportedPadding: OSStatus = -50

// MARK: - Other aliases

/// The certificate could not be decoded (same number as errSecDecode).
public let errSecInvalidCertificate: OSStatus = -26275
/// The key could not be decoded (same number as errSecDecode).
public let errSecInvalidKey: OSStatus = -26275
/// The operation is not supported (same number as errSecUnimplemented).
public let errSecUnsupportedOperation: OSStatus = -4
/// The algorithm is not supported (same number as errSecUnimplemented).
public let errSecUnsupportedAlgorithm: OSStatus = -4

// MARK: - Messages

/// Returns a short English sentence describing a result code.
///
/// Every code declared in this module has its own message; any other number gets a generic
/// sentence that includes the number, so the result is never `nil`. `reserved` is ignored; pass
/// `nil`.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    statusMessage(status) as NSString
}

/// The constant name of a result code (for example `"errSecItemNotFound"` for -25300), or `nil`
/// for a number this module does not declare. When several names share a number, the public one
/// is returned. For other modules of this package (logs, command-line output); not Apple API.
package func _statusName(_ status: OSStatus) -> String? {
    statusNames[status] ?? extendedStatusEntries[status]?.name
}
#endif
