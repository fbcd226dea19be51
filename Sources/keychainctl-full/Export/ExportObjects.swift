import Crypto
import Foundation
import KeychainServices

/// One thing `export` writes: a certificate, a public key or a private key, with the label it
/// has in the keychain and the SHA-1 of its public key, which pairs a private key with its
/// certificate (the same hash Apple stores as a key's `klbl` and a certificate's `pkhh`).
struct ExportObject {
    enum Kind { case certificate, publicKey, privateKey }
    let kind: Kind
    let certificate: SecCertificate?
    let key: SecKey?
    let label: String?
    let publicKeyHash: [UInt8]?

    static func certificate(_ certificate: SecCertificate, label: String?) -> ExportObject {
        let hash = SecCertificateCopyKey(certificate).flatMap(Self.hash(ofPublicKey:))
        return ExportObject(kind: .certificate, certificate: certificate, key: nil,
                            label: label ?? SecCertificateCopySubjectSummary(certificate) as String?, publicKeyHash: hash)
    }

    static func key(_ key: SecKey, isPrivate: Bool, label: String?) -> ExportObject {
        let publicKey = isPrivate ? SecKeyCopyPublicKey(key) : key
        return ExportObject(kind: isPrivate ? .privateKey : .publicKey, certificate: nil, key: key, label: label,
                            publicKeyHash: publicKey.flatMap(Self.hash(ofPublicKey:)))
    }

    private static func hash(ofPublicKey key: SecKey) -> [UInt8]? {
        var error: Unmanaged<CFError>?
        guard let bytes = SecKeyCopyExternalRepresentation(key, &error) as Data? else { return nil }
        return Array(Insecure.SHA1.hash(data: bytes))
    }
}

/// Collects the items `-t` names from the keychain in use, as `security export` does: every
/// item of those classes (it has no filters).
enum ExportObjects {
    static func gather(_ type: ExportItemType) throws(CommandFailure) -> [ExportObject] {
        switch type {
        case .certs: return try certificates()
        case .privKeys: return try keys(isPrivate: true)
        case .pubKeys: return try keys(isPrivate: false)
        case .allKeys: return try keys(isPrivate: true) + keys(isPrivate: false)
        case .all: return try certificates() + keys(isPrivate: true)
        case .identities: return try identities()
        }
    }

    private static func certificates() throws(CommandFailure) -> [ExportObject] {
        try search([kSecClass as String: kSecClassCertificate]).compactMap { attributes in
            (attributes[kSecValueRef as String] as? SecCertificate).map {
                ExportObject.certificate($0, label: attributes[kSecAttrLabel as String] as? String)
            }
        }
    }

    private static func keys(isPrivate: Bool) throws(CommandFailure) -> [ExportObject] {
        try search([kSecClass as String: kSecClassKey,
                    kSecAttrKeyClass as String: isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic]).compactMap { attributes in
            (attributes[kSecValueRef as String] as? SecKey).map {
                ExportObject.key($0, isPrivate: isPrivate, label: attributes[kSecAttrLabel as String] as? String)
            }
        }
    }

    /// Each identity as its certificate and its private key; a key two certificates share is
    /// written once.
    private static func identities() throws(CommandFailure) -> [ExportObject] {
        var objects: [ExportObject] = []
        var keysSeen: Set<[UInt8]> = []
        for attributes in try search([kSecClass as String: kSecClassIdentity]) {
            guard let identity = attributes[kSecValueRef as String] as? SecIdentity else { continue }
            var certificate: SecCertificate?
            var key: SecKey?
            guard SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess, let certificate else { continue }
            let status = SecIdentityCopyPrivateKey(identity, &key)
            guard status == errSecSuccess, let key else { throw CommandFailure.status(status, "SecIdentityCopyPrivateKey") }
            let certificateObject = ExportObject.certificate(certificate, label: attributes[kSecAttrLabel as String] as? String)
            objects.append(certificateObject)
            let keyObject = ExportObject.key(key, isPrivate: true, label: certificateObject.label)
            if keysSeen.insert(keyObject.publicKeyHash ?? []).inserted { objects.append(keyObject) }
        }
        return objects
    }

    /// Every item matching `query`, as attribute dictionaries carrying the ref; none is an
    /// empty list (the caller decides whether that is an error).
    private static func search(_ query: [String: Any]) throws(CommandFailure) -> [[String: Any]] {
        var query = query
        query[kSecReturnRef as String] = true
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw CommandFailure.status(status, "SecItemCopyMatching") }
        return ResultObjects.dictionaries(result) ?? []
    }
}
