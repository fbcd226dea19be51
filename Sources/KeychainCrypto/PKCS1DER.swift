package import Foundation

/// The PKCS #1 structures of RSA keys (RFC 8017 §A.1) in DER, written from the numbers: the
/// forms SecKey exports and swift-crypto imports, made here for keys built from parts (an SSH
/// agent's RSA parts, keys below swift-crypto's floor).
package enum PKCS1DER {
    /// RSAPrivateKey, two-prime, version 0.
    package static func privateKey(_ numbers: RSAPrivateNumbers) -> Data {
        let integers = [NaturalNumber(limbs: []), numbers.modulus, numbers.publicExponent, numbers.privateExponent,
                        numbers.prime1, numbers.prime2, numbers.exponent1, numbers.exponent2, numbers.coefficient]
        return Data(sequence(integers.flatMap { integer($0.minimalBigEndian) }))
    }

    /// RSAPublicKey from the big-endian modulus and public exponent.
    package static func publicKey(modulus: Data, publicExponent: Data) -> Data {
        Data(sequence(integer(modulus) + integer(publicExponent)))
    }

    /// A non-negative INTEGER (X.690 §8.3) from its big-endian magnitude: leading zero bytes are
    /// dropped, and one zero byte goes in front when the top bit is set, so that it does not read
    /// as negative.
    static func integer(_ magnitude: Data) -> [UInt8] {
        var contents = Array(magnitude.drop { $0 == 0 })
        if contents.first.map({ $0 & 0x80 != 0 }) ?? true { contents.insert(0, at: 0) }
        return [0x02] + length(contents.count) + contents
    }

    /// A SEQUENCE (X.690 §8.9) of already encoded contents.
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
