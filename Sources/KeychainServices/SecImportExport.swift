#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

/// Option of ``SecPKCS12Import(_:_:_:)``: the file's passphrase (a string).
nonisolated(unsafe) public let kSecImportExportPassphrase: CFString = "passphrase"
/// In each imported item: the key's friendly name from the file, when it has one.
nonisolated(unsafe) public let kSecImportItemLabel: CFString = "label"
/// In each imported item: the key's local key ID from the file, when it has one.
nonisolated(unsafe) public let kSecImportItemKeyID: CFString = "keyid"
/// In each imported item: a `SecTrust` for the certificate and the file's other certificates,
/// under the basic X.509 policy.
nonisolated(unsafe) public let kSecImportItemTrust: CFString = "trust"
/// In each imported item: the certificate chain, leaf first.
nonisolated(unsafe) public let kSecImportItemCertChain: CFString = "chain"
/// In each imported item: the `SecIdentity` (certificate and private key).
nonisolated(unsafe) public let kSecImportItemIdentity: CFString = "identity"

/// Reads a PKCS#12 file and returns one dictionary per identity in it (nothing is stored in the
/// keychain; add the identity with `SecItemAdd` and `kSecValueRef` for that).
///
/// Mirrors iOS's `SecPKCS12Import` (`SecImportExport.c`): each private key is paired with the
/// certificate of its public key, under `kSecImportItemIdentity`, with `kSecImportItemCertChain`
/// and `kSecImportItemTrust` built from the file's other certificates, and the bag's
/// `kSecImportItemLabel` and `kSecImportItemKeyID`. Certificates without a key only serve as
/// chain members. Files as OpenSSL 3 writes them by default (PBES2, AES-256-CBC, HMAC-SHA-256)
/// are read, and those of OpenSSL 1.x and other older tools (`-legacy`: RC2-40 and three-key
/// triple DES; RC2-128 and RC4 too), as Apple's `p12import.c` reads them
/// (docs/keys-and-certificates.md).
///
/// - Returns: `errSecSuccess`; `errSecAuthFailed` for a wrong passphrase (or a MAC of a digest
///   not known, as Apple's `p12VerifyMac` fails it); `errSecDecode` for a damaged file, a key or
///   certificate that cannot be read, or an encryption scheme not read here, two-key triple DES
///   among them (Apple's importer does not read it either); `errSecParam` when the passphrase
///   option is not a string. Public-key enveloped contents are skipped, as Apple skips them.
@discardableResult
public func SecPKCS12Import(_ pkcs12_data: CFData, _ options: CFDictionary, _ items: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    let passphraseValue = options.object(forKey: kSecImportExportPassphrase)
    guard passphraseValue == nil || passphraseValue is String else { return errSecParam }
    let passphrase = passphraseValue as? String ?? ""
    let contents: PKCS12Contents
    do {
        contents = try PKCS12Parser.parse(pkcs12_data.copiedBytes, password: passphrase)
    } catch {
        return error.status
    }
    var certificates: [(certificate: SecCertificate, bag: PKCS12Bag)] = []
    for bag in contents.certificates {
        guard let certificate = SecCertificate(der: bag.contents) else { return errSecDecode }
        certificates.append((certificate, bag))
    }
    let result = NSMutableArray()
    for bag in contents.keys {
        guard let key = PKCS8PrivateKey.key(bag.contents) else { return errSecDecode }
        // The key's certificate: the one with the same local key ID, else the one whose public
        // key is the key's.
        let match = certificates.first { bag.localKeyID != nil && $0.bag.localKeyID == bag.localKeyID }
            ?? certificates.first { SecIdentity(certificate: $0.certificate, privateKey: key) != nil }
        guard let match, let identity = SecIdentity(certificate: match.certificate, privateKey: key) else { return errSecDecode }
        let others = certificates.map(\.certificate).filter { $0 != match.certificate }
        let trust = SecTrust(certificates: [match.certificate] + others, policies: [SecPolicyCreateBasicX509()])
        let item = NSMutableDictionary()
        item[kSecImportItemIdentity] = identity
        item[kSecImportItemTrust] = trust
        item[kSecImportItemCertChain] = trust.evaluateIfNeeded().chain as NSArray
        if let label = bag.friendlyName ?? match.bag.friendlyName { item[kSecImportItemLabel] = label as NSString }
        if let keyID = bag.localKeyID { item[kSecImportItemKeyID] = keyID.resultObject }
        result.add(item)
    }
    items.pointee = result
    return errSecSuccess
}
#endif
