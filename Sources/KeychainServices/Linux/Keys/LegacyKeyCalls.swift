#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation

/// The older SecKey calls (`SecKeyRawSign`, `SecKeyRawVerify`, `SecKeyEncrypt`, `SecKeyDecrypt`)
/// as Security builds them on the newer ones (SecKey.m, the iOS forms): the padding picks an
/// algorithm (none: errSecParam), the operation runs, a result longer than the caller's buffer
/// is errSecParam with nothing written, and a signature that does not verify is errSSLCrypto
/// instead of errSecVerifyFailed (`SecKeyPerformLegacyOperation`).
enum LegacyKeyCalls {
    /// The algorithm `SecKeyGetSignatureAlgorithmForPadding` picks.
    static func signatureAlgorithm(_ key: SecKey, _ padding: SecPadding, digestLength: Int) throws(KeyError) -> SecKeyAlgorithm {
        // Security's padding table has RSA and ECDSA rows only: an Ed25519 key signs with the newer call.
        guard key.material.family != .ed25519 else { throw .parameter("the older signature calls take RSA and EC keys only") }
        if key.material.isRSA {
            switch padding {
            case []: return .rsaSignatureRaw
            case .PKCS1: return .rsaSignatureDigestPKCS1v15Raw
            case .PKCS1SHA1: return .rsaSignatureDigestPKCS1v15SHA1
            case .PKCS1SHA224: return .rsaSignatureDigestPKCS1v15SHA224
            case .PKCS1SHA256: return .rsaSignatureDigestPKCS1v15SHA256
            case .PKCS1SHA384: return .rsaSignatureDigestPKCS1v15SHA384
            case .PKCS1SHA512: return .rsaSignatureDigestPKCS1v15SHA512
            default: throw .parameter("this padding has no RSA signature algorithm")
            }
        }
        // EC: SigRaw is r ‖ s; everything else, none included, is X9.62, named after the hash
        // whose length the digest has when the padding is PKCS1 (SecKey.m keeps this for the
        // old SecECKey's sake).
        if padding == .sigRaw { return .ecdsaSignatureDigestRFC4754 }
        if padding == .PKCS1 {
            switch digestLength {
            case 20: return .ecdsaSignatureDigestX962SHA1
            case 28: return .ecdsaSignatureDigestX962SHA224
            case 32: return .ecdsaSignatureDigestX962SHA256
            case 48: return .ecdsaSignatureDigestX962SHA384
            case 64: return .ecdsaSignatureDigestX962SHA512
            default: break
            }
        }
        return .ecdsaSignatureDigestX962
    }

    /// The algorithm `SecKeyGetEncryptionAlgorithmForPadding` picks: RSA keys only.
    static func encryptionAlgorithm(_ key: SecKey, _ padding: SecPadding) throws(KeyError) -> SecKeyAlgorithm {
        guard key.material.isRSA else { throw .parameter("the older encryption calls take RSA keys only") }
        switch padding {
        case []: return .rsaEncryptionRaw
        case .PKCS1: return .rsaEncryptionPKCS1
        case .OAEP: return .rsaEncryptionOAEPSHA1
        default: throw .parameter("this padding has no RSA encryption algorithm")
        }
    }

    /// The caller's bytes; a negative length (a huge `size_t` in C, where Security would read
    /// past the buffer) is errSecParam.
    static func bytes(_ pointer: UnsafePointer<UInt8>, _ length: Int) throws(KeyError) -> Data {
        guard length >= 0 else { throw .parameter("a length is negative") }
        return Data(bytes: pointer, count: length)
    }

    /// Runs an operation whose result goes into the caller's buffer of `length.pointee` bytes.
    static func output(into buffer: UnsafeMutablePointer<UInt8>, _ length: UnsafeMutablePointer<Int>,
                       _ body: () throws(KeyError) -> Data) -> OSStatus {
        status { () throws(KeyError) in
            let result = try body()
            guard result.count <= length.pointee else {
                throw .parameter("buffer too small (required \(result.count), provided \(length.pointee))")
            }
            result.copyBytes(to: buffer, count: result.count)
            length.pointee = result.count
        }
    }

    /// The status of an operation, as the older calls report it.
    static func status(_ body: () throws(KeyError) -> Void) -> OSStatus {
        do {
            try body()
            return errSecSuccess
        } catch {
            return error.status == errSecVerifyFailed ? errSSLCrypto : error.status
        }
    }
}
#endif
