#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// The issuer links of the keychain's certificates, for `kSecMatchIssuers`: a certificate
/// matches when its issuer is one of the names, or when a certificate in the keychain whose
/// subject is that issuer was itself issued, directly or further up, by one of them.
///
/// The walk is Security's `items_matching_issuer_parent` (SecItemServer.c): look up the
/// certificates whose subject is the current issuer, skip self-issued ones (issuer equal to
/// subject), and follow each other one's issuer, with one budget of ten steps shared by the
/// whole walk, so that a cycle or a long chain ends. Only certificates the caller may read (its
/// access groups, not synchronizable unless asked, as the daemon's own lookup) are followed.
struct IssuerChain {
    /// Normalised subject → the normalised issuers of the certificates with that subject.
    private let issuersBySubject: [Data: [Data]]
    /// Security's depth: ten certificates above the one tested.
    static let maximumDepth = 10

    init(certificates: [StoredItem]) {
        var links: [Data: [Data]] = [:]
        for item in certificates {
            guard case .data(let subject)? = item.attributes[CertificateAttribute.subject],
                  case .data(let issuer)? = item.attributes[CertificateAttribute.issuer] else { continue }
            links[subject, default: []].append(issuer)
        }
        issuersBySubject = links
    }

    /// The caller's certificates (attributes only) read from the keychain.
    static func load(_ file: KeychainFile, identity: ClientIdentity) throws(KeychainStoreError) -> IssuerChain {
        IssuerChain(certificates: try file.find(ItemQuery(itemClass: .certificate), identity: identity, limit: nil, includeSecrets: false))
    }

    /// Whether `issuer` (a certificate's normalised issuer) is one of `wanted` or leads to one.
    func reaches(_ issuer: Data, _ wanted: Set<Data>) -> Bool {
        reaches(issuer, wanted, budget: Self.maximumDepth)
    }

    /// Each step up spends one of this level's budget; the level above gets what is left.
    private func reaches(_ issuer: Data, _ wanted: Set<Data>, budget: Int) -> Bool {
        if wanted.contains(issuer) { return true }
        var budget = budget
        for parentIssuer in issuersBySubject[issuer] ?? [] where parentIssuer != issuer {
            guard budget > 0 else { return false }
            budget -= 1
            if reaches(parentIssuer, wanted, budget: budget) { return true }
        }
        return false
    }
}
#endif
