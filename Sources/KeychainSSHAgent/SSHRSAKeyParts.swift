import Foundation
import KeychainCrypto
import _CryptoExtras

extension SSHPrivateKey {
    /// OpenSSH's smallest RSA key: its ssh-keygen and agent refuse shorter moduli.
    static let minimumRSABits = 1024

    /// The PKCS #1 RSAPrivateKey of OpenSSH's RSA parts (n, e, d, iqmp, p, q: no CRT exponents).
    /// swift-crypto computes and checks the missing parts itself for keys of 2048 bits or more;
    /// for 1024 to 2047 bits, which its checked initialiser refuses but OpenSSH's agent takes,
    /// they are computed here and every part checked to fit the others (KeychainCrypto's
    /// ``RSAPrivateNumbers``). Nil when the parts do not make a key, or it is too short.
    static func rsaPrivateKeyDER(n: [UInt8], e: [UInt8], d: [UInt8], iqmp: [UInt8], p: [UInt8], q: [UInt8]) -> Data? {
        if let key = try? _RSA.Signing.PrivateKey(n: n, e: e, d: d, p: p, q: q) { return key.derRepresentation }
        let modulus = NaturalNumber(bigEndian: Data(n)), privateExponent = NaturalNumber(bigEndian: Data(d))
        let prime1 = NaturalNumber(bigEndian: Data(p)), prime2 = NaturalNumber(bigEndian: Data(q))
        let one = NaturalNumber(1)
        guard modulus.bitCount >= minimumRSABits, modulus.bitCount < 2048, one < prime1, one < prime2 else { return nil }
        guard let numbers = try? RSAPrivateNumbers(
            modulus: modulus, publicExponent: NaturalNumber(bigEndian: Data(e)), privateExponent: privateExponent,
            prime1: prime1, prime2: prime2,
            exponent1: privateExponent.modulo(prime1 - one), exponent2: privateExponent.modulo(prime2 - one),
            coefficient: NaturalNumber(bigEndian: Data(iqmp))) else { return nil }
        let integers = [NaturalNumber(limbs: []), numbers.modulus, numbers.publicExponent, numbers.privateExponent,
                        numbers.prime1, numbers.prime2, numbers.exponent1, numbers.exponent2, numbers.coefficient]
        return Data(DERWriter.sequence(integers.flatMap { DERWriter.integer($0.minimalBigEndian) }))
    }
}

/// The two DER forms an RSAPrivateKey needs: INTEGER and SEQUENCE (X.690 §8.3, §8.9).
enum DERWriter {
    /// A non-negative INTEGER from its big-endian magnitude: a zero byte goes in front when the
    /// top bit is set, so that it does not read as negative.
    static func integer(_ magnitude: Data) -> [UInt8] {
        var contents = Array(magnitude.drop { $0 == 0 })
        if contents.first.map({ $0 & 0x80 != 0 }) ?? true { contents.insert(0, at: 0) }
        return [0x02] + length(contents.count) + contents
    }

    static func sequence(_ contents: [UInt8]) -> [UInt8] { [0x30] + length(contents.count) + contents }

    /// Definite length: one byte below 128, else 0x80 + the count of big-endian length bytes.
    private static func length(_ count: Int) -> [UInt8] {
        guard count >= 0x80 else { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 { bytes.insert(UInt8(rest & 0xFF), at: 0); rest >>= 8 }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
