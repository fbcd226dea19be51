#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// `kSecClassIdentity` searches: identities have no table; they are the certificates whose
/// public key hash (`pkhh`) is the application label (`klbl`) of a stored private key, as
/// Security's daemon joins `cert` and `keys` (`s3dl_create_select_sql` in `SecItemDb.c`).
/// Each attribute of the query filters the certificate when certificates have it (they are looked
/// up first, as Apple does), the key otherwise. One deviation: the key must be a private key
/// (`kcls` 1), where Apple's join tests `priv`, which its software keys set on public keys too.
enum IdentitySearch {
    struct Match {
        let certificate: StoredItem
        let key: StoredItem
    }

    static func find(_ query: ParsedQuery, in context: KeychainContext, limit: MatchLimit) throws -> [Match] {
        var certificateFilters: [String: AttributeValue] = [:]
        var keyFilters: [String: AttributeValue] = ["kcls": .integer(1)]
        for (name, value) in query.attributes {
            if ItemClass.certificate.schema.attribute(name) != nil { certificateFilters[name] = value } else { keyFilters[name] = value }
        }
        let certificates = try context.file.find(
            ItemQuery(itemClass: .certificate, filters: certificateFilters, persistentReference: query.persistentReference?.identity,
                      anySynchronizable: query.anySynchronizable),
            identity: context.identity, limit: nil, includeSecrets: true)
        guard !certificates.isEmpty else { return [] }
        let keys = try context.file.find(
            ItemQuery(itemClass: .key, filters: keyFilters, anySynchronizable: query.anySynchronizable),
            identity: context.identity, limit: nil, includeSecrets: query.returnData || query.returnRef,
            authorize: ItemAuthentication(query: query, file: context.file).authorizer)
        var keysByLabel: [Data: StoredItem] = [:]
        for key in keys {
            if let label = key.attributes["klbl"]?.dataValue, !label.isEmpty, keysByLabel[label] == nil { keysByLabel[label] = key }
        }
        var matches: [Match] = []
        for certificate in certificates {
            guard let hash = certificate.attributes["pkhh"]?.dataValue, let key = keysByLabel[hash] else { continue }
            matches.append(Match(certificate: certificate, key: key))
            if let maximum = limit.maximum, matches.count >= maximum { break }
        }
        return matches
    }

    /// One identity as the `kSecReturn…` keys ask for it, with ResultShaper's rules: the
    /// identity ref, the key's data, an `idnt` persistent reference (the certificate's identity
    /// under the identity class, as Apple's), or a dictionary of the key's attributes overlaid
    /// with the certificate's plus `certdata` (the certificate's DER).
    static func value(for match: Match, query: ParsedQuery, references: ReferenceContext) -> AnyObject? {
        let others = [query.returnData, query.returnAttributes, query.returnPersistentRef].filter { $0 }.count
        let wantsDictionary = query.returnAttributes || (query.returnRef && others > 0) || (query.returnData && query.returnPersistentRef)
        var persistentReference = Data("idnt".utf8)
        persistentReference.append(match.certificate.persistentReference)
        if !wantsDictionary {
            if query.returnData { return match.key.secret.map { $0.resultObject } }
            if query.returnPersistentRef { return persistentReference.resultObject }
            return query.returnRef ? identity(match, references) : nil
        }
        let dictionary = ResultShaper.searchAttributes(match.key)
        for (name, value) in ResultShaper.searchAttributes(match.certificate) {
            if let name = name as? NSString { dictionary.setObject(value, forKey: name) }
        }
        if let der = match.certificate.secret { dictionary["certdata"] = der.resultObject }
        if query.returnRef {
            dictionary["class"] = "idnt" as NSString
            if let identity = identity(match, references) { dictionary["v_Ref"] = identity }
        }
        if query.returnData, let secret = match.key.secret { dictionary["v_Data"] = secret.resultObject }
        if query.returnPersistentRef { dictionary["v_PersistentRef"] = persistentReference.resultObject }
        return dictionary
    }

    private static func identity(_ match: Match, _ references: ReferenceContext) -> SecIdentity? {
        guard let der = match.certificate.secret, let certificate = SecCertificate(der: der),
              let key = SecKey.reference(from: match.key, context: references) as? SecKey else { return nil }
        return SecIdentity(certificate: certificate, privateKey: key)
    }

    static func searchResult(_ matches: [Match], query: ParsedQuery, references: ReferenceContext) -> AnyObject? {
        let limit = query.limit ?? .count(1)
        if limit.isOne { return matches.first.flatMap { value(for: $0, query: query, references: references) } }
        let array = NSMutableArray(capacity: matches.count)
        for match in matches {
            if let value = value(for: match, query: query, references: references) { array.add(value) }
        }
        return array
    }
}
#endif
