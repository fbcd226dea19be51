#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import _CryptoExtras
import Foundation

/// A PKCS#8 PrivateKeyInfo from a PKCS#12 key bag as a `SecKey`: EC keys on P-256/384/521 and
/// RSA keys, read by swift-crypto (which takes PKCS#8 DER), the way `SecPKCS12Import`'s
/// `build_trust_chains` (`SecImportExport.c`) turns the bag into a key. Any other algorithm
/// (Ed25519, DSA…) is nil, which the importer reports as `errSecDecode`, as Apple's does.
enum PKCS8PrivateKey {
    static func key(_ der: Data) -> SecKey? {
        let material: KeyMaterial?
        if let key = try? P256.Signing.PrivateKey(derRepresentation: der) {
            material = try? KeyMaterial(externalRepresentation: key.x963Representation, family: .ec, isPrivate: true)
        } else if let key = try? P384.Signing.PrivateKey(derRepresentation: der) {
            material = try? KeyMaterial(externalRepresentation: key.x963Representation, family: .ec, isPrivate: true)
        } else if let key = try? P521.Signing.PrivateKey(derRepresentation: der) {
            material = try? KeyMaterial(externalRepresentation: key.x963Representation, family: .ec, isPrivate: true)
        } else if let key = try? _RSA.Signing.PrivateKey(unsafeDERRepresentation: der) {
            material = .rsaPrivate(key)
        } else {
            material = nil
        }
        return material.map { SecKey(material: $0) }
    }
}
#endif
