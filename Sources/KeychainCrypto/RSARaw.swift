package import _CryptoExtras
package import Foundation

/// Unpadded RSA, which swift-crypto does not offer as such: the private operation (m^d mod n) is
/// its blind-signing primitive (BoringSSL's `RSA_sign_raw` without padding, with its blinding);
/// the public operation (s^e mod n) is computed here, on public values only, with
/// ``NaturalNumber``. Over these sit the paddings of Apple's "digest" and "raw" RSA algorithms
/// (``RSAPadding``) and our OAEP (``RSAOAEP``).
package enum RSARaw {
    /// m^d mod n for a block as long as the modulus (shorter input is left-padded with zeros);
    /// a parameter error when the value is not below the modulus.
    package static func privateOperation(_ key: _RSA.Signing.PrivateKey, _ block: Data) throws(PrimitiveError) -> Data {
        let size = (key.keySizeInBits + 7) / 8
        guard block.count <= size else { throw .parameter("the input is longer than the RSA modulus") }
        let padded = Data(count: size - block.count) + block
        do {
            let raw = try _RSA.BlindSigning.PrivateKey(unsafeDERRepresentation: key.derRepresentation)
            return try raw.blindSignature(for: padded).rawRepresentation
        } catch {
            throw .parameter("the input is not below the RSA modulus")
        }
    }

    /// s^e mod n, as long as the modulus; a parameter error when the value is not below the modulus.
    package static func publicOperation(_ key: _RSA.Signing.PublicKey, _ block: Data) throws(PrimitiveError) -> Data {
        let primitives: _RSA.Signing.PublicKey.Primitives
        do { primitives = try key.getKeyPrimitives() } catch { throw PrimitiveError(.unreadableKey, "the RSA public key cannot be read") }
        return try publicOperation(modulus: primitives.modulus, exponent: primitives.publicExponent, block)
    }

    /// s^e mod n for a modulus and public exponent given as big-endian bytes (the form published
    /// test vectors give them in, and one that admits keys swift-crypto's initialisers refuse).
    package static func publicOperation(modulus modulusBytes: Data, exponent: Data, _ block: Data) throws(PrimitiveError) -> Data {
        let modulus = NaturalNumber(bigEndian: modulusBytes)
        let size = (modulus.bitCount + 7) / 8
        guard block.count <= size else { throw .parameter("the input is longer than the RSA modulus") }
        let value = NaturalNumber(bigEndian: block)
        guard value < modulus else { throw .parameter("the input is not below the RSA modulus") }
        return value.power(NaturalNumber(bigEndian: exponent), modulo: modulus).bigEndian(count: size)
    }
}
