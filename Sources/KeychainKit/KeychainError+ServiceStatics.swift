// Generated once from the names and numbers of Apple's SecBase.h (the numbers are facts; the
// sentences are ours). Every public errSec code has a static here, so no status is ever lost or
// renamed; the numbers are checked against KeychainServices by KeychainErrorCatalogueTests.

// MARK: - Cryptographic-services range: modules, keys, attributes and other CSSM services

extension KeychainError {
    /// `errSecServiceNotAvailable` (-67585): a required service is not available.
    public static let serviceNotAvailable = KeychainError(status: -67585)
    /// `errSecInsufficientClientID` (-67586): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let insufficientClientID = KeychainError(status: -67586)
    /// `errSecDeviceReset` (-67587): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let deviceReset = KeychainError(status: -67587)
    /// `errSecDeviceFailed` (-67588): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let deviceFailed = KeychainError(status: -67588)
    /// `errSecAppleAddAppACLSubject` (-67589): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let appleAddAppACLSubject = KeychainError(status: -67589)
    /// `errSecApplePublicKeyIncomplete` (-67590): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let applePublicKeyIncomplete = KeychainError(status: -67590)
    /// `errSecAppleSignatureMismatch` (-67591): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let appleSignatureMismatch = KeychainError(status: -67591)
    /// `errSecAppleInvalidKeyStartDate` (-67592): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let appleInvalidKeyStartDate = KeychainError(status: -67592)
    /// `errSecAppleInvalidKeyEndDate` (-67593): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let appleInvalidKeyEndDate = KeychainError(status: -67593)
    /// `errSecConversionError` (-67594): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let conversionError = KeychainError(status: -67594)
    /// `errSecQuotaExceeded` (-67596): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let quotaExceeded = KeychainError(status: -67596)
    /// `errSecFileTooBig` (-67597): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let fileTooBig = KeychainError(status: -67597)
    /// `errSecInvalidDatabaseBlob` (-67598): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidDatabaseBlob = KeychainError(status: -67598)
    /// `errSecInvalidKeyBlob` (-67599): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidKeyBlob = KeychainError(status: -67599)
    /// `errSecIncompatibleDatabaseBlob` (-67600): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let incompatibleDatabaseBlob = KeychainError(status: -67600)
    /// `errSecIncompatibleKeyBlob` (-67601): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let incompatibleKeyBlob = KeychainError(status: -67601)
    /// `errSecNotInitialized` (-67667): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let notInitialized = KeychainError(status: -67667)
    /// `errSecInvalidHandleUsage` (-67668): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidHandleUsage = KeychainError(status: -67668)
    /// `errSecPVCReferentNotFound` (-67669): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let pvcReferentNotFound = KeychainError(status: -67669)
    /// `errSecFunctionIntegrityFail` (-67670): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let functionIntegrityFail = KeychainError(status: -67670)
    /// `errSecInternalError` (-67671): an internal error happened.
    public static let internalError = KeychainError(status: -67671)
    /// `errSecMemoryError` (-67672): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let memoryError = KeychainError(status: -67672)
    /// `errSecInvalidData` (-67673): the data is not valid.
    public static let invalidData = KeychainError(status: -67673)
    /// `errSecMDSError` (-67674): a CSSM cryptographic-services code; keychain item calls do not return
    /// it.
    public static let mdsError = KeychainError(status: -67674)
    /// `errSecInvalidPointer` (-67675): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidPointer = KeychainError(status: -67675)
    /// `errSecSelfCheckFailed` (-67676): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let selfCheckFailed = KeychainError(status: -67676)
    /// `errSecFunctionFailed` (-67677): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let functionFailed = KeychainError(status: -67677)
    /// `errSecModuleManifestVerifyFailed` (-67678): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let moduleManifestVerifyFailed = KeychainError(status: -67678)
    /// `errSecInvalidGUID` (-67679): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidGUID = KeychainError(status: -67679)
    /// `errSecInvalidHandle` (-67680): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidHandle = KeychainError(status: -67680)
    /// `errSecInvalidDBList` (-67681): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidDBList = KeychainError(status: -67681)
    /// `errSecInvalidPassthroughID` (-67682): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidPassthroughID = KeychainError(status: -67682)
    /// `errSecInvalidNetworkAddress` (-67683): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidNetworkAddress = KeychainError(status: -67683)
    /// `errSecInvalidNumberOfFields` (-67685): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let invalidNumberOfFields = KeychainError(status: -67685)
    /// `errSecVerificationFailure` (-67686): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let verificationFailure = KeychainError(status: -67686)
    /// `errSecUnknownTag` (-67687): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let unknownTag = KeychainError(status: -67687)
    /// `errSecInvalidSignature` (-67688): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidSignature = KeychainError(status: -67688)
    /// `errSecInvalidName` (-67689): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidName = KeychainError(status: -67689)
    /// `errSecTagNotFound` (-67692): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let tagNotFound = KeychainError(status: -67692)
    /// `errSecInvalidQuery` (-67693): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidQuery = KeychainError(status: -67693)
    /// `errSecInvalidValue` (-67694): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidValue = KeychainError(status: -67694)
    /// `errSecCallbackFailed` (-67695): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let callbackFailed = KeychainError(status: -67695)
    /// `errSecACLDeleteFailed` (-67696): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let aclDeleteFailed = KeychainError(status: -67696)
    /// `errSecACLReplaceFailed` (-67697): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let aclReplaceFailed = KeychainError(status: -67697)
    /// `errSecACLAddFailed` (-67698): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let aclAddFailed = KeychainError(status: -67698)
    /// `errSecACLChangeFailed` (-67699): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let aclChangeFailed = KeychainError(status: -67699)
    /// `errSecInvalidAccessCredentials` (-67700): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAccessCredentials = KeychainError(status: -67700)
    /// `errSecInvalidRecord` (-67701): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidRecord = KeychainError(status: -67701)
    /// `errSecInvalidACL` (-67702): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidACL = KeychainError(status: -67702)
    /// `errSecInvalidSampleValue` (-67703): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidSampleValue = KeychainError(status: -67703)
    /// `errSecIncompatibleVersion` (-67704): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let incompatibleVersion = KeychainError(status: -67704)
    /// `errSecPrivilegeNotGranted` (-67705): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let privilegeNotGranted = KeychainError(status: -67705)
    /// `errSecInvalidScope` (-67706): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidScope = KeychainError(status: -67706)
    /// `errSecPVCAlreadyConfigured` (-67707): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let pvcAlreadyConfigured = KeychainError(status: -67707)
    /// `errSecInvalidPVC` (-67708): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidPVC = KeychainError(status: -67708)
    /// `errSecEMMLoadFailed` (-67709): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let emmLoadFailed = KeychainError(status: -67709)
    /// `errSecEMMUnloadFailed` (-67710): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let emmUnloadFailed = KeychainError(status: -67710)
    /// `errSecAddinLoadFailed` (-67711): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let addinLoadFailed = KeychainError(status: -67711)
    /// `errSecInvalidKeyRef` (-67712): the key is not valid.
    public static let invalidKeyRef = KeychainError(status: -67712)
    /// `errSecInvalidKeyHierarchy` (-67713): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidKeyHierarchy = KeychainError(status: -67713)
    /// `errSecAddinUnloadFailed` (-67714): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let addinUnloadFailed = KeychainError(status: -67714)
    /// `errSecLibraryReferenceNotFound` (-67715): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let libraryReferenceNotFound = KeychainError(status: -67715)
    /// `errSecInvalidAddinFunctionTable` (-67716): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidAddinFunctionTable = KeychainError(status: -67716)
    /// `errSecInvalidServiceMask` (-67717): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidServiceMask = KeychainError(status: -67717)
    /// `errSecModuleNotLoaded` (-67718): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let moduleNotLoaded = KeychainError(status: -67718)
    /// `errSecInvalidSubServiceID` (-67719): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidSubServiceID = KeychainError(status: -67719)
    /// `errSecAttributeNotInContext` (-67720): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let attributeNotInContext = KeychainError(status: -67720)
    /// `errSecModuleManagerInitializeFailed` (-67721): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let moduleManagerInitializeFailed = KeychainError(status: -67721)
    /// `errSecModuleManagerNotFound` (-67722): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let moduleManagerNotFound = KeychainError(status: -67722)
    /// `errSecEventNotificationCallbackNotFound` (-67723): a CSSM cryptographic-services code; keychain
    /// item calls do not return it.
    public static let eventNotificationCallbackNotFound = KeychainError(status: -67723)
    /// `errSecInputLengthError` (-67724): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let inputLengthError = KeychainError(status: -67724)
    /// `errSecOutputLengthError` (-67725): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let outputLengthError = KeychainError(status: -67725)
    /// `errSecPrivilegeNotSupported` (-67726): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let privilegeNotSupported = KeychainError(status: -67726)
    /// `errSecDeviceError` (-67727): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let deviceError = KeychainError(status: -67727)
    /// `errSecAttachHandleBusy` (-67728): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let attachHandleBusy = KeychainError(status: -67728)
    /// `errSecNotLoggedIn` (-67729): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let notLoggedIn = KeychainError(status: -67729)
    /// `errSecAlgorithmMismatch` (-67730): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let algorithmMismatch = KeychainError(status: -67730)
    /// `errSecKeyBlobTypeIncorrect` (-67732): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let keyBlobTypeIncorrect = KeychainError(status: -67732)
    /// `errSecKeyHeaderInconsistent` (-67733): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let keyHeaderInconsistent = KeychainError(status: -67733)
    /// `errSecUnsupportedKeyFormat` (-67734): a CSSM cryptographic-services code; keychain item calls
    /// do not return it.
    public static let unsupportedKeyFormat = KeychainError(status: -67734)
    /// `errSecUnsupportedKeySize` (-67735): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let unsupportedKeySize = KeychainError(status: -67735)
    /// `errSecInvalidKeyAttributeMask` (-67738): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let invalidKeyAttributeMask = KeychainError(status: -67738)
    /// `errSecUnsupportedKeyAttributeMask` (-67739): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let unsupportedKeyAttributeMask = KeychainError(status: -67739)
    /// `errSecInvalidKeyLabel` (-67740): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidKeyLabel = KeychainError(status: -67740)
    /// `errSecUnsupportedKeyLabel` (-67741): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let unsupportedKeyLabel = KeychainError(status: -67741)
    /// `errSecInvalidKeyFormat` (-67742): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidKeyFormat = KeychainError(status: -67742)
    /// `errSecUnsupportedVectorOfBuffers` (-67743): a CSSM cryptographic-services code; keychain item
    /// calls do not return it.
    public static let unsupportedVectorOfBuffers = KeychainError(status: -67743)
    /// `errSecInvalidInputVector` (-67744): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidInputVector = KeychainError(status: -67744)
    /// `errSecInvalidOutputVector` (-67745): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidOutputVector = KeychainError(status: -67745)
    /// `errSecInvalidContext` (-67746): a CSSM cryptographic-services code; keychain item calls do not
    /// return it.
    public static let invalidContext = KeychainError(status: -67746)
    /// `errSecInvalidAlgorithm` (-67747): a CSSM cryptographic-services code; keychain item calls do
    /// not return it.
    public static let invalidAlgorithm = KeychainError(status: -67747)
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
