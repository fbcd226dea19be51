#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import _CryptoExtras
import Foundation

/// PBES2 encryption (RFC 8018) as OpenSSL 3 writes it by default: PBKDF2 with HMAC-SHA-256
/// and AES-256-CBC. Used for the shrouded key bags and encrypted contents of exported PKCS#12
/// files and for encrypted PKCS#8 keys (`EncryptedPrivateKeyInfo`). The reading side is
/// ``PKCS12Parser``, which takes this and the other PBES2 variants.
package enum PasswordBasedEncryption {
    /// PBKDF2 rounds: OpenSSL 3's default for PKCS#12 and PKCS#8 alike.
    package static let defaultIterations = 2048
    static let saltLength = 16
    static let hmacWithSHA256 = "1.2.840.113549.2.9"
    static let aes256CBC = "2.16.840.1.101.3.4.1.42"

    /// Encrypts `plaintext` under `password` (its UTF-8 bytes, as PBES2 takes them) with a fresh
    /// salt and IV; returns the AlgorithmIdentifier that names the scheme and the ciphertext.
    static func encrypt(_ plaintext: [UInt8], password: String,
                        iterations: Int = defaultIterations) throws -> (algorithm: [UInt8], ciphertext: [UInt8]) {
        let salt = randomBytes(saltLength)
        let iv = randomBytes(16)
        let key = try KDF.Insecure.PBKDF2.deriveKey(from: Array(password.utf8), salt: salt, using: .sha256,
                                                    outputByteCount: 32, unsafeUncheckedRounds: iterations)
        let ciphertext = try AES._CBC.encrypt(plaintext, using: key, iv: AES._CBC.IV(ivBytes: iv))
        let kdfParameters = DERWriting.sequence(DERWriting.octetString(salt), DERWriting.integer(iterations),
                                                DERWriting.algorithm(hmacWithSHA256, parameters: DERWriting.null))
        let parameters = DERWriting.sequence(DERWriting.algorithm(PKCS12Parser.OID.pbkdf2, parameters: kdfParameters),
                                             DERWriting.algorithm(aes256CBC, parameters: DERWriting.octetString(iv)))
        return (DERWriting.algorithm(PKCS12Parser.OID.pbes2, parameters: parameters), Array(ciphertext))
    }

    /// A PKCS#8 PrivateKeyInfo encrypted as an `EncryptedPrivateKeyInfo` (RFC 5958), the
    /// "ENCRYPTED PRIVATE KEY" that `openssl pkey -passin` reads.
    package static func encryptedPrivateKeyInfo(_ privateKeyInfo: [UInt8], password: String,
                                                iterations: Int = defaultIterations) throws -> [UInt8] {
        let (algorithm, ciphertext) = try encrypt(privateKeyInfo, password: password, iterations: iterations)
        return DERWriting.sequence(algorithm, DERWriting.octetString(ciphertext))
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
#endif
