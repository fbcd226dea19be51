#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// The search keys that keep only some certificates (and identities), applied after the rows
/// are read, as Security's daemon applies them (`SecItemDb.c`, its post-filters):
/// `kSecMatchPolicy` keeps certificates that evaluate as trusted under the policy,
/// `kSecMatchTrustedOnly` those trusted under the basic X.509 policy, `kSecMatchValidOnDate`
/// those valid at the date (`kCFNull`: now), `kSecMatchIssuers` those issued by one of the
/// names. Each certificate is evaluated alone, against the system's anchors (the keychain's other
/// certificates are not intermediates here), and so an issuer is matched against the
/// certificate's own issuer only, where Apple follows the chain up to ten certificates.
struct CertificateMatchFilter {
    private let policy: SecPolicy?
    private let trustedOnly: Bool
    private let validOn: Date?
    /// Normalised issuer names (the form stored as `issr`); nil when the query names none.
    private let issuers: Set<Data>?

    /// Nil when the query has none of these keys (or only kSecMatchTrustedOnly false).
    init?(_ matchKeys: [String: Any]) {
        policy = matchKeys["m_Policy"] as? SecPolicy
        trustedOnly = matchKeys["m_TrustedOnly"].flatMap(ValueConversion.boolean) ?? false
        switch matchKeys["m_ValidOnDate"] {
        case let date as Date: validOn = date
        case is NSNull: validOn = Date()
        default: validOn = nil
        }
        // A whole DER Name is normalised as `kSecAttrIssuer` is; anything else is taken as the
        // normalised form already (what SecCertificateCopyNormalizedIssuerSequence returns).
        let names = (matchKeys["m_Issuers"] as? NSArray).map { Array($0) } ?? (matchKeys["m_Issuers"] as? [Any])
        issuers = names.map { Set($0.compactMap(ValueConversion.data).map { NameNormalizer.issuerQueryValue($0) ?? $0 }) }
        if policy == nil && !trustedOnly && validOn == nil && issuers == nil { return nil }
    }

    func accepts(_ item: StoredItem) -> Bool {
        guard let der = item.secret, let certificate = SecCertificate(der: der) else { return false }
        if let issuers, !issuers.contains(certificate.fields.normalizedIssuer) { return false }
        if let validOn, !(certificate.parsed.notValidBefore...certificate.parsed.notValidAfter).contains(validOn) { return false }
        let policies = (policy.map { [$0] } ?? []) + (trustedOnly ? [SecPolicyCreateBasicX509()] : [])
        for policy in policies {
            let trust = SecTrust(certificates: [certificate], policies: [policy])
            if trust.evaluateIfNeeded().failure != nil { return false }
        }
        return true
    }
}
#endif
