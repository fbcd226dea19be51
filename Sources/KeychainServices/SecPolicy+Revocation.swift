#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation

// The revocation flags of `SecPolicy.h`, with Apple's values.

/// Check revocation with OCSP.
public let kSecRevocationOCSPMethod: CFOptionFlags = 1 << 0
/// Check revocation with CRLs.
public let kSecRevocationCRLMethod: CFOptionFlags = 1 << 1
/// With both methods, try CRLs first.
public let kSecRevocationPreferCRL: CFOptionFlags = 1 << 2
/// Fail the evaluation unless a positive revocation response is had; without it the check is
/// a best attempt, whose failure to reach a responder is not fatal.
public let kSecRevocationRequirePositiveResponse: CFOptionFlags = 1 << 3
/// Use no network: only revocation responses already at hand count.
public let kSecRevocationNetworkAccessDisabled: CFOptionFlags = 1 << 4
/// OCSP or CRLs, whichever the certificate names.
public let kSecRevocationUseAnyAvailableMethod: CFOptionFlags = kSecRevocationOCSPMethod | kSecRevocationCRLMethod

/// A policy that checks the revocation of the chain's certificates, to be evaluated together
/// with a basic X.509 or TLS policy.
///
/// Revocation responses come from the network (OCSP responders, CRL distribution points), and
/// this implementation never uses it, so no response is ever at hand. The evaluation then does
/// what Apple's trustd does when no response can be had (`SecPVCPathCheckRevocationResponsesReceived`
/// in `SecPolicyServer.c`): with `kSecRevocationRequirePositiveResponse` it fails with
/// `errSecIncompleteCertRevocationCheck` (a recoverable trust failure), whether or not network
/// access was disabled; without it the best attempt is not fatal, and ``SecTrustCopyResult(_:)``
/// does not report `kSecTrustRevocationChecked`.
///
/// - Returns: nil when `revocationFlags` is 0 or sets bits above the seven Apple defines, as
///   `SecPolicyCreateRevocation` in Apple's `SecPolicy.c` does.
@discardableResult
public func SecPolicyCreateRevocation(_ revocationFlags: CFOptionFlags) -> SecPolicy? {
    guard revocationFlags != 0, revocationFlags >> 7 == 0 else { return nil }
    return SecPolicy(.revocation(flags: revocationFlags))
}

extension SecPolicy.Kind {
    /// Whether the policy fails an evaluation for which no revocation response was had.
    var requiresRevocationResponse: Bool {
        if case .revocation(let flags) = self { return flags & kSecRevocationRequirePositiveResponse != 0 }
        return false
    }
}
#endif
