#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import Foundation

/// Apple's ECIES (`SecKeyECIESCopyEncryptedData` and its helpers in Security's SecKeyAdaptors.m):
/// - an ephemeral key pair on the recipient's curve; ECDH between it and the recipient's key;
/// - the X9.63 KDF over the shared secret with the ephemeral public key (X9.63 bytes) as shared
///   information, giving an AES key of 16 bytes for curves up to 256 bits and 32 bytes above,
///   followed for the "VariableIV" algorithms by a 16-byte IV;
/// - AES-GCM with that IV, or with 16 zero bytes for the other algorithms, and a 16-byte tag;
/// - output: ephemeral public key (`04 ‖ X ‖ Y`) ‖ ciphertext ‖ tag.
/// Standard and cofactor variants compute the same thing on the NIST prime curves (cofactor 1).
enum ECIES {
    static let tagLength = 16
    static let ivLength = 16

    static func aesKeyLength(_ curve: ECCurve) -> Int { curve.bits > 256 ? 32 : 16 }

    static func encrypt(_ plaintext: Data, to recipient: ECPublicKey, hash: HashName, variableIV: Bool) throws(KeyError) -> Data {
        let ephemeral = ECPrivateKey(generating: recipient.curve)
        let ephemeralPublic = ephemeral.publicKey.x963
        let secret = try ECOperations.sharedSecret(ephemeral, recipient)
        let (key, iv) = keyAndIV(secret: secret, ephemeralPublic: ephemeralPublic, curve: recipient.curve, hash: hash, variableIV: variableIV)
        do {
            let sealed = try AES.GCM.seal(plaintext, using: SymmetricKey(data: key), nonce: AES.GCM.Nonce(data: iv))
            return ephemeralPublic + sealed.ciphertext + sealed.tag
        } catch {
            throw KeyError(errSecParam, "ECIES: AES-GCM encryption failed")
        }
    }

    static func decrypt(_ data: Data, with key: ECPrivateKey, hash: HashName, variableIV: Bool) throws(KeyError) -> Data {
        let curve = key.curve
        let pointLength = 1 + 2 * curve.byteCount
        guard data.count >= pointLength + tagLength else { throw .parameter("ECIES: the input is too short") }
        let bytes = Data(data)
        let ephemeralPublic = bytes.prefix(pointLength)
        let ephemeral = try ECPublicKey(x963: Data(ephemeralPublic))
        let secret = try ECOperations.sharedSecret(key, ephemeral)
        let (aesKey, iv) = keyAndIV(secret: secret, ephemeralPublic: Data(ephemeralPublic), curve: curve, hash: hash, variableIV: variableIV)
        let body = bytes.dropFirst(pointLength)
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: body.dropLast(tagLength), tag: body.suffix(tagLength))
            return try AES.GCM.open(box, using: SymmetricKey(data: aesKey))
        } catch {
            // Security's answer when the tag does not match (SecKeyAdaptors.m).
            throw KeyError(errSecParam, "ECIES: AES-GCM decryption failed")
        }
    }

    private static func keyAndIV(secret: Data, ephemeralPublic: Data, curve: ECCurve, hash: HashName, variableIV: Bool) -> (Data, Data) {
        let keyLength = aesKeyLength(curve)
        let derived = X963KDF.derive(secret: secret, hash: hash, sharedInfo: ephemeralPublic,
                                     byteCount: keyLength + (variableIV ? ivLength : 0))
        let key = Data(derived.prefix(keyLength))
        let iv = variableIV ? Data(derived.suffix(ivLength)) : Data(count: ivLength)
        return (key, iv)
    }
}
#endif
