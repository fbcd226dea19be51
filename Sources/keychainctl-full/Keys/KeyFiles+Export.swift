import Foundation
import KeychainServices

/// The key forms `export` writes besides export-key's PKCS#8 and SubjectPublicKeyInfo (which
/// come from ``KeyFiles/write(_:encoding:)``, so both commands write the same bytes).
extension KeyFiles {
    /// What a key is, from its attributes, and its external representation.
    struct KeyFacts {
        let isPrivate: Bool
        let isRSA: Bool
        let isEd25519: Bool
        let bits: Int
        let external: [UInt8]
    }

    static func facts(_ key: SecKey) throws -> KeyFacts {
        let (attributes, external) = try exported(key)
        return KeyFacts(isPrivate: attributes[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassPrivate as String,
                        isRSA: attributes[kSecAttrKeyType as String] as? String == kSecAttrKeyTypeRSA as String,
                        isEd25519: attributes[kSecAttrKeyType as String] as? String == kSecAttrKeyTypeEd25519 as String,
                        bits: (attributes[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue ?? 0,
                        external: Array(external))
    }

    /// OpenSSL's traditional form and its PEM label: PKCS#1 `RSAPrivateKey` or SEC1
    /// `ECPrivateKey` for private keys; SubjectPublicKeyInfo for public keys, as `security`'s
    /// openssl format has them.
    static func traditional(_ key: SecKey) throws -> (der: [UInt8], label: String) {
        let facts = try facts(key)
        guard facts.isPrivate else { return (Array(try write(key, encoding: .der)), "PUBLIC KEY") }
        if facts.isRSA { return (facts.external, "RSA PRIVATE KEY") }
        // Ed25519 has no form older than PKCS#8 (RFC 8410) to encrypt the traditional way.
        if facts.isEd25519 { throw KeyFileError("an Ed25519 private key has no OpenSSL traditional form: use -f pkcs8") }
        guard let sec1 = ECPrivateKeyEncoding.sec1(x963: facts.external, bits: facts.bits) else {
            throw KeyFileError("the key's curve is not P-256, P-384 or P-521")
        }
        return (sec1, "EC PRIVATE KEY")
    }

    /// A private key's PKCS#8 PrivateKeyInfo, or a public key's SubjectPublicKeyInfo (DER).
    static func standard(_ key: SecKey) throws -> [UInt8] {
        Array(try write(key, encoding: .der))
    }
}
