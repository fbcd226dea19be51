import ArgumentParser
import Crypto
import _CryptoExtras
import Foundation
import KeychainServices

/// Key files as other tools write them: PKCS#8 and SubjectPublicKeyInfo (PEM or DER) by default,
/// and also read PKCS#1 RSA and SEC1 EC keys. The conversion goes through swift-crypto's key
/// types; the keychain holds Apple's external representations (X9.63, PKCS#1).
enum KeyFiles {
    /// A key file's text as swift-crypto reads it: PEM, or DER given as bytes.
    enum Encoding: String, ExpressibleByArgument, CaseIterable { case pem, der }

    /// A key's attributes and external representation, or the reason SecKey gives for refusing
    /// it (a key stored not extractable, such as an SSH key, is refused).
    static func exported(_ key: SecKey) throws -> (attributes: [String: Any], external: Data) {
        var error: Unmanaged<CFError>?
        guard let external = SecKeyCopyExternalRepresentation(key, &error) as Data? else {
            let reason = error.map { CFErrorCopyDescription($0.takeRetainedValue()) as String } ?? "no reason given"
            throw KeyFileError("the key cannot be exported: \(reason)")
        }
        guard let attributes = SecKeyCopyAttributes(key) as? [String: Any] else { throw KeyFileError("the key has no attributes") }
        return (attributes, external)
    }

    /// The file form of a keychain key.
    static func write(_ key: SecKey, encoding: Encoding) throws -> Data {
        let (attributes, external) = try exported(key)
        let isRSA = attributes[kSecAttrKeyType as String] as? String == kSecAttrKeyTypeRSA as String
        let isPrivate = attributes[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassPrivate as String
        let bits = (attributes[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue ?? 0
        let (pem, der): (String, Data)
        if attributes[kSecAttrKeyType as String] as? String == kSecAttrKeyTypeEd25519 as String {
            der = (isPrivate ? Ed25519KeyInfo.privatePrefix : Ed25519KeyInfo.publicPrefix) + external
            pem = Ed25519KeyInfo.pem(der, isPrivate: isPrivate)
        } else if isRSA {
            if isPrivate {
                let rsa = try _RSA.Signing.PrivateKey(unsafeDERRepresentation: external)
                (pem, der) = (rsa.pkcs8PEMRepresentation, rsa.pkcs8DERRepresentation)
            } else {
                let rsa = try _RSA.Signing.PublicKey(unsafeDERRepresentation: external)
                (pem, der) = (rsa.pemRepresentation, rsa.derRepresentation)
            }
        } else {
            switch (bits, isPrivate) {
            case (256, true): let k = try P256.Signing.PrivateKey(x963Representation: external); (pem, der) = (k.pemRepresentation, k.derRepresentation)
            case (384, true): let k = try P384.Signing.PrivateKey(x963Representation: external); (pem, der) = (k.pemRepresentation, k.derRepresentation)
            case (521, true): let k = try P521.Signing.PrivateKey(x963Representation: external); (pem, der) = (k.pemRepresentation, k.derRepresentation)
            case (256, false): let k = try P256.Signing.PublicKey(x963Representation: external); (pem, der) = (k.pemRepresentation, k.derRepresentation)
            case (384, false): let k = try P384.Signing.PublicKey(x963Representation: external); (pem, der) = (k.pemRepresentation, k.derRepresentation)
            case (521, false): let k = try P521.Signing.PublicKey(x963Representation: external); (pem, der) = (k.pemRepresentation, k.derRepresentation)
            default: throw KeyFileError("the key's curve is not P-256, P-384 or P-521")
            }
        }
        return encoding == .pem ? Data(pem.utf8) : der
    }

    /// Reads a key file into Apple's external representation and the attributes
    /// SecKeyCreateWithData needs. Tries each kind of key in turn.
    static func read(_ data: Data) throws -> (external: Data, type: CFString, keyClass: CFString) {
        let text = String(data: data, encoding: .utf8).flatMap { $0.contains("-----BEGIN") ? $0 : nil }
        func attempt<T>(_ pem: (String) throws -> T, _ der: (Data) throws -> T) -> T? {
            if let text { return try? pem(text) }
            return try? der(data)
        }
        let ec = kSecAttrKeyTypeECSECPrimeRandom, rsa = kSecAttrKeyTypeRSA
        let privateClass = kSecAttrKeyClassPrivate, publicClass = kSecAttrKeyClassPublic
        if let k = attempt(P256.Signing.PrivateKey.init(pemRepresentation:), P256.Signing.PrivateKey.init(derRepresentation:)) { return (k.x963Representation, ec, privateClass) }
        if let k = attempt(P384.Signing.PrivateKey.init(pemRepresentation:), P384.Signing.PrivateKey.init(derRepresentation:)) { return (k.x963Representation, ec, privateClass) }
        if let k = attempt(P521.Signing.PrivateKey.init(pemRepresentation:), P521.Signing.PrivateKey.init(derRepresentation:)) { return (k.x963Representation, ec, privateClass) }
        if let k = attempt(P256.Signing.PublicKey.init(pemRepresentation:), P256.Signing.PublicKey.init(derRepresentation:)) { return (k.x963Representation, ec, publicClass) }
        if let k = attempt(P384.Signing.PublicKey.init(pemRepresentation:), P384.Signing.PublicKey.init(derRepresentation:)) { return (k.x963Representation, ec, publicClass) }
        if let k = attempt(P521.Signing.PublicKey.init(pemRepresentation:), P521.Signing.PublicKey.init(derRepresentation:)) { return (k.x963Representation, ec, publicClass) }
        if let k = attempt(_RSA.Signing.PrivateKey.init(unsafePEMRepresentation:), _RSA.Signing.PrivateKey.init(unsafeDERRepresentation:)) { return (k.derRepresentation, rsa, privateClass) }
        if let k = attempt(_RSA.Signing.PublicKey.init(unsafePEMRepresentation:), _RSA.Signing.PublicKey.init(unsafeDERRepresentation:)) { return (k.pkcs1DERRepresentation, rsa, publicClass) }
        if let (raw, isPrivate) = Ed25519KeyInfo.read(data) {
            return (raw, kSecAttrKeyTypeEd25519, isPrivate ? privateClass : publicClass)
        }
        throw KeyFileError("the file holds no EC (P-256, P-384, P-521), RSA or Ed25519 key in PKCS#8, PKCS#1, SEC1 or SubjectPublicKeyInfo form")
    }
}

struct KeyFileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
