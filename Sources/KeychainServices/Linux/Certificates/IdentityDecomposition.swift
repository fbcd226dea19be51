#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore

/// What Security's client does with identities before anything reaches the keychain
/// (`explode_identity` and `handleUpdateIdentity` in `SecItem.c`): an identity is stored as its
/// certificate and its private key, so
/// - adding a `SecIdentity` adds the certificate, then the key (a duplicate of one of them is
///   fine; only both duplicates is `errSecDuplicateItem`);
/// - deleting a `SecIdentity` deletes the certificate, then the key unless another certificate
///   of the same key remains;
/// - deleting or updating `kSecClassIdentity` deletes or updates the certificates matching the
///   query, then the keys matching it;
/// - a search by `SecIdentity` is an identity search for that certificate.
/// Each returns nil when the dictionary is not about identities, and the call goes on as usual.
enum IdentityDecomposition {
    private static let valueRef = "v_Ref", classKey = "class"

    static func add(_ dictionary: NSDictionary, _ entries: DictionaryEntries, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus? {
        guard let identity = entries.value(forKey: valueRef) as? SecIdentity else { return nil }
        let partial = dictionary.mutableCopy() as? NSMutableDictionary ?? NSMutableDictionary()
        partial[valueRef] = identity.certificate
        var certificateResult: CFTypeRef?
        var status = result == nil ? SecItemImplementation.add(partial, nil) : SecItemImplementation.add(partial, &certificateResult)
        let duplicateCertificate = status == errSecDuplicateItem
        if duplicateCertificate { status = errSecSuccess }
        guard status == errSecSuccess else { return status }
        partial[valueRef] = identity.privateKey
        partial["r_PersistentRef"] = false
        // A certificate's accessibility default (Always) is not a key's: the key gets its own.
        status = SecItemImplementation.add(partial, nil)
        if status == errSecDuplicateItem && !duplicateCertificate { status = errSecSuccess }
        if status == errSecSuccess, let result { result.pointee = asIdentityReference(certificateResult) }
        return status
    }

    static func delete(_ dictionary: NSDictionary, _ entries: DictionaryEntries) -> OSStatus? {
        if let identity = entries.value(forKey: valueRef) as? SecIdentity {
            let partial = dictionary.mutableCopy() as? NSMutableDictionary ?? NSMutableDictionary()
            partial[valueRef] = identity.certificate
            var status = SecItemImplementation.delete(partial)
            guard status == errSecSuccess || status == errSecItemNotFound else { return status }
            // The key stays while another certificate still needs it.
            let stillUsed = SecItemImplementation.copyMatching([classKey: "cert", "pkhh": identity.certificate.publicKeyHash] as NSDictionary, nil)
            if stillUsed != errSecSuccess {
                partial[valueRef] = identity.privateKey
                status = SecItemImplementation.delete(partial)
            }
            return status
        }
        guard (entries.value(forKey: classKey) as? String) == "idnt" else { return nil }
        return bothClasses(dictionary) { SecItemImplementation.delete($0) }
    }

    static func update(_ query: NSDictionary, _ entries: DictionaryEntries, _ changes: NSDictionary) -> OSStatus? {
        if let identity = entries.value(forKey: valueRef) as? SecIdentity {
            let partial = query.mutableCopy() as? NSMutableDictionary ?? NSMutableDictionary()
            partial[valueRef] = identity.certificate
            let status = SecItemImplementation.update(partial, changes)
            guard status == errSecSuccess else { return status }
            partial[valueRef] = identity.privateKey
            return SecItemImplementation.update(partial, changes)
        }
        guard (entries.value(forKey: classKey) as? String) == "idnt" else { return nil }
        return bothClasses(query) { SecItemImplementation.update($0, changes) }
    }

    static func copyMatching(_ dictionary: NSDictionary, _ entries: DictionaryEntries, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus? {
        guard let identity = entries.value(forKey: valueRef) as? SecIdentity else { return nil }
        let query = dictionary.mutableCopy() as? NSMutableDictionary ?? NSMutableDictionary()
        query.removeObject(forKey: valueRef)
        query[classKey] = "idnt"
        for (name, value) in identity.certificate.itemAttributes() where SecCertificate.queryAttributeNames.contains(name) {
            query[name] = ValueConversion.object(value)
        }
        return SecItemImplementation.copyMatching(query, result)
    }

    /// The certificate part, then (if it succeeded) the key part, of a `kSecClassIdentity` call.
    private static func bothClasses(_ dictionary: NSDictionary, _ call: (NSDictionary) -> OSStatus) -> OSStatus {
        let partial = dictionary.mutableCopy() as? NSMutableDictionary ?? NSMutableDictionary()
        partial[classKey] = "cert"
        let status = call(partial)
        guard status == errSecSuccess else { return status }
        partial[classKey] = "keys"
        return call(partial)
    }

    /// A certificate's persistent reference (or a dictionary holding one) as the identity's:
    /// `idnt` and the certificate's identity.
    private static func asIdentityReference(_ result: CFTypeRef?) -> CFTypeRef? {
        func converted(_ data: Data) -> Data { Data("idnt".utf8) + data.dropFirst(4) }
        if let data = ResultObjects.data(result), data.count == 20 { return converted(data).resultObject }
        if let dictionary = result as? NSDictionary {
            let copy = dictionary.mutableCopy() as? NSMutableDictionary ?? NSMutableDictionary()
            if let data = copy["v_PersistentRef"] as? Data, data.count == 20 { copy["v_PersistentRef"] = converted(data).resultObject }
            return copy
        }
        return result
    }
}
#endif
