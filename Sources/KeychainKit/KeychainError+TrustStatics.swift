// Generated once from the names and numbers of Apple's SecBase.h (the numbers are facts; the
// sentences are ours). Every public errSec code has a static here, so no status is ever lost or
// renamed; the numbers are checked against KeychainServices by KeychainErrorCatalogueTests.

// MARK: - Cryptographic-services range: certificates, trust, revocation and timestamps

extension KeychainError {
    /// `errSecAppleSSLv2Rollback` (-67595): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let appleSSLv2Rollback = KeychainError(status: -67595)
    /// `errSecHostNameMismatch` (-67602): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let hostNameMismatch = KeychainError(status: -67602)
    /// `errSecUnknownCriticalExtensionFlag` (-67603): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let unknownCriticalExtensionFlag = KeychainError(status: -67603)
    /// `errSecNoBasicConstraints` (-67604): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let noBasicConstraints = KeychainError(status: -67604)
    /// `errSecNoBasicConstraintsCA` (-67605): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let noBasicConstraintsCA = KeychainError(status: -67605)
    /// `errSecInvalidAuthorityKeyID` (-67606): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let invalidAuthorityKeyID = KeychainError(status: -67606)
    /// `errSecInvalidSubjectKeyID` (-67607): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let invalidSubjectKeyID = KeychainError(status: -67607)
    /// `errSecInvalidKeyUsageForPolicy` (-67608): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let invalidKeyUsageForPolicy = KeychainError(status: -67608)
    /// `errSecInvalidExtendedKeyUsage` (-67609): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let invalidExtendedKeyUsage = KeychainError(status: -67609)
    /// `errSecInvalidIDLinkage` (-67610): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let invalidIDLinkage = KeychainError(status: -67610)
    /// `errSecPathLengthConstraintExceeded` (-67611): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let pathLengthConstraintExceeded = KeychainError(status: -67611)
    /// `errSecInvalidRoot` (-67612): a CSSM certificate-trust code; keychain item calls do not return
    /// it.
    public static let invalidRoot = KeychainError(status: -67612)
    /// `errSecCRLExpired` (-67613): a CSSM certificate-trust code; keychain item calls do not return
    /// it.
    public static let crlExpired = KeychainError(status: -67613)
    /// `errSecCRLNotValidYet` (-67614): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let crlNotValidYet = KeychainError(status: -67614)
    /// `errSecCRLNotFound` (-67615): a CSSM certificate-trust code; keychain item calls do not return
    /// it.
    public static let crlNotFound = KeychainError(status: -67615)
    /// `errSecCRLServerDown` (-67616): a CSSM certificate-trust code; keychain item calls do not return
    /// it.
    public static let crlServerDown = KeychainError(status: -67616)
    /// `errSecCRLBadURI` (-67617): a CSSM certificate-trust code; keychain item calls do not return it.
    public static let crlBadURI = KeychainError(status: -67617)
    /// `errSecUnknownCertExtension` (-67618): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let unknownCertExtension = KeychainError(status: -67618)
    /// `errSecUnknownCRLExtension` (-67619): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let unknownCRLExtension = KeychainError(status: -67619)
    /// `errSecCRLNotTrusted` (-67620): a CSSM certificate-trust code; keychain item calls do not return
    /// it.
    public static let crlNotTrusted = KeychainError(status: -67620)
    /// `errSecCRLPolicyFailed` (-67621): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let crlPolicyFailed = KeychainError(status: -67621)
    /// `errSecIDPFailure` (-67622): a CSSM certificate-trust code; keychain item calls do not return
    /// it.
    public static let idpFailure = KeychainError(status: -67622)
    /// `errSecSMIMEEmailAddressesNotFound` (-67623): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let smimeEmailAddressesNotFound = KeychainError(status: -67623)
    /// `errSecSMIMEBadExtendedKeyUsage` (-67624): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let smimeBadExtendedKeyUsage = KeychainError(status: -67624)
    /// `errSecSMIMEBadKeyUsage` (-67625): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let smimeBadKeyUsage = KeychainError(status: -67625)
    /// `errSecSMIMEKeyUsageNotCritical` (-67626): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let smimeKeyUsageNotCritical = KeychainError(status: -67626)
    /// `errSecSMIMENoEmailAddress` (-67627): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let smimeNoEmailAddress = KeychainError(status: -67627)
    /// `errSecSMIMESubjAltNameNotCritical` (-67628): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let smimeSubjAltNameNotCritical = KeychainError(status: -67628)
    /// `errSecSSLBadExtendedKeyUsage` (-67629): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let sslBadExtendedKeyUsage = KeychainError(status: -67629)
    /// `errSecOCSPBadResponse` (-67630): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let ocspBadResponse = KeychainError(status: -67630)
    /// `errSecOCSPBadRequest` (-67631): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let ocspBadRequest = KeychainError(status: -67631)
    /// `errSecOCSPUnavailable` (-67632): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let ocspUnavailable = KeychainError(status: -67632)
    /// `errSecOCSPStatusUnrecognized` (-67633): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let ocspStatusUnrecognized = KeychainError(status: -67633)
    /// `errSecEndOfData` (-67634): a CSSM certificate-trust code; keychain item calls do not return it.
    public static let endOfData = KeychainError(status: -67634)
    /// `errSecIncompleteCertRevocationCheck` (-67635): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let incompleteCertRevocationCheck = KeychainError(status: -67635)
    /// `errSecNetworkFailure` (-67636): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let networkFailure = KeychainError(status: -67636)
    /// `errSecOCSPNotTrustedToAnchor` (-67637): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let ocspNotTrustedToAnchor = KeychainError(status: -67637)
    /// `errSecRecordModified` (-67638): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let recordModified = KeychainError(status: -67638)
    /// `errSecOCSPSignatureError` (-67639): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let ocspSignatureError = KeychainError(status: -67639)
    /// `errSecOCSPNoSigner` (-67640): a CSSM certificate-trust code; keychain item calls do not return
    /// it.
    public static let ocspNoSigner = KeychainError(status: -67640)
    /// `errSecOCSPResponderMalformedReq` (-67641): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let ocspResponderMalformedReq = KeychainError(status: -67641)
    /// `errSecOCSPResponderInternalError` (-67642): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let ocspResponderInternalError = KeychainError(status: -67642)
    /// `errSecOCSPResponderTryLater` (-67643): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let ocspResponderTryLater = KeychainError(status: -67643)
    /// `errSecOCSPResponderSignatureRequired` (-67644): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let ocspResponderSignatureRequired = KeychainError(status: -67644)
    /// `errSecOCSPResponderUnauthorized` (-67645): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let ocspResponderUnauthorized = KeychainError(status: -67645)
    /// `errSecOCSPResponseNonceMismatch` (-67646): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let ocspResponseNonceMismatch = KeychainError(status: -67646)
    /// `errSecCodeSigningBadCertChainLength` (-67647): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let codeSigningBadCertChainLength = KeychainError(status: -67647)
    /// `errSecCodeSigningNoBasicConstraints` (-67648): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let codeSigningNoBasicConstraints = KeychainError(status: -67648)
    /// `errSecCodeSigningBadPathLengthConstraint` (-67649): a CSSM certificate-trust code; keychain
    /// item calls do not return it.
    public static let codeSigningBadPathLengthConstraint = KeychainError(status: -67649)
    /// `errSecCodeSigningNoExtendedKeyUsage` (-67650): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let codeSigningNoExtendedKeyUsage = KeychainError(status: -67650)
    /// `errSecCodeSigningDevelopment` (-67651): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let codeSigningDevelopment = KeychainError(status: -67651)
    /// `errSecResourceSignBadCertChainLength` (-67652): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let resourceSignBadCertChainLength = KeychainError(status: -67652)
    /// `errSecResourceSignBadExtKeyUsage` (-67653): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let resourceSignBadExtKeyUsage = KeychainError(status: -67653)
    /// `errSecTrustSettingDeny` (-67654): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let trustSettingDeny = KeychainError(status: -67654)
    /// `errSecInvalidSubjectName` (-67655): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let invalidSubjectName = KeychainError(status: -67655)
    /// `errSecUnknownQualifiedCertStatement` (-67656): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let unknownQualifiedCertStatement = KeychainError(status: -67656)
    /// `errSecMobileMeRequestQueued` (-67657): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let mobileMeRequestQueued = KeychainError(status: -67657)
    /// `errSecMobileMeRequestRedirected` (-67658): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let mobileMeRequestRedirected = KeychainError(status: -67658)
    /// `errSecMobileMeServerError` (-67659): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let mobileMeServerError = KeychainError(status: -67659)
    /// `errSecMobileMeServerNotAvailable` (-67660): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let mobileMeServerNotAvailable = KeychainError(status: -67660)
    /// `errSecMobileMeServerAlreadyExists` (-67661): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let mobileMeServerAlreadyExists = KeychainError(status: -67661)
    /// `errSecMobileMeServerServiceErr` (-67662): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let mobileMeServerServiceErr = KeychainError(status: -67662)
    /// `errSecMobileMeRequestAlreadyPending` (-67663): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let mobileMeRequestAlreadyPending = KeychainError(status: -67663)
    /// `errSecMobileMeNoRequestPending` (-67664): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let mobileMeNoRequestPending = KeychainError(status: -67664)
    /// `errSecMobileMeCSRVerifyFailure` (-67665): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let mobileMeCSRVerifyFailure = KeychainError(status: -67665)
    /// `errSecMobileMeFailedConsistencyCheck` (-67666): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let mobileMeFailedConsistencyCheck = KeychainError(status: -67666)
    /// `errSecCRLAlreadySigned` (-67684): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let crlAlreadySigned = KeychainError(status: -67684)
    /// `errSecInvalidCertificateRef` (-67690): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let invalidCertificateRef = KeychainError(status: -67690)
    /// `errSecInvalidCertificateGroup` (-67691): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let invalidCertificateGroup = KeychainError(status: -67691)
    /// `errSecKeyUsageIncorrect` (-67731): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let keyUsageIncorrect = KeychainError(status: -67731)
    /// `errSecInvalidKeyUsageMask` (-67736): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let invalidKeyUsageMask = KeychainError(status: -67736)
    /// `errSecUnsupportedKeyUsageMask` (-67737): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let unsupportedKeyUsageMask = KeychainError(status: -67737)
    /// `errSecInvalidCRLGroup` (-67816): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let invalidCRLGroup = KeychainError(status: -67816)
    /// `errSecCertificateCannotOperate` (-67817): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let certificateCannotOperate = KeychainError(status: -67817)
    /// `errSecCertificateExpired` (-67818): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let certificateExpired = KeychainError(status: -67818)
    /// `errSecCertificateNotValidYet` (-67819): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let certificateNotValidYet = KeychainError(status: -67819)
    /// `errSecCertificateRevoked` (-67820): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let certificateRevoked = KeychainError(status: -67820)
    /// `errSecCertificateSuspended` (-67821): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let certificateSuspended = KeychainError(status: -67821)
    /// `errSecInvalidAuthority` (-67824): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let invalidAuthority = KeychainError(status: -67824)
    /// `errSecInvalidCertAuthority` (-67826): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let invalidCertAuthority = KeychainError(status: -67826)
    /// `errSecInvalidCRLAuthority` (-67827): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let invalidCRLAuthority = KeychainError(status: -67827)
    /// `errSecInvalidCRLEncoding` (-67828): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let invalidCRLEncoding = KeychainError(status: -67828)
    /// `errSecInvalidCRLType` (-67829): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let invalidCRLType = KeychainError(status: -67829)
    /// `errSecInvalidCRL` (-67830): a CSSM certificate-trust code; keychain item calls do not return
    /// it.
    public static let invalidCRL = KeychainError(status: -67830)
    /// `errSecInvalidPolicyIdentifiers` (-67835): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let invalidPolicyIdentifiers = KeychainError(status: -67835)
    /// `errSecInvalidStopOnPolicy` (-67840): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let invalidStopOnPolicy = KeychainError(status: -67840)
    /// `errSecNotTrusted` (-67843): a CSSM certificate-trust code; keychain item calls do not return
    /// it.
    public static let notTrusted = KeychainError(status: -67843)
    /// `errSecNoDefaultAuthority` (-67844): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let noDefaultAuthority = KeychainError(status: -67844)
    /// `errSecInvalidCRLIndex` (-67858): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let invalidCRLIndex = KeychainError(status: -67858)
    /// `errSecMissingRequiredExtension` (-67880): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let missingRequiredExtension = KeychainError(status: -67880)
    /// `errSecExtendedKeyUsageNotCritical` (-67881): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let extendedKeyUsageNotCritical = KeychainError(status: -67881)
    /// `errSecTimestampMissing` (-67882): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let timestampMissing = KeychainError(status: -67882)
    /// `errSecTimestampInvalid` (-67883): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let timestampInvalid = KeychainError(status: -67883)
    /// `errSecTimestampNotTrusted` (-67884): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let timestampNotTrusted = KeychainError(status: -67884)
    /// `errSecTimestampServiceNotAvailable` (-67885): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let timestampServiceNotAvailable = KeychainError(status: -67885)
    /// `errSecTimestampBadAlg` (-67886): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let timestampBadAlg = KeychainError(status: -67886)
    /// `errSecTimestampBadRequest` (-67887): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let timestampBadRequest = KeychainError(status: -67887)
    /// `errSecTimestampBadDataFormat` (-67888): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let timestampBadDataFormat = KeychainError(status: -67888)
    /// `errSecTimestampTimeNotAvailable` (-67889): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let timestampTimeNotAvailable = KeychainError(status: -67889)
    /// `errSecTimestampUnacceptedPolicy` (-67890): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let timestampUnacceptedPolicy = KeychainError(status: -67890)
    /// `errSecTimestampUnacceptedExtension` (-67891): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let timestampUnacceptedExtension = KeychainError(status: -67891)
    /// `errSecTimestampAddInfoNotAvailable` (-67892): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let timestampAddInfoNotAvailable = KeychainError(status: -67892)
    /// `errSecTimestampSystemFailure` (-67893): a CSSM certificate-trust code; keychain item calls do
    /// not return it.
    public static let timestampSystemFailure = KeychainError(status: -67893)
    /// `errSecSigningTimeMissing` (-67894): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let signingTimeMissing = KeychainError(status: -67894)
    /// `errSecTimestampRejection` (-67895): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let timestampRejection = KeychainError(status: -67895)
    /// `errSecTimestampWaiting` (-67896): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let timestampWaiting = KeychainError(status: -67896)
    /// `errSecTimestampRevocationWarning` (-67897): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let timestampRevocationWarning = KeychainError(status: -67897)
    /// `errSecTimestampRevocationNotification` (-67898): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let timestampRevocationNotification = KeychainError(status: -67898)
    /// `errSecCertificatePolicyNotAllowed` (-67899): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let certificatePolicyNotAllowed = KeychainError(status: -67899)
    /// `errSecCertificateNameNotAllowed` (-67900): a CSSM certificate-trust code; keychain item calls
    /// do not return it.
    public static let certificateNameNotAllowed = KeychainError(status: -67900)
    /// `errSecCertificateValidityPeriodTooLong` (-67901): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let certificateValidityPeriodTooLong = KeychainError(status: -67901)
    /// `errSecCertificateIsCA` (-67902): a CSSM certificate-trust code; keychain item calls do not
    /// return it.
    public static let certificateIsCA = KeychainError(status: -67902)
    /// `errSecCertificateDuplicateExtension` (-67903): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let certificateDuplicateExtension = KeychainError(status: -67903)
    /// `errSecMissingQualifiedCertStatement` (-67904): a CSSM certificate-trust code; keychain item
    /// calls do not return it.
    public static let missingQualifiedCertStatement = KeychainError(status: -67904)
}
