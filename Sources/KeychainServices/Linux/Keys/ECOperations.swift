#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import Foundation
import KeychainCrypto

/// A digest the caller computed, handed to swift-crypto's ECDSA, which signs whatever bytes a
/// `Digest` holds (truncated to the curve's order as ECDSA prescribes). Apple's "digest"
/// algorithms take such bytes; the nominal `byteCount` is not used by ECDSA.
struct PrecomputedDigest: Digest {
    static var byteCount: Int { 0 }
    let bytes: [UInt8]

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try bytes.withUnsafeBytes(body) }
    func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
    var description: String { "digest (\(bytes.count) bytes)" }
}

/// ECDSA and ECDH with swift-crypto's P-256, P-384 and P-521, and ECIES: KeychainCrypto's scheme
/// over this ECDH.
enum ECOperations {
    /// The bytes ECDSA signs: the message's hash, or the caller's digest (of the named hash's
    /// length when the algorithm names one; Security's digest adaptors refuse any other length).
    static func digest(_ input: SignatureInput, _ data: Data) throws(KeyError) -> PrecomputedDigest {
        switch input {
        case .message(let hash):
            return PrecomputedDigest(bytes: [UInt8](hash.hash(data)))
        case .digest(let hash):
            if let hash, data.count != hash.byteCount {
                throw .parameter("the digest is \(data.count) bytes; \(hash.rawValue) digests are \(hash.byteCount)")
            }
            return PrecomputedDigest(bytes: [UInt8](data))
        }
    }

    static func sign(_ key: ECPrivateKey, der: Bool, input: SignatureInput, _ data: Data) throws(KeyError) -> Data {
        let digest = try digest(input, data)
        do {
            switch key {
            case .p256(let k):
                let s = try k.signature(for: digest)
                return der ? s.derRepresentation : s.rawRepresentation
            case .p384(let k):
                let s = try k.signature(for: digest)
                return der ? s.derRepresentation : s.rawRepresentation
            case .p521(let k):
                let s = try k.signature(for: digest)
                return der ? s.derRepresentation : s.rawRepresentation
            }
        } catch {
            throw KeyError(errSecParam, "ECDSA signing failed")
        }
    }

    /// Whether the signature is valid. A signature that cannot be read at all is invalid too
    /// (errSecVerifyFailed), except an RFC 4754 signature of the wrong size, which Security
    /// reports as errSecParam (SecECKey.m).
    static func verify(_ key: ECPublicKey, der: Bool, input: SignatureInput, _ data: Data, _ signature: Data) throws(KeyError) -> Bool {
        let digest = try digest(input, data)
        if !der && signature.count != 2 * key.curve.byteCount {
            throw .parameter("an RFC 4754 signature on this curve is \(2 * key.curve.byteCount) bytes, not \(signature.count)")
        }
        switch key {
        case .p256(let k):
            guard let s = try? (der ? P256.Signing.ECDSASignature(derRepresentation: signature) : P256.Signing.ECDSASignature(rawRepresentation: signature)) else { return false }
            return k.isValidSignature(s, for: digest)
        case .p384(let k):
            guard let s = try? (der ? P384.Signing.ECDSASignature(derRepresentation: signature) : P384.Signing.ECDSASignature(rawRepresentation: signature)) else { return false }
            return k.isValidSignature(s, for: digest)
        case .p521(let k):
            guard let s = try? (der ? P521.Signing.ECDSASignature(derRepresentation: signature) : P521.Signing.ECDSASignature(rawRepresentation: signature)) else { return false }
            return k.isValidSignature(s, for: digest)
        }
    }

    /// The ECDH shared secret (the x-coordinate of the shared point), as long as a coordinate.
    /// Cofactor ECDH is the same computation: the NIST prime curves have cofactor 1.
    static func sharedSecret(_ ours: ECPrivateKey, _ theirs: ECPublicKey) throws(KeyError) -> Data {
        do {
            let secret: SharedSecret
            switch (ours, theirs) {
            case (.p256(let a), .p256(let b)):
                secret = try P256.KeyAgreement.PrivateKey(rawRepresentation: a.rawRepresentation)
                    .sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(rawRepresentation: b.rawRepresentation))
            case (.p384(let a), .p384(let b)):
                secret = try P384.KeyAgreement.PrivateKey(rawRepresentation: a.rawRepresentation)
                    .sharedSecretFromKeyAgreement(with: P384.KeyAgreement.PublicKey(rawRepresentation: b.rawRepresentation))
            case (.p521(let a), .p521(let b)):
                secret = try P521.KeyAgreement.PrivateKey(rawRepresentation: a.rawRepresentation)
                    .sharedSecretFromKeyAgreement(with: P521.KeyAgreement.PublicKey(rawRepresentation: b.rawRepresentation))
            default:
                throw KeyError.parameter("the keys are on different curves")
            }
            return secret.withUnsafeBytes { Data($0) }
        } catch let error as KeyError {
            throw error
        } catch {
            throw KeyError(errSecDecode, "the key agreement failed")
        }
    }

    /// Apple's ECIES to `recipient`, from a fresh ephemeral key (``ECIES`` says the scheme).
    static func eciesEncrypt(_ plaintext: Data, to recipient: ECPublicKey, hash: HashName, variableIV: Bool) throws(KeyError) -> Data {
        let ephemeral = ECPrivateKey(generating: recipient.curve)
        let secret = try sharedSecret(ephemeral, recipient)
        return try KeyError.catching { () throws(PrimitiveError) in
            try ECIES.seal(plaintext, ephemeralPublicKey: ephemeral.publicKey.x963, sharedSecret: secret,
                           curveBits: recipient.curve.bits, hash: hash, variableIV: variableIV)
        }
    }

    /// Apple's ECIES decryption with our key.
    static func eciesDecrypt(_ data: Data, with key: ECPrivateKey, hash: HashName, variableIV: Bool) throws(KeyError) -> Data {
        let bits = key.curve.bits
        let point = try KeyError.catching { () throws(PrimitiveError) in try ECIES.ephemeralPublicKey(in: data, curveBits: bits) }
        let secret = try sharedSecret(key, try ECPublicKey(x963: point))
        return try KeyError.catching { () throws(PrimitiveError) in
            try ECIES.open(data, sharedSecret: secret, curveBits: bits, hash: hash, variableIV: variableIV)
        }
    }
}
#endif
