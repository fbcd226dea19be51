#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import _CryptoExtras
import Foundation

/// The NIST prime curves a SecKey may be on (Apple's `kSecAttrKeyTypeECSECPrimeRandom`; P-192 and
/// P-224, which Apple still reads, have no implementation in swift-crypto).
enum ECCurve: Sendable, CaseIterable {
    case p256, p384, p521

    init?(bits: Int) {
        switch bits {
        case 256: self = .p256
        case 384: self = .p384
        case 521: self = .p521
        default: return nil
        }
    }

    var bits: Int {
        switch self {
        case .p256: return 256
        case .p384: return 384
        case .p521: return 521
        }
    }

    /// Bytes of one coordinate or scalar.
    var byteCount: Int { (bits + 7) / 8 }

    /// The curve of an X9.63 public (`04 ‖ X ‖ Y`) or private (`04 ‖ X ‖ Y ‖ K`) representation,
    /// from its length, as Security's `getCPForPublicSize`/`getCPForPrivateSize` do.
    static func of(x963Length length: Int, isPrivate: Bool) -> ECCurve? {
        allCases.first { 1 + $0.byteCount * (isPrivate ? 3 : 2) == length }
    }
}

/// An EC private key on one of the curves.
enum ECPrivateKey: Sendable {
    case p256(P256.Signing.PrivateKey)
    case p384(P384.Signing.PrivateKey)
    case p521(P521.Signing.PrivateKey)

    /// A new key: a scalar drawn uniformly from [1, n − 1] with the system's random generator
    /// (rejection sampling: a draw at or above the order, or zero, is drawn again), and its
    /// public point computed by BoringSSL from it.
    ///
    /// Not swift-crypto's `init()`, which by default draws again until the key is "compact
    /// representable" (a CryptoKit format SecKey keys do not promise) and runs BoringSSL's FIPS
    /// pairwise test (an ECDSA signature made and verified) on every draw: together those were
    /// nearly all the instructions of generating a P-256 key
    /// (Benchmarks/notes/2026-11-25-key-creation-instructions.md).
    /// The key is as random and as valid: the scalar comes from the same generator, and BoringSSL
    /// refuses a scalar outside [1, n − 1] when it is set.
    init(generating curve: ECCurve) {
        while true {
            var scalar = SymmetricKey(size: .init(bitCount: curve.byteCount * 8)).withUnsafeBytes { Data($0) }
            // P-521's scalar has 521 bits in 66 bytes: the top byte keeps its lowest bit only, so
            // that draws fall below 2^521 and are rarely refused.
            if curve == .p521 { scalar[scalar.startIndex] &= 0x01 }
            do {
                switch curve {
                case .p256: self = .p256(try P256.Signing.PrivateKey(rawRepresentation: scalar))
                case .p384: self = .p384(try P384.Signing.PrivateKey(rawRepresentation: scalar))
                case .p521: self = .p521(try P521.Signing.PrivateKey(rawRepresentation: scalar))
                }
                return
            } catch {
                continue // zero or not below the order: draw again (probability below 2^-32)
            }
        }
    }

    init(x963 data: Data) throws(KeyError) {
        guard let curve = ECCurve.of(x963Length: data.count, isPrivate: true), data.first == 4 else {
            throw KeyError(errSecDecode, "the EC private key data is not an X9.63 key on P-256, P-384 or P-521")
        }
        do {
            switch curve {
            case .p256: self = .p256(try P256.Signing.PrivateKey(x963Representation: data))
            case .p384: self = .p384(try P384.Signing.PrivateKey(x963Representation: data))
            case .p521: self = .p521(try P521.Signing.PrivateKey(x963Representation: data))
            }
        } catch {
            throw KeyError(errSecDecode, "the EC private key data is not a valid key")
        }
    }

    var curve: ECCurve {
        switch self {
        case .p256: return .p256
        case .p384: return .p384
        case .p521: return .p521
        }
    }

    var x963: Data {
        switch self {
        case .p256(let key): return key.x963Representation
        case .p384(let key): return key.x963Representation
        case .p521(let key): return key.x963Representation
        }
    }

    /// The private scalar, big-endian, one coordinate long.
    var scalar: Data {
        switch self {
        case .p256(let key): return key.rawRepresentation
        case .p384(let key): return key.rawRepresentation
        case .p521(let key): return key.rawRepresentation
        }
    }

    var publicKey: ECPublicKey {
        switch self {
        case .p256(let key): return .p256(key.publicKey)
        case .p384(let key): return .p384(key.publicKey)
        case .p521(let key): return .p521(key.publicKey)
        }
    }
}

/// An EC public key on one of the curves.
enum ECPublicKey: Sendable {
    case p256(P256.Signing.PublicKey)
    case p384(P384.Signing.PublicKey)
    case p521(P521.Signing.PublicKey)

    init(x963 data: Data) throws(KeyError) {
        guard let curve = ECCurve.of(x963Length: data.count, isPrivate: false), data.first == 4 else {
            throw KeyError(errSecDecode, "the EC public key data is not an uncompressed X9.63 point on P-256, P-384 or P-521")
        }
        do {
            switch curve {
            case .p256: self = .p256(try P256.Signing.PublicKey(x963Representation: data))
            case .p384: self = .p384(try P384.Signing.PublicKey(x963Representation: data))
            case .p521: self = .p521(try P521.Signing.PublicKey(x963Representation: data))
            }
        } catch {
            throw KeyError(errSecDecode, "the EC public key data is not a point on its curve")
        }
    }

    var curve: ECCurve {
        switch self {
        case .p256: return .p256
        case .p384: return .p384
        case .p521: return .p521
        }
    }

    var x963: Data {
        switch self {
        case .p256(let key): return key.x963Representation
        case .p384(let key): return key.x963Representation
        case .p521(let key): return key.x963Representation
        }
    }
}

/// The kinds of key a SecKey may be, named by their `kSecAttrKeyType` numbers (SecItem.h and
/// SecKeyPriv.h: RSA 42, EC 73, Ed25519 105).
enum KeyFamily: Int, Sendable {
    case rsa = 42
    case ec = 73
    case ed25519 = 105
}

/// A key's material: which algorithm, which half.
enum KeyMaterial: Sendable {
    case ecPrivate(ECPrivateKey)
    case ecPublic(ECPublicKey)
    case rsaPrivate(_RSA.Signing.PrivateKey)
    case rsaPublic(_RSA.Signing.PublicKey)
    /// An RSA key below swift-crypto's 1024-bit floor, held with KeychainCrypto's numbers
    /// (``SmallRSA``).
    case rsaSmallPrivate(SmallRSAPrivateKey)
    case rsaSmallPublic(SmallRSAPublicKey)
    /// An Ed25519 key (Apple's `kSecAttrKeyTypeEd25519`), held by swift-crypto's Curve25519.
    case ed25519Private(Curve25519.Signing.PrivateKey)
    case ed25519Public(Curve25519.Signing.PublicKey)

    var isPrivate: Bool {
        switch self {
        case .ecPrivate, .rsaPrivate, .rsaSmallPrivate, .ed25519Private: return true
        case .ecPublic, .rsaPublic, .rsaSmallPublic, .ed25519Public: return false
        }
    }

    var family: KeyFamily {
        switch self {
        case .rsaPrivate, .rsaPublic, .rsaSmallPrivate, .rsaSmallPublic: return .rsa
        case .ecPrivate, .ecPublic: return .ec
        case .ed25519Private, .ed25519Public: return .ed25519
        }
    }

    var isRSA: Bool { family == .rsa }

    /// The `kSecAttrKeyType` value: "42" for RSA, "73" for EC (Apple reports EC keys as
    /// kSecAttrKeyTypeECSECPrimeRandom whichever name made them), "105" for Ed25519.
    var keyType: Int { family.rawValue }

    var algorithmName: String {
        switch family {
        case .rsa: return "RSA"
        case .ec: return "EC"
        case .ed25519: return "Ed25519"
        }
    }

    var sizeInBits: Int {
        switch self {
        case .ecPrivate(let key): return key.curve.bits
        case .ecPublic(let key): return key.curve.bits
        case .rsaPrivate(let key): return key.keySizeInBits
        case .rsaPublic(let key): return key.keySizeInBits
        case .rsaSmallPrivate(let key): return key.numbers.bitCount
        case .rsaSmallPublic(let key): return key.bitCount
        case .ed25519Private, .ed25519Public: return 256
        }
    }

    /// `SecKeyGetBlockSize`: the modulus length for RSA; for EC the length of one field
    /// element (`ccec_ctx_size` in Security's SecECKey.m); for Ed25519 the key's 32 bytes.
    var blockSize: Int { (sizeInBits + 7) / 8 }

    var publicMaterial: KeyMaterial {
        switch self {
        case .ecPrivate(let key): return .ecPublic(key.publicKey)
        case .rsaPrivate(let key): return .rsaPublic(key.publicKey)
        case .rsaSmallPrivate(let key): return .rsaSmallPublic(key.publicKey)
        case .ed25519Private(let key): return .ed25519Public(key.publicKey)
        case .ecPublic, .rsaPublic, .rsaSmallPublic, .ed25519Public: return self
        }
    }

    /// Apple's external representation: X9.63 for EC (`04 ‖ X ‖ Y`, then `K` for a private
    /// key), PKCS#1 DER for RSA (RSAPrivateKey or RSAPublicKey); for Ed25519 the raw 32 bytes
    /// of RFC 8032 (the private key's seed, or the public key), as CryptoKit's
    /// `rawRepresentation` has them.
    var externalRepresentation: Data {
        switch self {
        case .ecPrivate(let key): return key.x963
        case .ecPublic(let key): return key.x963
        case .rsaPrivate(let key): return key.derRepresentation
        case .rsaPublic(let key): return key.pkcs1DERRepresentation
        case .rsaSmallPrivate(let key): return key.derRepresentation
        case .rsaSmallPublic(let key): return key.derRepresentation
        case .ed25519Private(let key): return key.rawRepresentation
        case .ed25519Public(let key): return key.rawRepresentation
        }
    }

    /// The public key's bytes (X9.63 point, PKCS#1 RSAPublicKey, or Ed25519's 32 bytes).
    var publicKeyBytes: Data { publicMaterial.externalRepresentation }

    /// `kSecAttrApplicationLabel`: the SHA-1 of the public key's bytes, as Security computes it
    /// (`SecKeyCopyPublicKeyHash` in SecKey.m).
    var applicationLabel: Data { Self.applicationLabel(of: publicKeyBytes) }

    /// The application label of a public key's bytes.
    static func applicationLabel(of publicKeyBytes: Data) -> Data { Data(Insecure.SHA1.hash(data: publicKeyBytes)) }

    /// Reads an external representation of the given type and class.
    init(externalRepresentation data: Data, family: KeyFamily, isPrivate: Bool) throws(KeyError) {
        switch family {
        case .ec:
            self = isPrivate ? .ecPrivate(try ECPrivateKey(x963: data)) : .ecPublic(try ECPublicKey(x963: data))
            return
        case .ed25519:
            guard data.count == 32 else { throw KeyError(errSecDecode, "the Ed25519 key data is not 32 bytes") }
            do {
                self = isPrivate ? .ed25519Private(try Curve25519.Signing.PrivateKey(rawRepresentation: data))
                    : .ed25519Public(try Curve25519.Signing.PublicKey(rawRepresentation: data))
            } catch {
                throw KeyError(errSecDecode, "the Ed25519 key data is not a valid key")
            }
            return
        case .rsa:
            break
        }
        do {
            if isPrivate {
                // PKCS#1 RSAPrivateKey; the unsafe initialiser admits the 1024-bit keys Apple reads.
                let key = try _RSA.Signing.PrivateKey(unsafeDERRepresentation: data)
                self = .rsaPrivate(key)
            } else {
                self = .rsaPublic(try _RSA.Signing.PublicKey(unsafeDERRepresentation: data))
            }
        } catch {
            // What swift-crypto refuses may be a key below its 1024-bit floor, which Security
            // reads (SecRSAKey.c): those, and only those, are held with our own numbers.
            if isPrivate, let key = SmallRSAPrivateKey(der: data), SmallRSA.sizes.contains(key.numbers.bitCount) {
                self = .rsaSmallPrivate(key)
            } else if !isPrivate, let key = SmallRSAPublicKey(der: data), SmallRSA.sizes.contains(key.bitCount) {
                self = .rsaSmallPublic(key)
            } else {
                throw KeyError(errSecDecode, "the RSA key data is not a PKCS#1 \(isPrivate ? "RSAPrivateKey" : "RSAPublicKey")")
            }
        }
    }
}

/// A key's bytes that take work to derive, kept by its ``SecKey`` once computed.
struct DerivedKeyBytes: Sendable {
    let externalRepresentation: Data
    let applicationLabel: Data
}
#endif
