import Crypto
package import Foundation

/// Apple's ECIES (`SecKeyECIESCopyEncryptedData` and its helpers in Security's SecKeyAdaptors.m):
/// - an ephemeral key pair on the recipient's curve; ECDH between it and the recipient's key;
/// - the X9.63 KDF over the shared secret with the ephemeral public key (X9.63 bytes) as shared
///   information, giving an AES key of 16 bytes for curves up to 256 bits and 32 bytes above,
///   followed for the "VariableIV" algorithms by a 16-byte IV;
/// - AES-GCM with that IV, or with 16 zero bytes for the other algorithms, and a 16-byte tag;
/// - output: ephemeral public key (`04 ‖ X ‖ Y`) ‖ ciphertext ‖ tag.
/// Standard and cofactor variants compute the same thing on the NIST prime curves (cofactor 1).
///
/// The key agreement is swift-crypto's and stays with the caller, which owns the key types
/// (KeychainServices' SecKey): this is the scheme around it, from the shared secret on.
package enum ECIES {
    package static let tagLength = 16
    package static let ivLength = 16

    static func aesKeyLength(curveBits: Int) -> Int { curveBits > 256 ? 32 : 16 }

    /// Bytes of an uncompressed point (`04 ‖ X ‖ Y`) on a curve of `curveBits`.
    package static func pointLength(curveBits: Int) -> Int { 1 + 2 * ((curveBits + 7) / 8) }

    /// The output for `plaintext`, given the ephemeral public key and the secret it agreed with
    /// the recipient's key.
    package static func seal(_ plaintext: Data, ephemeralPublicKey: Data, sharedSecret: Data, curveBits: Int,
                             hash: HashName, variableIV: Bool) throws(PrimitiveError) -> Data {
        let (key, iv) = keyAndIV(secret: sharedSecret, ephemeralPublic: ephemeralPublicKey, curveBits: curveBits,
                                 hash: hash, variableIV: variableIV)
        do {
            let sealed = try AES.GCM.seal(plaintext, using: SymmetricKey(data: key), nonce: AES.GCM.Nonce(data: iv))
            return ephemeralPublicKey + sealed.ciphertext + sealed.tag
        } catch {
            throw .parameter("ECIES: AES-GCM encryption failed")
        }
    }

    /// The ephemeral public key at the front of an ECIES output, for the caller's key agreement;
    /// a parameter error when the input is too short to hold it and a tag.
    package static func ephemeralPublicKey(in data: Data, curveBits: Int) throws(PrimitiveError) -> Data {
        let pointLength = pointLength(curveBits: curveBits)
        guard data.count >= pointLength + tagLength else { throw .parameter("ECIES: the input is too short") }
        return Data(Data(data).prefix(pointLength))
    }

    /// The plaintext of an ECIES output, given the secret its ephemeral key agreed with ours.
    package static func open(_ data: Data, sharedSecret: Data, curveBits: Int, hash: HashName,
                             variableIV: Bool) throws(PrimitiveError) -> Data {
        let ephemeralPublic = try ephemeralPublicKey(in: data, curveBits: curveBits)
        let (aesKey, iv) = keyAndIV(secret: sharedSecret, ephemeralPublic: ephemeralPublic, curveBits: curveBits,
                                    hash: hash, variableIV: variableIV)
        let body = Data(data).dropFirst(ephemeralPublic.count)
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: body.dropLast(tagLength), tag: body.suffix(tagLength))
            return try AES.GCM.open(box, using: SymmetricKey(data: aesKey))
        } catch {
            // Security's answer when the tag does not match (SecKeyAdaptors.m).
            throw .parameter("ECIES: AES-GCM decryption failed")
        }
    }

    /// The AES key and IV the KDF gives for a shared secret and ephemeral public key.
    package static func keyAndIV(secret: Data, ephemeralPublic: Data, curveBits: Int, hash: HashName,
                                 variableIV: Bool) -> (key: Data, iv: Data) {
        let keyLength = aesKeyLength(curveBits: curveBits)
        let derived = X963KDF.derive(secret: secret, hash: hash, sharedInfo: ephemeralPublic,
                                     byteCount: keyLength + (variableIV ? ivLength : 0))
        let key = Data(derived.prefix(keyLength))
        let iv = variableIV ? Data(derived.suffix(ivLength)) : Data(count: ivLength)
        return (key, iv)
    }
}
