#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

/// In ``SecTrustCopyResult(_:)``: the `SecTrustResultType` of the evaluation, as a number.
nonisolated(unsafe) public let kSecTrustResultValue: CFString = "TrustResultValue"
/// In ``SecTrustCopyResult(_:)``: the time the evaluation was made for.
nonisolated(unsafe) public let kSecTrustEvaluationDate: CFString = "TrustEvaluationDate"
/// In ``SecTrustCopyResult(_:)``: true when the revocation of every certificate was checked.
/// Never present here, since no revocation response is ever had (``SecPolicyCreateRevocation(_:)``);
/// Apple's trustd likewise leaves it out when it could not check.
nonisolated(unsafe) public let kSecTrustRevocationChecked: CFString = "TrustRevocationChecked"

/// The evaluation's result (evaluating first if needed), as Apple's `SecTrustCopyResult` in
/// `SecTrust.c` builds it: `kSecTrustResultValue` and `kSecTrustEvaluationDate`; the
/// certificate-transparency, extended-validation and revocation keys are never set here.
@discardableResult
public func SecTrustCopyResult(_ trust: SecTrust) -> CFDictionary? {
    var result = SecTrustResultType.invalid
    SecTrustEvaluate(trust, &result)
    let dictionary = NSMutableDictionary()
    dictionary[kSecTrustResultValue] = NSNumber(value: result.rawValue)
    if let date = trust.evaluationDate { dictionary[kSecTrustEvaluationDate] = date as NSDate }
    return dictionary
}

/// The leaf certificate's public key. Deprecated by Apple for ``SecTrustCopyKey(_:)``, which it
/// calls (`SecTrust.c`).
@available(*, deprecated, renamed: "SecTrustCopyKey")
@discardableResult
public func SecTrustCopyPublicKey(_ trust: SecTrust) -> SecKey? {
    SecTrustCopyKey(trust)
}
#endif
