#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// The search keys that keep only some certificates (and identities), applied after the rows
/// are read, as Security's daemon applies them (`SecItemDb.c`, its post-filters):
/// `kSecMatchPolicy` keeps certificates that evaluate as trusted under the policy,
/// `kSecMatchTrustedOnly` those trusted under the basic X.509 policy, `kSecMatchValidOnDate`
/// those valid at the date (`kCFNull`: now), `kSecMatchIssuers` those issued by one of the
/// names directly or through the keychain's other certificates (``IssuerChain``, up to ten
/// levels, as Apple), `kSecMatchEmailAddressIfPresent` those that carry the address or no
/// address at all. For trust, each certificate is evaluated alone, against the system's anchors
/// (the keychain's other certificates are not intermediates there).
struct CertificateMatchFilter {
    private let policy: SecPolicy?
    private let trustedOnly: Bool
    private let validOn: Date?
    /// Normalised issuer names (the form stored as `issr`); nil when the query names none.
    private let issuers: Set<Data>?
    /// `kSecMatchEmailAddressIfPresent`, compared without regard to ASCII case.
    private let emailAddress: String?
    /// The keychain's issuer links, needed when the query names issuers (``withIssuerChain(_:)``).
    private var chain: IssuerChain?

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
        emailAddress = matchKeys["m_EmailAddressIfPresent"] as? String
        if policy == nil && !trustedOnly && validOn == nil && issuers == nil && emailAddress == nil { return nil }
    }

    /// The filter with the keychain's certificates loaded for the issuer walk, when it needs them.
    func withIssuerChain(_ load: () throws(KeychainStoreError) -> IssuerChain) throws(KeychainStoreError) -> CertificateMatchFilter {
        guard issuers != nil, chain == nil else { return self }
        var copy = self
        copy.chain = try load()
        return copy
    }

    func accepts(_ item: StoredItem) -> Bool {
        guard let der = item.secret, let certificate = SecCertificate(der: der) else { return false }
        if let issuers {
            let issuer = certificate.fields.normalizedIssuer
            guard issuers.contains(issuer) || chain?.reaches(issuer, issuers) == true else { return false }
        }
        if let emailAddress {
            let addresses = certificate.emailAddresses
            guard addresses.isEmpty || addresses.contains(where: { $0.lowercased() == emailAddress.lowercased() }) else { return false }
        }
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
