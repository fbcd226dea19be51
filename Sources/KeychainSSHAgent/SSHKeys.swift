package import Foundation
package import KeychainServices
import Crypto
import KeychainCrypto
import _CryptoExtras

/// Key type names that are not a family of their own here.
package enum SSHKeyType {
    /// RFC 8709.
    package static let ed25519 = "ssh-ed25519"
    /// RFC 4253; also the name of its SHA-1 signature.
    package static let rsa = "ssh-rsa"

    /// Every key type the agent and the key file reader take.
    package static let all: Set<String> = Set([rsa, ed25519] + SSHCurve.allCases.map(\.keyType))
}

/// The NIST curves of the `ecdsa-sha2-*` key types (RFC 5656), with the hash each signs with.
package enum SSHCurve: String, CaseIterable, Sendable {
    case p256 = "nistp256"
    case p384 = "nistp384"
    case p521 = "nistp521"

    package var keyType: String { "ecdsa-sha2-\(rawValue)" }
    /// The length of one coordinate, and of the private scalar.
    var byteCount: Int {
        switch self {
        case .p256: return 32
        case .p384: return 48
        case .p521: return 66
        }
    }
    /// RFC 5656 section 6.2.1: the hash follows the curve's size.
    var signatureAlgorithm: SecKeyAlgorithm {
        switch self {
        case .p256: return .ecdsaSignatureMessageRFC4754SHA256
        case .p384: return .ecdsaSignatureMessageRFC4754SHA384
        case .p521: return .ecdsaSignatureMessageRFC4754SHA512
        }
    }

    static func forPoint(length: Int) -> SSHCurve? { allCases.first { 1 + 2 * $0.byteCount == length } }
}

/// A private key as ADD_IDENTITY carries it (OpenSSH's private key serialization, PROTOCOL.agent
/// and draft-miller-ssh-agent section 4.2). Only held for as long as it takes to make a keychain
/// item of it; never logged (its description says only the type).
package enum SSHPrivateKey: Equatable, Sendable, CustomStringConvertible {
    case ecdsa(SSHCurve, publicPoint: [UInt8], scalar: [UInt8])
    case rsa(n: [UInt8], e: [UInt8], d: [UInt8], iqmp: [UInt8], p: [UInt8], q: [UInt8])
    /// RFC 8032's 32-byte public key and 32-byte seed (OpenSSH sends the seed followed by the
    /// public key as the private part).
    case ed25519(publicKey: [UInt8], seed: [UInt8])

    package var description: String {
        switch self {
        case .ecdsa(let curve, _, _): return "<\(curve.keyType) private key>"
        case .rsa: return "<ssh-rsa private key>"
        case .ed25519: return "<\(SSHKeyType.ed25519) private key>"
        }
    }

    static func read(from reader: inout SSHWireReader) throws(SSHWireError) -> SSHPrivateKey {
        let type = try reader.readText()
        if type == SSHKeyType.ed25519 {
            let publicKey = try reader.readString()
            let secret = try reader.readString()
            guard publicKey.count == 32, secret.count == 64, Array(secret.suffix(32)) == publicKey else {
                throw .malformed("an Ed25519 key of the wrong size, or whose halves differ")
            }
            return .ed25519(publicKey: publicKey, seed: Array(secret.prefix(32)))
        }
        if type == SSHKeyType.rsa {
            return .rsa(n: try reader.readPositiveMPInt(), e: try reader.readPositiveMPInt(), d: try reader.readPositiveMPInt(),
                        iqmp: try reader.readPositiveMPInt(), p: try reader.readPositiveMPInt(), q: try reader.readPositiveMPInt())
        }
        guard let curve = SSHCurve.allCases.first(where: { $0.keyType == type }) else {
            throw .malformed("a key type this agent does not hold")
        }
        guard try reader.readText() == curve.rawValue else { throw .malformed("a curve that is not the key type's") }
        let point = try reader.readString()
        let scalar = try reader.readPositiveMPInt()
        guard point.count == 1 + 2 * curve.byteCount, point.first == 4, scalar.count <= curve.byteCount, !scalar.isEmpty else {
            throw .malformed("an EC key of the wrong size")
        }
        return .ecdsa(curve, publicPoint: point, scalar: scalar)
    }

    /// The key as a `SecKey` (in memory; the agent then stores it). Nil when the parts do not
    /// make a key: swift-crypto checks that an EC point is the scalar's and that the RSA parts fit.
    package func secKey() -> SecKey? {
        switch self {
        case .ed25519(let publicKey, let seed):
            // The public key sent must be the seed's: a mismatched pair would list one key and
            // sign with another.
            guard let key = SecKeyCreateWithData(Data(seed) as CFData,
                                                 [kSecAttrKeyType: kSecAttrKeyTypeEd25519,
                                                  kSecAttrKeyClass: kSecAttrKeyClassPrivate] as CFDictionary, nil),
                  let derived = SecKeyCopyPublicKey(key).flatMap({ SecKeyCopyExternalRepresentation($0, nil) as Data? }),
                  Array(derived) == publicKey else { return nil }
            return key
        case .ecdsa(let curve, let point, let scalar):
            let padded = [UInt8](repeating: 0, count: curve.byteCount - scalar.count) + scalar
            return SecKeyCreateWithData(Data(point + padded) as CFData,
                                        [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom,
                                         kSecAttrKeyClass: kSecAttrKeyClassPrivate] as CFDictionary, nil)
        case .rsa(let n, let e, let d, let iqmp, let p, let q):
            guard let der = Self.rsaPrivateKeyDER(n: n, e: e, d: d, iqmp: iqmp, p: p, q: q) else { return nil }
            return SecKeyCreateWithData(der as CFData,
                                        [kSecAttrKeyType: kSecAttrKeyTypeRSA,
                                         kSecAttrKeyClass: kSecAttrKeyClassPrivate] as CFDictionary, nil)
        }
    }
}

/// The SSH forms of a keychain key: its public key blob (RFC 4253 section 6.6, RFC 5656
/// section 3.1) and its signatures.
package enum SSHKeyEncoding {
    /// The public key blob of a key (private or public), or nil for a key SSH has no form for.
    package static func publicKeyBlob(of key: SecKey) -> [UInt8]? {
        guard let publicKey = SecKeyCopyPublicKey(key),
              let external = SecKeyCopyExternalRepresentation(publicKey, nil) as Data? else { return nil }
        var writer = SSHWireWriter()
        // The three forms cannot be taken for one another: an Ed25519 key is 32 bytes, an X9.63
        // point at least 65, a PKCS#1 RSAPublicKey a DER sequence of a far longer modulus.
        if external.count == 32 {
            writer.writeString(SSHKeyType.ed25519)
            writer.writeString(external)
        } else if let curve = SSHCurve.forPoint(length: external.count), external.first == 4 {
            writer.writeString(curve.keyType)
            writer.writeString(curve.rawValue)
            writer.writeString(external)
        } else if let (modulus, exponent) = rsaPublicParts(pkcs1: Array(external)) {
            writer.writeString(SSHKeyType.rsa)
            writer.writePositiveMPInt(exponent)
            writer.writePositiveMPInt(modulus)
        } else {
            return nil
        }
        return writer.bytes
    }

    /// The application label (`kSecAttrApplicationLabel`: the SHA-1 of the public key's bytes
    /// in Apple's external representation) of the key a public key blob stands for, or nil for
    /// a blob that does not parse as one of the key types held here.
    package static func applicationLabel(ofBlob blob: [UInt8]) -> Data? {
        var reader = SSHWireReader(blob)
        guard let type = try? reader.readText() else { return nil }
        let publicBytes: [UInt8]
        do {
            if type == SSHKeyType.ed25519 {
                publicBytes = try reader.readString()
            } else if type == SSHKeyType.rsa {
                let exponent = try reader.readPositiveMPInt(), modulus = try reader.readPositiveMPInt()
                publicBytes = Array(PKCS1DER.publicKey(modulus: Data(modulus), publicExponent: Data(exponent)))
            } else if let curve = SSHCurve.allCases.first(where: { $0.keyType == type }) {
                guard try reader.readText() == curve.rawValue else { return nil }
                publicBytes = try reader.readString()
            } else {
                return nil
            }
        } catch {
            return nil
        }
        guard reader.isAtEnd else { return nil }
        return Data(Insecure.SHA1.hash(data: publicBytes))
    }

    /// The key type name at the start of a blob.
    package static func keyType(ofBlob blob: [UInt8]) -> String? {
        var reader = SSHWireReader(blob)
        return try? reader.readText()
    }

    /// A signature blob for a sign request: the algorithm name, then the signature in its SSH
    /// form. RSA uses SHA-512 or SHA-256 when the flags ask (RFC 8332), else SHA-1 (`ssh-rsa`).
    /// Nil when the key cannot sign (the keychain refused: locked, or its access control).
    package static func signature(of data: [UInt8], with key: SecKey, flags: UInt32) -> [UInt8]? {
        guard let blob = publicKeyBlob(of: key), let type = keyType(ofBlob: blob) else { return nil }
        let name: String
        let algorithm: SecKeyAlgorithm
        if type == SSHKeyType.rsa {
            if flags & SSHSignatureFlags.rsaSHA512 != 0 {
                (name, algorithm) = ("rsa-sha2-512", .rsaSignatureMessagePKCS1v15SHA512)
            } else if flags & SSHSignatureFlags.rsaSHA256 != 0 {
                (name, algorithm) = ("rsa-sha2-256", .rsaSignatureMessagePKCS1v15SHA256)
            } else {
                (name, algorithm) = (SSHKeyType.rsa, .rsaSignatureMessagePKCS1v15SHA1)
            }
        } else if let curve = SSHCurve.allCases.first(where: { $0.keyType == type }) {
            (name, algorithm) = (curve.keyType, curve.signatureAlgorithm)
        } else if type == SSHKeyType.ed25519 {
            (name, algorithm) = (SSHKeyType.ed25519, .edDSASignatureMessageCurve25519SHA512)
        } else {
            return nil
        }
        guard let signed = SecKeyCreateSignature(key, algorithm, Data(data) as CFData, nil) as Data? else { return nil }
        var writer = SSHWireWriter()
        writer.writeString(name)
        if type == SSHKeyType.rsa || type == SSHKeyType.ed25519 {
            // RSA's signature, and Ed25519's 64 bytes (RFC 8709), go as they are.
            writer.writeString(signed)
        } else {
            // RFC 4754's r ‖ s, each one coordinate long, becomes RFC 5656's two mpints.
            let half = signed.count / 2
            var inner = SSHWireWriter()
            inner.writePositiveMPInt(signed.prefix(half))
            inner.writePositiveMPInt(signed.suffix(half))
            writer.writeString(inner.bytes)
        }
        return writer.bytes
    }

    /// The modulus and exponent of a PKCS #1 `RSAPublicKey` (a DER SEQUENCE of two INTEGERs).
    static func rsaPublicParts(pkcs1 der: [UInt8]) -> (modulus: [UInt8], exponent: [UInt8])? {
        guard let (sequence, _) = derElement(der[...], tag: 0x30),
              let (modulus, afterModulus) = derElement(sequence, tag: 0x02),
              let (exponent, rest) = derElement(afterModulus, tag: 0x02), rest.isEmpty else { return nil }
        return (Array(modulus), Array(exponent))
    }

    /// One DER element of the given tag at the start of `bytes`: its contents and what follows it.
    private static func derElement(_ bytes: ArraySlice<UInt8>, tag: UInt8) -> (ArraySlice<UInt8>, ArraySlice<UInt8>)? {
        var position = bytes.startIndex
        guard bytes.count >= 2, bytes[position] == tag else { return nil }
        var length = Int(bytes[position + 1])
        position += 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count >= 1, count <= 4, count <= bytes.endIndex - position else { return nil }
            length = bytes[position..<position + count].reduce(0) { $0 << 8 | Int($1) }
            position += count
        }
        guard length <= bytes.endIndex - position else { return nil }
        return (bytes[position..<position + length], bytes[(position + length)...])
    }
}
