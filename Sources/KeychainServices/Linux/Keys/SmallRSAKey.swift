#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainCrypto
import SwiftASN1

/// The RSA sizes below swift-crypto's floor that SecKey holds with KeychainCrypto's own numbers
/// (``RSAPrivateNumbers``): from Security's smallest generated size (SecRSAKey.c) up to the
/// 1024 bits from which `_RSA` takes every key.
enum SmallRSA {
    static let sizes = 512..<1024
}

/// An RSA private key of a size swift-crypto refuses (``SmallRSA/sizes``).
struct SmallRSAPrivateKey: Sendable {
    let numbers: RSAPrivateNumbers

    var publicKey: SmallRSAPublicKey { SmallRSAPublicKey(modulus: numbers.modulus, publicExponent: numbers.publicExponent) }

    /// PKCS #1 RSAPrivateKey (RFC 8017 §A.1.2), version 0, as Security exports it.
    var derRepresentation: Data { PKCS1DER.privateKey(numbers) }

    /// Reads an RSAPrivateKey (two-prime, version 0) whose numbers fit together; nil otherwise.
    init?(der data: Data) {
        guard let fields = SmallRSA.integers(data), fields.count == 9, fields[0] == NaturalNumber(limbs: []),
              let numbers = try? RSAPrivateNumbers(modulus: fields[1], publicExponent: fields[2], privateExponent: fields[3],
                                                   prime1: fields[4], prime2: fields[5], exponent1: fields[6],
                                                   exponent2: fields[7], coefficient: fields[8]) else { return nil }
        self.numbers = numbers
    }

    init(numbers: RSAPrivateNumbers) { self.numbers = numbers }
}

/// The public half of a ``SmallRSAPrivateKey``.
struct SmallRSAPublicKey: Sendable {
    let modulus: NaturalNumber
    let publicExponent: NaturalNumber

    var bitCount: Int { modulus.bitCount }

    /// PKCS #1 RSAPublicKey (RFC 8017 §A.1.1).
    var derRepresentation: Data {
        PKCS1DER.publicKey(modulus: modulus.minimalBigEndian, publicExponent: publicExponent.minimalBigEndian)
    }

    /// Reads an RSAPublicKey with an odd modulus and an odd exponent between 1 and the modulus.
    init?(der data: Data) {
        guard let fields = SmallRSA.integers(data), fields.count == 2 else { return nil }
        self.init(modulus: fields[0], publicExponent: fields[1])
        guard modulus.isOdd, publicExponent.isOdd, NaturalNumber(1) < publicExponent, publicExponent < modulus else { return nil }
    }

    init(modulus: NaturalNumber, publicExponent: NaturalNumber) {
        self.modulus = modulus
        self.publicExponent = publicExponent
    }

    func publicOperation(_ block: Data) throws(PrimitiveError) -> Data {
        try RSARaw.publicOperation(modulus: modulus.minimalBigEndian, exponent: publicExponent.minimalBigEndian, block)
    }
}

extension SmallRSA {
    /// The non-negative INTEGERs of one DER SEQUENCE, with nothing after it; nil for anything else.
    static func integers(_ data: Data) -> [NaturalNumber]? {
        do {
            let root = try DER.parse([UInt8](data))
            return try DER.sequence(root, identifier: .sequence) { nodes in
                var values: [NaturalNumber] = []
                while let node = nodes.next() {
                    let bytes = try ArraySlice<UInt8>(derEncoded: node)
                    values.append(NaturalNumber(bigEndian: Data(bytes)))
                }
                return values
            }
        } catch {
            return nil
        }
    }
}
#endif
