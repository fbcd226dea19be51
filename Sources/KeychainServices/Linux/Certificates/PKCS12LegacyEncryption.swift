#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import KeychainCrypto

/// The password-based encryption of RFC 7292 appendix C, which OpenSSL 1.x wrote by default
/// (`openssl pkcs12 -legacy` still does: RC2-40 for certificates, three-key triple DES for keys):
/// key and IV come from the PKCS#12 key derivation over SHA-1, the cipher runs in CBC with PKCS#7
/// padding (RC4, a stream cipher, has neither IV nor padding). Decryption only; exports use
/// PBES2 (``PasswordBasedEncryption``).
///
/// Which schemes are read follows Apple's importer (`pkcsOidInfos` in `p12import.c`, which
/// `SecPKCS12Import` uses on iOS and macOS alike): RC4 with 128- or 40-bit keys, three-key triple
/// DES, RC2 with 128- or 40-bit keys. Two-key triple DES is listed there as unsupported, and so
/// it is here: such a file is `errSecDecode`, as Apple reports it.
enum PKCS12LegacyEncryption {
    /// pbeWithSHAAnd128BitRC4 … pbewithSHAAnd40BitRC2-CBC are 1.2.840.113549.1.12.1.1 to .6.
    static let prefix = "1.2.840.113549.1.12.1."

    enum Scheme {
        case rc4(keyBytes: Int), tripleDES, rc2(keyBytes: Int)
        /// Named by Apple's table but not read by it (two-key triple DES).
        case refusedByApple
    }

    /// The scheme of an object identifier under ``prefix``, nil for any other.
    static func scheme(_ oid: String) -> Scheme? {
        guard oid.hasPrefix(prefix) else { return nil }
        switch oid.dropFirst(prefix.count) {
        case "1": return .rc4(keyBytes: 16)
        case "2": return .rc4(keyBytes: 5)
        case "3": return .tripleDES
        case "4": return .refusedByApple
        case "5": return .rc2(keyBytes: 16)
        case "6": return .rc2(keyBytes: 5)
        default: return nil
        }
    }

    /// Decrypts `ciphertext` under `password` (as PKCS#12 encodes it: UTF-16BE with a final zero).
    ///
    /// - Throws: `PrimitiveError` when the padding does not check (a wrong password or a damaged
    ///   file; the caller tells them apart by the MAC); `PKCS12Error.decode` for two-key triple DES.
    static func decrypt(_ ciphertext: [UInt8], scheme: Scheme, password: [UInt8], salt: [UInt8], iterations: Int) throws -> [UInt8] {
        func derive(_ purpose: PKCS12KeyDerivation.Purpose, _ length: Int) -> [UInt8] {
            PKCS12KeyDerivation.derive(password: password, salt: salt, iterations: iterations,
                                       purpose: purpose, digest: .sha1, length: length)
        }
        let cipher: any LegacyBlockCipher
        switch scheme {
        case .tripleDES: cipher = try TripleDES(key: derive(.key, 24))
        // The effective key length is the key's: RC2-40 is a 5-byte key with 40 effective bits.
        case .rc2(let keyBytes): cipher = try RC2(key: derive(.key, keyBytes), effectiveBits: 8 * keyBytes)
        case .rc4(let keyBytes): return try RC4(key: derive(.key, keyBytes)).apply(ciphertext)
        case .refusedByApple: throw PKCS12Error.decode
        }
        return try cipher.decryptCBC(ciphertext, iv: derive(.iv, 8))
    }
}
#endif
