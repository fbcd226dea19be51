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
        return PKCS1DER.privateKey(numbers)
    }
}
