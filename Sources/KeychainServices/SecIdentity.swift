#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

/// A certificate together with the private key of its public key, as Security's
/// `SecIdentityRef`. The keychain stores the two as a certificate item and a key item; an
/// identity is any such pair whose certificate's `pkhh` equals the key's `klbl`.
public final class SecIdentity: NSObject, @unchecked Sendable {
    // Immutable: @unchecked only because NSObject is not Sendable.
    let certificate: SecCertificate
    let privateKey: SecKey

    /// An identity only for a private key whose public key is the certificate's (`SecIdentityCreate`
    /// in `SecIdentity.c` compares the two public keys).
    init?(certificate: SecCertificate, privateKey: SecKey) {
        guard privateKey.material.isPrivate,
              let certificateKey = SecCertificateCopyKey(certificate),
              certificateKey.material.externalRepresentation == privateKey.material.publicKeyBytes else { return nil }
        self.certificate = certificate
        self.privateKey = privateKey
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecIdentity else { return false }
        return other === self || (other.certificate == certificate && other.privateKey == privateKey)
    }

    public override var hash: Int { certificate.hash }

    /// The certificate's summary; never anything of the key but that it is one.
    public override var description: String { "<SecIdentityRef: \(certificate.subjectSummary ?? "")>" }
}

extension SecIdentity: SecurityObject {
    static var securityTypeID: SecurityTypeID { .identity }
}

/// The type identifier of identities.
@discardableResult
public func SecIdentityGetTypeID() -> CFTypeID { SecurityTypeID.identity.rawValue }

/// The identity's certificate.
@discardableResult
public func SecIdentityCopyCertificate(_ identityRef: SecIdentity, _ certificateRef: UnsafeMutablePointer<SecCertificate?>) -> OSStatus {
    certificateRef.pointee = identityRef.certificate
    return errSecSuccess
}

/// The identity's private key (a key of the keychain when the identity came from it: using it
/// asks for what its access control requires, as any stored key does).
@discardableResult
public func SecIdentityCopyPrivateKey(_ identityRef: SecIdentity, _ privateKeyRef: UnsafeMutablePointer<SecKey?>) -> OSStatus {
    privateKeyRef.pointee = identityRef.privateKey
    return errSecSuccess
}

/// Finds the private key of `certificateRef` in the keychain (the key item whose application
/// label is the certificate's public key hash) and pairs them.
///
/// - Parameter keychainOrArray: ignored; the process's keychain is searched, as macOS searches
///   its default list when nil is given.
/// - Returns: `errSecSuccess`, or `errSecItemNotFound` when no such private key is stored.
@discardableResult
public func SecIdentityCreateWithCertificate(_ keychainOrArray: CFTypeRef?, _ certificateRef: SecCertificate,
                                             _ identityRef: UnsafeMutablePointer<SecIdentity?>) -> OSStatus {
    var result: CFTypeRef?
    let status = SecItemCopyMatching([
        "class": "keys", "kcls": 1, "klbl": certificateRef.publicKeyHash, "r_Ref": true,
    ] as NSDictionary, &result)
    guard status == errSecSuccess else { return status }
    guard let key = result as? SecKey, let identity = SecIdentity(certificate: certificateRef, privateKey: key) else { return errSecItemNotFound }
    identityRef.pointee = identity
    return errSecSuccess
}

/// The certificate's public key, or nil when it is of a type keys here cannot be (only EC
/// P-256/384/521, RSA and Ed25519 keys are).
@discardableResult
public func SecCertificateCopyKey(_ certificate: SecCertificate) -> SecKey? {
    let family: KeyFamily
    switch certificate.fields.publicKeyAlgorithm {
    case "1.2.840.113549.1.1.1": family = .rsa
    case "1.2.840.10045.2.1": family = .ec
    case "1.3.101.112": family = .ed25519  // id-Ed25519 (RFC 8410): the key is the 32 bytes
    default: return nil
    }
    guard let material = try? KeyMaterial(externalRepresentation: certificate.fields.publicKeyBytes, family: family, isPrivate: false) else { return nil }
    return SecKey(material: material)
}

/// The public key of the trust's leaf certificate, whether or not the trust was evaluated or
/// would be trusted; nil when its type is not supported. As Apple's `SecTrustCopyKey`
/// (`SecTrust.c`), it is read from the leaf without evaluating and kept, so that every call
/// returns the same key object. (Apple evaluates only when the leaf alone gives no key, to take
/// it from the built chain, whose first certificate is that same leaf here.)
@discardableResult
public func SecTrustCopyKey(_ trust: SecTrust) -> SecKey? {
    trust.copyLeafKey()
}
#endif
