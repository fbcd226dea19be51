#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Dispatch
public import Foundation
import SwiftASN1
import X509

/// The result of a trust evaluation, as the deprecated `SecTrustEvaluate` and
/// `SecTrustGetTrustResult` report it.
public enum SecTrustResultType: UInt32, Sendable {
    case invalid = 0, proceed = 1, confirm = 2, deny = 3, unspecified = 4
    case recoverableTrustFailure = 5, fatalTrustFailure = 6, otherError = 7
}

/// The callback of ``SecTrustEvaluateAsyncWithError(_:_:_:)``.
public typealias SecTrustWithErrorCallback = @Sendable (SecTrust, Bool, CFError?) -> Void

/// A certificate chain to evaluate under policies, as Security's `SecTrustRef`: the certificates
/// (leaf first), the policies, the anchors, the verification time, and the last result.
public final class SecTrust: Hashable, @unchecked Sendable {
    // Every field below is read and written under `lock`.
    private let lock = NSLock()
    private var certificates: [SecCertificate]
    private var policies: [SecPolicy]
    private var anchors: [SecCertificate]?
    private var anchorsOnly = true
    private var verifyDate: Date?
    private var outcome: (chain: [SecCertificate], failure: OSStatus?)?
    /// When the last evaluation was made for (the verify date, or the time it ran).
    private var evaluatedAt: Date?
    /// The leaf's public key, kept once made as Apple's trust keeps it (`SecTrustCopyKey`).
    private var leafKey: SecKey?

    init(certificates: [SecCertificate], policies: [SecPolicy]) {
        self.certificates = certificates
        self.policies = policies
    }

    public static func == (lhs: SecTrust, rhs: SecTrust) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    func setPolicies(_ new: [SecPolicy]) { locked { policies = new; outcome = nil } }
    func copyPolicies() -> [SecPolicy] { locked { policies } }
    func setAnchors(_ new: [SecCertificate]?) { locked { anchors = new; anchorsOnly = true; outcome = nil } }
    func setAnchorsOnly(_ only: Bool) { locked { anchorsOnly = only; outcome = nil } }
    func copyAnchors() -> [SecCertificate]? { locked { anchors } }
    func setVerifyDate(_ date: Date) { locked { verifyDate = date; outcome = nil } }
    var verifyTime: Date { locked { verifyDate ?? Date() } }
    var leaf: SecCertificate? { locked { certificates.first } }
    var evaluationDate: Date? { locked { evaluatedAt } }

    /// The leaf's public key, made once.
    func copyLeafKey() -> SecKey? {
        if let key = locked({ leafKey }) { return key }
        guard let made = leaf.flatMap(SecCertificateCopyKey) else { return nil }
        return locked {
            if leafKey == nil { leafKey = made }
            return leafKey
        }
    }

    /// Evaluates unless a result for the current settings is at hand.
    func evaluateIfNeeded() -> (chain: [SecCertificate], failure: OSStatus?) {
        let request: TrustEvaluator.Request? = locked {
            if outcome != nil { return nil }
            guard let leaf = certificates.first else { return nil }
            // Apple: with anchors of its own a trust uses only them, unless told to add the system's.
            let custom = anchors ?? []
            return TrustEvaluator.Request(
                leaf: leaf.parsed, intermediates: certificates.dropFirst().map(\.parsed),
                anchors: custom.map(\.parsed), includeSystemAnchors: anchors == nil || !anchorsOnly,
                policies: policies.isEmpty ? [.basicX509] : policies.map(\.kind), fixedTime: verifyDate)
        }
        if let request {
            let result = TrustEvaluator.evaluate(request)
            let known = locked { certificates + (anchors ?? []) }
            // Hand back the caller's own objects where the chain holds them.
            let chain = result.chain.map { certificate in
                known.first { $0.parsed == certificate } ?? SecCertificate(parsed: certificate)
            }
            locked { outcome = (chain.compactMap { $0 }, result.failure); evaluatedAt = request.time }
        }
        return locked { outcome ?? ([], errSecNotTrusted) }
    }
}

extension SecCertificate {
    /// A certificate object for one swift-certificates built (an anchor from the system store).
    convenience init?(parsed: Certificate) {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(parsed)) != nil else { return nil }
        self.init(der: Data(serializer.serializedBytes))
    }
}

extension SecTrust: SecurityObject {
    static var securityTypeID: SecurityTypeID { .trust }
}

/// The type identifier of trust objects.
@discardableResult
public func SecTrustGetTypeID() -> CFTypeID { SecurityTypeID.trust.rawValue }

/// Reads a certificate, or an array of them, as the trust functions take them.
private func certificateList(_ value: CFTypeRef?) -> [SecCertificate]? {
    if let single = value as? SecCertificate { return [single] }
    guard let array = value as? [Any], !array.isEmpty else { return nil }
    let certificates = array.compactMap { $0 as? SecCertificate }
    return certificates.count == array.count ? certificates : nil
}

private func policyList(_ value: CFTypeRef?) -> [SecPolicy]? {
    guard let value else { return [] }
    if let single = value as? SecPolicy { return [single] }
    guard let array = value as? [Any] else { return nil }
    let policies = array.compactMap { $0 as? SecPolicy }
    return policies.count == array.count ? policies : nil
}

/// Makes a trust object for a certificate (or an array, leaf first, then any intermediates)
/// under a policy or an array of policies (none: basic X.509).
///
/// - Returns: `errSecSuccess`, or `errSecParam` when the certificates or policies are not such objects.
@discardableResult
public func SecTrustCreateWithCertificates(_ certificates: CFTypeRef, _ policies: CFTypeRef?, _ trust: UnsafeMutablePointer<SecTrust?>) -> OSStatus {
    guard let list = certificateList(certificates), let policyObjects = policyList(policies) else { return errSecParam }
    trust.pointee = SecTrust(certificates: list, policies: policyObjects)
    return errSecSuccess
}

/// Replaces the policies (a policy or an array of them).
@discardableResult
public func SecTrustSetPolicies(_ trust: SecTrust, _ policies: CFTypeRef) -> OSStatus {
    guard let list = policyList(policies) else { return errSecParam }
    trust.setPolicies(list)
    return errSecSuccess
}

/// The policies the trust evaluates under.
@discardableResult
public func SecTrustCopyPolicies(_ trust: SecTrust, _ policies: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    policies.pointee = trust.copyPolicies() as NSArray
    return errSecSuccess
}

/// Makes these certificates the only anchors the trust accepts (nil: back to the system's).
/// ``SecTrustSetAnchorCertificatesOnly(_:_:)`` with false adds the system's anchors to them.
@discardableResult
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray?) -> OSStatus {
    guard let anchorCertificates else { trust.setAnchors(nil); return errSecSuccess }
    let list = (anchorCertificates as? [Any] ?? []).compactMap { $0 as? SecCertificate }
    guard list.count == anchorCertificates.count else { return errSecParam }
    trust.setAnchors(list)
    return errSecSuccess
}

/// Whether only the anchors given are trusted (true, the default once anchors are set) or the
/// system's anchors as well (false).
@discardableResult
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus {
    trust.setAnchorsOnly(anchorCertificatesOnly)
    return errSecSuccess
}

/// The anchors set with ``SecTrustSetAnchorCertificates(_:_:)``, or nil when none were.
@discardableResult
public func SecTrustCopyCustomAnchorCertificates(_ trust: SecTrust, _ anchors: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    anchors.pointee = trust.copyAnchors().map { $0 as NSArray }
    return errSecSuccess
}

/// Evaluates at this date rather than now.
@discardableResult
public func SecTrustSetVerifyDate(_ trust: SecTrust, _ verifyDate: CFDate) -> OSStatus {
    trust.setVerifyDate(verifyDate as Date)
    return errSecSuccess
}

/// The time the trust is evaluated at, in seconds since 2001-01-01.
@discardableResult
public func SecTrustGetVerifyTime(_ trust: SecTrust) -> CFAbsoluteTime {
    trust.verifyTime.timeIntervalSinceReferenceDate
}

/// Network fetching of missing intermediates or revocation data never happens here; accepted so
/// that code setting it compiles. Allowing it does not make a required revocation check pass
/// (``SecPolicyCreateRevocation(_:)``).
@discardableResult
public func SecTrustSetNetworkFetchAllowed(_ trust: SecTrust, _ allowFetch: Bool) -> OSStatus { errSecSuccess }

/// Evaluates the chain: true when it reaches an anchor and meets every policy at the
/// verification time. Otherwise false, with an error in `NSOSStatusErrorDomain` whose code says
/// why (`errSecNotTrusted`, `errSecCertificateExpired`, `errSecCertificateNotValidYet`,
/// `errSecHostNameMismatch`, `errSecInvalidExtendedKeyUsage`,
/// `errSecIncompleteCertRevocationCheck` when a revocation policy requires a response).
@discardableResult
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    let (_, failure) = trust.evaluateIfNeeded()
    guard let failure else { return true }
    error?.pointee = trustError(failure, leaf: trust.leaf)
    return false
}

/// ``SecTrustEvaluateWithError(_:_:)`` on another thread; the result is delivered on `queue`.
@discardableResult
public func SecTrustEvaluateAsyncWithError(_ trust: SecTrust, _ queue: DispatchQueue, _ result: @escaping SecTrustWithErrorCallback) -> OSStatus {
    DispatchQueue.global().async {
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        let outcome = error
        queue.async { result(trust, trusted, outcome) }
    }
    return errSecSuccess
}

/// The deprecated evaluation: `.unspecified` when trusted, `.recoverableTrustFailure` otherwise
/// (as Apple reports a chain it cannot trust but a user could accept).
@discardableResult
public func SecTrustEvaluate(_ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>) -> OSStatus {
    let (_, failure) = trust.evaluateIfNeeded()
    result.pointee = failure == nil ? .unspecified : .recoverableTrustFailure
    return errSecSuccess
}

/// The result of the last evaluation (evaluating first if there was none).
@discardableResult
public func SecTrustGetTrustResult(_ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>) -> OSStatus {
    SecTrustEvaluate(trust, result)
}

/// The chain the evaluation built, leaf first, ending at the anchor when one was reached
/// (evaluating first if needed).
@discardableResult
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? {
    let (chain, _) = trust.evaluateIfNeeded()
    return chain.isEmpty ? nil : chain as NSArray
}

/// How many certificates the evaluated chain holds.
@discardableResult
public func SecTrustGetCertificateCount(_ trust: SecTrust) -> CFIndex {
    trust.evaluateIfNeeded().chain.count
}

/// A certificate of the evaluated chain (0 is the leaf). Deprecated by Apple in favour of
/// ``SecTrustCopyCertificateChain(_:)``.
@discardableResult
public func SecTrustGetCertificateAtIndex(_ trust: SecTrust, _ ix: CFIndex) -> SecCertificate? {
    let chain = trust.evaluateIfNeeded().chain
    return chain.indices.contains(ix) ? chain[ix] : nil
}

/// The error object for a failed evaluation: the status as its code, and a sentence naming the
/// certificate (its subject summary, never anything secret).
private func trustError(_ status: OSStatus, leaf: SecCertificate?) -> CFError {
    let name = leaf?.subjectSummary ?? "certificate"
    let reason: String
    switch status {
    case errSecCertificateExpired: reason = "“\(name)” certificate is expired"
    case errSecCertificateNotValidYet: reason = "“\(name)” certificate is not yet valid"
    case errSecHostNameMismatch: reason = "“\(name)” certificate name does not match input"
    case errSecInvalidExtendedKeyUsage: reason = "“\(name)” certificate is not permitted for this usage"
    case errSecIncompleteCertRevocationCheck: reason = "“\(name)” certificate: failed to check revocation"
    default: reason = "“\(name)” certificate is not trusted"
    }
    return NSError(domain: kCFErrorDomainOSStatus as String, code: Int(status), userInfo: [NSLocalizedDescriptionKey: reason])
}
#endif
