// Generated once from the names and numbers of Apple's SecBase.h (the numbers are facts; the
// sentences are ours), like KeychainError+ServiceStatics.swift, which holds the lower part of
// the same range. Checked against KeychainServices by KeychainErrorCatalogueTests.

// MARK: - Cryptographic-services range: algorithm attributes, key formats and the rest

extension KeychainError {
    /// `errSecInvalidAttributeKey` (-67748): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidAttributeKey = KeychainError(status: -67748)
    /// `errSecMissingAttributeKey` (-67749): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let missingAttributeKey = KeychainError(status: -67749)
    /// `errSecInvalidAttributeInitVector` (-67750): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAttributeInitVector = KeychainError(status: -67750)
    /// `errSecMissingAttributeInitVector` (-67751): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let missingAttributeInitVector = KeychainError(status: -67751)
    /// `errSecInvalidAttributeSalt` (-67752): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidAttributeSalt = KeychainError(status: -67752)
    /// `errSecMissingAttributeSalt` (-67753): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let missingAttributeSalt = KeychainError(status: -67753)
    /// `errSecInvalidAttributePadding` (-67754): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAttributePadding = KeychainError(status: -67754)
    /// `errSecMissingAttributePadding` (-67755): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let missingAttributePadding = KeychainError(status: -67755)
    /// `errSecInvalidAttributeRandom` (-67756): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidAttributeRandom = KeychainError(status: -67756)
    /// `errSecMissingAttributeRandom` (-67757): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let missingAttributeRandom = KeychainError(status: -67757)
    /// `errSecInvalidAttributeSeed` (-67758): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidAttributeSeed = KeychainError(status: -67758)
    /// `errSecMissingAttributeSeed` (-67759): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let missingAttributeSeed = KeychainError(status: -67759)
    /// `errSecInvalidAttributePassphrase` (-67760): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAttributePassphrase = KeychainError(status: -67760)
    /// `errSecMissingAttributePassphrase` (-67761): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let missingAttributePassphrase = KeychainError(status: -67761)
    /// `errSecInvalidAttributeKeyLength` (-67762): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAttributeKeyLength = KeychainError(status: -67762)
    /// `errSecMissingAttributeKeyLength` (-67763): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let missingAttributeKeyLength = KeychainError(status: -67763)
    /// `errSecInvalidAttributeBlockSize` (-67764): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAttributeBlockSize = KeychainError(status: -67764)
    /// `errSecMissingAttributeBlockSize` (-67765): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let missingAttributeBlockSize = KeychainError(status: -67765)
    /// `errSecInvalidAttributeOutputSize` (-67766): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAttributeOutputSize = KeychainError(status: -67766)
    /// `errSecMissingAttributeOutputSize` (-67767): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let missingAttributeOutputSize = KeychainError(status: -67767)
    /// `errSecInvalidAttributeRounds` (-67768): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidAttributeRounds = KeychainError(status: -67768)
    /// `errSecMissingAttributeRounds` (-67769): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let missingAttributeRounds = KeychainError(status: -67769)
    /// `errSecInvalidAlgorithmParms` (-67770): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidAlgorithmParms = KeychainError(status: -67770)
    /// `errSecMissingAlgorithmParms` (-67771): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let missingAlgorithmParms = KeychainError(status: -67771)
    /// `errSecInvalidAttributeLabel` (-67772): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidAttributeLabel = KeychainError(status: -67772)
    /// `errSecMissingAttributeLabel` (-67773): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let missingAttributeLabel = KeychainError(status: -67773)
    /// `errSecInvalidAttributeKeyType` (-67774): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAttributeKeyType = KeychainError(status: -67774)
    /// `errSecMissingAttributeKeyType` (-67775): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let missingAttributeKeyType = KeychainError(status: -67775)
    /// `errSecInvalidAttributeMode` (-67776): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidAttributeMode = KeychainError(status: -67776)
    /// `errSecMissingAttributeMode` (-67777): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let missingAttributeMode = KeychainError(status: -67777)
    /// `errSecInvalidAttributeEffectiveBits` (-67778): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let invalidAttributeEffectiveBits = KeychainError(status: -67778)
    /// `errSecMissingAttributeEffectiveBits` (-67779): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let missingAttributeEffectiveBits = KeychainError(status: -67779)
    /// `errSecInvalidAttributeStartDate` (-67780): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAttributeStartDate = KeychainError(status: -67780)
    /// `errSecMissingAttributeStartDate` (-67781): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let missingAttributeStartDate = KeychainError(status: -67781)
    /// `errSecInvalidAttributeEndDate` (-67782): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAttributeEndDate = KeychainError(status: -67782)
    /// `errSecMissingAttributeEndDate` (-67783): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let missingAttributeEndDate = KeychainError(status: -67783)
    /// `errSecInvalidAttributeVersion` (-67784): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAttributeVersion = KeychainError(status: -67784)
    /// `errSecMissingAttributeVersion` (-67785): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let missingAttributeVersion = KeychainError(status: -67785)
    /// `errSecInvalidAttributePrime` (-67786): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidAttributePrime = KeychainError(status: -67786)
    /// `errSecMissingAttributePrime` (-67787): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let missingAttributePrime = KeychainError(status: -67787)
    /// `errSecInvalidAttributeBase` (-67788): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidAttributeBase = KeychainError(status: -67788)
    /// `errSecMissingAttributeBase` (-67789): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let missingAttributeBase = KeychainError(status: -67789)
    /// `errSecInvalidAttributeSubprime` (-67790): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAttributeSubprime = KeychainError(status: -67790)
    /// `errSecMissingAttributeSubprime` (-67791): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let missingAttributeSubprime = KeychainError(status: -67791)
    /// `errSecInvalidAttributeIterationCount` (-67792): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let invalidAttributeIterationCount = KeychainError(status: -67792)
    /// `errSecMissingAttributeIterationCount` (-67793): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let missingAttributeIterationCount = KeychainError(status: -67793)
    /// `errSecInvalidAttributeDLDBHandle` (-67794): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAttributeDLDBHandle = KeychainError(status: -67794)
    /// `errSecMissingAttributeDLDBHandle` (-67795): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let missingAttributeDLDBHandle = KeychainError(status: -67795)
    /// `errSecInvalidAttributeAccessCredentials` (-67796): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let invalidAttributeAccessCredentials = KeychainError(status: -67796)
    /// `errSecMissingAttributeAccessCredentials` (-67797): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let missingAttributeAccessCredentials = KeychainError(status: -67797)
    /// `errSecInvalidAttributePublicKeyFormat` (-67798): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let invalidAttributePublicKeyFormat = KeychainError(status: -67798)
    /// `errSecMissingAttributePublicKeyFormat` (-67799): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let missingAttributePublicKeyFormat = KeychainError(status: -67799)
    /// `errSecInvalidAttributePrivateKeyFormat` (-67800): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let invalidAttributePrivateKeyFormat = KeychainError(status: -67800)
    /// `errSecMissingAttributePrivateKeyFormat` (-67801): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let missingAttributePrivateKeyFormat = KeychainError(status: -67801)
    /// `errSecInvalidAttributeSymmetricKeyFormat` (-67802): a CSSM cryptographic-services code;
    /// keychain item calls do not return it.
    public static let invalidAttributeSymmetricKeyFormat = KeychainError(status: -67802)
    /// `errSecMissingAttributeSymmetricKeyFormat` (-67803): a CSSM cryptographic-services code;
    /// keychain item calls do not return it.
    public static let missingAttributeSymmetricKeyFormat = KeychainError(status: -67803)
    /// `errSecInvalidAttributeWrappedKeyFormat` (-67804): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let invalidAttributeWrappedKeyFormat = KeychainError(status: -67804)
    /// `errSecMissingAttributeWrappedKeyFormat` (-67805): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let missingAttributeWrappedKeyFormat = KeychainError(status: -67805)
    /// `errSecStagedOperationInProgress` (-67806): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let stagedOperationInProgress = KeychainError(status: -67806)
    /// `errSecStagedOperationNotStarted` (-67807): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let stagedOperationNotStarted = KeychainError(status: -67807)
    /// `errSecVerifyFailed` (-67808): a signature did not verify.
    public static let verifyFailed = KeychainError(status: -67808)
    /// `errSecQuerySizeUnknown` (-67809): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let querySizeUnknown = KeychainError(status: -67809)
    /// `errSecBlockSizeMismatch` (-67810): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let blockSizeMismatch = KeychainError(status: -67810)
    /// `errSecPublicKeyInconsistent` (-67811): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let publicKeyInconsistent = KeychainError(status: -67811)
    /// `errSecDeviceVerifyFailed` (-67812): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let deviceVerifyFailed = KeychainError(status: -67812)
    /// `errSecInvalidLoginName` (-67813): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidLoginName = KeychainError(status: -67813)
    /// `errSecAlreadyLoggedIn` (-67814): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let alreadyLoggedIn = KeychainError(status: -67814)
    /// `errSecInvalidDigestAlgorithm` (-67815): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidDigestAlgorithm = KeychainError(status: -67815)
    /// `errSecInsufficientCredentials` (-67822): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let insufficientCredentials = KeychainError(status: -67822)
    /// `errSecInvalidAction` (-67823): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidAction = KeychainError(status: -67823)
    /// `errSecVerifyActionFailed` (-67825): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let verifyActionFailed = KeychainError(status: -67825)
    /// `errSecInvalidFormType` (-67831): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidFormType = KeychainError(status: -67831)
    /// `errSecInvalidID` (-67832): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidID = KeychainError(status: -67832)
    /// `errSecInvalidIdentifier` (-67833): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidIdentifier = KeychainError(status: -67833)
    /// `errSecInvalidIndex` (-67834): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidIndex = KeychainError(status: -67834)
    /// `errSecInvalidTimeString` (-67836): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidTimeString = KeychainError(status: -67836)
    /// `errSecInvalidReason` (-67837): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidReason = KeychainError(status: -67837)
    /// `errSecInvalidRequestInputs` (-67838): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidRequestInputs = KeychainError(status: -67838)
    /// `errSecInvalidResponseVector` (-67839): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidResponseVector = KeychainError(status: -67839)
    /// `errSecInvalidTuple` (-67841): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidTuple = KeychainError(status: -67841)
    /// `errSecMultipleValuesUnsupported` (-67842): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let multipleValuesUnsupported = KeychainError(status: -67842)
    /// `errSecRejectedForm` (-67845): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let rejectedForm = KeychainError(status: -67845)
    /// `errSecRequestLost` (-67846): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let requestLost = KeychainError(status: -67846)
    /// `errSecRequestRejected` (-67847): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let requestRejected = KeychainError(status: -67847)
    /// `errSecUnsupportedAddressType` (-67848): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let unsupportedAddressType = KeychainError(status: -67848)
    /// `errSecUnsupportedService` (-67849): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let unsupportedService = KeychainError(status: -67849)
    /// `errSecInvalidTupleGroup` (-67850): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidTupleGroup = KeychainError(status: -67850)
    /// `errSecInvalidBaseACLs` (-67851): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidBaseACLs = KeychainError(status: -67851)
    /// `errSecInvalidTupleCredentials` (-67852): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidTupleCredentials = KeychainError(status: -67852)
    /// `errSecInvalidEncoding` (-67853): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidEncoding = KeychainError(status: -67853)
    /// `errSecInvalidValidityPeriod` (-67854): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidValidityPeriod = KeychainError(status: -67854)
    /// `errSecInvalidRequestor` (-67855): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidRequestor = KeychainError(status: -67855)
    /// `errSecRequestDescriptor` (-67856): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let requestDescriptor = KeychainError(status: -67856)
    /// `errSecInvalidBundleInfo` (-67857): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidBundleInfo = KeychainError(status: -67857)
    /// `errSecNoFieldValues` (-67859): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let noFieldValues = KeychainError(status: -67859)
    /// `errSecUnsupportedFieldFormat` (-67860): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let unsupportedFieldFormat = KeychainError(status: -67860)
    /// `errSecUnsupportedIndexInfo` (-67861): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let unsupportedIndexInfo = KeychainError(status: -67861)
    /// `errSecUnsupportedLocality` (-67862): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let unsupportedLocality = KeychainError(status: -67862)
    /// `errSecUnsupportedNumAttributes` (-67863): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let unsupportedNumAttributes = KeychainError(status: -67863)
    /// `errSecUnsupportedNumIndexes` (-67864): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let unsupportedNumIndexes = KeychainError(status: -67864)
    /// `errSecUnsupportedNumRecordTypes` (-67865): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let unsupportedNumRecordTypes = KeychainError(status: -67865)
    /// `errSecFieldSpecifiedMultiple` (-67866): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let fieldSpecifiedMultiple = KeychainError(status: -67866)
    /// `errSecIncompatibleFieldFormat` (-67867): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let incompatibleFieldFormat = KeychainError(status: -67867)
    /// `errSecInvalidParsingModule` (-67868): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidParsingModule = KeychainError(status: -67868)
    /// `errSecDatabaseLocked` (-67869): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let databaseLocked = KeychainError(status: -67869)
    /// `errSecDatastoreIsOpen` (-67870): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let datastoreIsOpen = KeychainError(status: -67870)
    /// `errSecMissingValue` (-67871): a required value is missing.
    public static let missingValue = KeychainError(status: -67871)
    /// `errSecUnsupportedQueryLimits` (-67872): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let unsupportedQueryLimits = KeychainError(status: -67872)
    /// `errSecUnsupportedNumSelectionPreds` (-67873): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let unsupportedNumSelectionPreds = KeychainError(status: -67873)
    /// `errSecUnsupportedOperator` (-67874): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let unsupportedOperator = KeychainError(status: -67874)
    /// `errSecInvalidDBLocation` (-67875): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidDBLocation = KeychainError(status: -67875)
    /// `errSecInvalidAccessRequest` (-67876): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidAccessRequest = KeychainError(status: -67876)
    /// `errSecInvalidIndexInfo` (-67877): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidIndexInfo = KeychainError(status: -67877)
    /// `errSecInvalidNewOwner` (-67878): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidNewOwner = KeychainError(status: -67878)
    /// `errSecInvalidModifyMode` (-67879): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidModifyMode = KeychainError(status: -67879)
}
