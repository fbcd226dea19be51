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
}
