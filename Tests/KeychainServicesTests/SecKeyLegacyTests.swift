import Crypto
import Foundation
import Testing
import KeychainServices

/// The older SecKey calls (SecKeyRawSign, SecKeyRawVerify, SecKeyEncrypt, SecKeyDecrypt), called
/// as iOS code calls them, agree with the newer calls the way SecKey.m builds them on those:
/// the padding picks the algorithm, the caller's buffer bounds the result, and the statuses are
/// Apple's (errSecParam for a padding without an algorithm or a short buffer, errSSLCrypto for a
/// signature that does not verify).
@Suite("SecKey: the older calls and key sizes")
struct SecKeyLegacyTests {
    static let rsa = Result { try makeKey([kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048]) }

    @Test("SecKeyRawSign with a PKCS1SHA* padding signs the caller's digest as the DigestPKCS1v15 algorithm does")
    func rsaRawSign() throws {
        let privateKey = try Self.rsa.get(), publicKey = try publicKey(privateKey)
        let message = Data("legacy".utf8)
        let digest = [UInt8](SHA256.hash(data: message))
        var signature = [UInt8](repeating: 0, count: SecKeyGetBlockSize(privateKey))
        var signatureLength = signature.count
        #expect(SecKeyRawSign(privateKey, .PKCS1SHA256, digest, digest.count, &signature, &signatureLength) == errSecSuccess)
        #expect(signatureLength == 256)
        // PKCS #1 v1.5 is deterministic: the same bytes as the newer call's message signature.
        let (modern, _) = sign(privateKey, .rsaSignatureMessagePKCS1v15SHA256, message)
        #expect(Data(signature.prefix(signatureLength)) == modern)
        #expect(SecKeyRawVerify(publicKey, .PKCS1SHA256, digest, digest.count, signature, signatureLength) == errSecSuccess)
        // A wrong signature is errSSLCrypto here, where SecKeyVerifySignature says errSecVerifyFailed.
        var damaged = signature
        damaged[10] ^= 1
        #expect(SecKeyRawVerify(publicKey, .PKCS1SHA256, digest, digest.count, damaged, signatureLength) == errSSLCrypto)
        // `.PKCS1` signs the bytes as they are, without a DigestInfo; `[]` is raw RSA.
        var bare = [UInt8](repeating: 0, count: 256), bareLength = 256
        #expect(SecKeyRawSign(privateKey, .PKCS1, digest, digest.count, &bare, &bareLength) == errSecSuccess)
        #expect(verify(publicKey, .rsaSignatureDigestPKCS1v15Raw, Data(digest), Data(bare)).0)
        #expect(SecKeyRawVerify(publicKey, .PKCS1, digest, digest.count, bare, bareLength) == errSecSuccess)
        let block = [UInt8](repeating: 0x42, count: 256)
        var raw = [UInt8](repeating: 0, count: 256), rawLength = 256
        #expect(SecKeyRawSign(privateKey, [], block, block.count, &raw, &rawLength) == errSecSuccess)
        #expect(SecKeyRawVerify(publicKey, [], block, block.count, raw, rawLength) == errSecSuccess)
    }

    @Test("Apple's statuses: no algorithm for the padding, a short buffer (nothing written), a wrong digest length")
    func rsaStatuses() throws {
        let privateKey = try Self.rsa.get()
        let digest = [UInt8](repeating: 7, count: 32)
        var signature = [UInt8](repeating: 0xAA, count: 256)
        for padding: SecPadding in [.PKCS1MD2, .PKCS1MD5, .sigRaw, .OAEP] {
            var length = signature.count
            #expect(SecKeyRawSign(privateKey, padding, digest, digest.count, &signature, &length) == errSecParam, "\(padding.rawValue)")
        }
        var short = 255
        #expect(SecKeyRawSign(privateKey, .PKCS1SHA256, digest, digest.count, &signature, &short) == errSecParam)
        #expect(short == 255 && signature.allSatisfy { $0 == 0xAA })
        var length = signature.count
        #expect(SecKeyRawSign(privateKey, .PKCS1SHA256, digest, 20, &signature, &length) == errSecParam)
        #expect(SecKeyRawSign(privateKey, .PKCS1SHA256, digest, -1, &signature, &length) == errSecParam)
    }

    @Test("SecKeyEncrypt and SecKeyDecrypt: PKCS1 and OAEP (SHA-1) interoperate with the newer calls; raw RSA drops leading zeros")
    func rsaEncryption() throws {
        let privateKey = try Self.rsa.get(), publicKey = try publicKey(privateKey)
        let blockSize = SecKeyGetBlockSize(publicKey)
        let message = [UInt8]("a session key".utf8)
        for (padding, algorithm) in [(SecPadding.PKCS1, SecKeyAlgorithm.rsaEncryptionPKCS1), (.OAEP, .rsaEncryptionOAEPSHA1)] {
            var cipherText = [UInt8](repeating: 0, count: blockSize)
            var cipherTextLength = blockSize
            #expect(SecKeyEncrypt(publicKey, padding, message, message.count, &cipherText, &cipherTextLength) == errSecSuccess)
            #expect(cipherTextLength == blockSize)
            #expect(decrypt(privateKey, algorithm, Data(cipherText)).0 == Data(message))
            var plainText = [UInt8](repeating: 0, count: blockSize)
            var plainTextLength = blockSize
            #expect(SecKeyDecrypt(privateKey, padding, cipherText, cipherTextLength, &plainText, &plainTextLength) == errSecSuccess)
            #expect(Array(plainText.prefix(plainTextLength)) == message)
        }
        // Raw: the block comes back without the zeros it starts with, as SecKeyDecrypt promises.
        let block = [UInt8](repeating: 0, count: blockSize - message.count) + message
        var cipherText = [UInt8](repeating: 0, count: blockSize), cipherTextLength = blockSize
        #expect(SecKeyEncrypt(publicKey, [], block, block.count, &cipherText, &cipherTextLength) == errSecSuccess)
        var plainText = [UInt8](repeating: 0, count: blockSize), plainTextLength = blockSize
        #expect(SecKeyDecrypt(privateKey, [], cipherText, cipherTextLength, &plainText, &plainTextLength) == errSecSuccess)
        #expect(Array(plainText.prefix(plainTextLength)) == message)
        // Paddings with no encryption algorithm, and encrypting with a private key.
        var length = blockSize
        #expect(SecKeyEncrypt(publicKey, .PKCS1SHA256, message, message.count, &cipherText, &length) == errSecParam)
        #expect(SecKeyEncrypt(privateKey, .OAEP, message, message.count, &cipherText, &length) == errSecParam)
    }

    @Test("EC keys: SecKeyRawSign makes an X9.62 (DER) signature of the digest, or r ‖ s with sigRaw; no encryption")
    func ecRawSign() throws {
        let privateKey = try ecKey(), publicKey = try publicKey(privateKey)
        #expect(SecKeyGetBlockSize(privateKey) == 32)
        let message = Data("ec legacy".utf8)
        let digest = [UInt8](SHA256.hash(data: message))
        for padding: SecPadding in [.PKCS1, [], .PKCS1SHA256] {
            var signature = [UInt8](repeating: 0, count: 128)
            var signatureLength = signature.count
            #expect(SecKeyRawSign(privateKey, padding, digest, digest.count, &signature, &signatureLength) == errSecSuccess)
            let der = Data(signature.prefix(signatureLength))
            #expect(der.first == 0x30 && signatureLength < 128)
            #expect(verify(publicKey, .ecdsaSignatureMessageX962SHA256, message, der).0)
            #expect(SecKeyRawVerify(publicKey, padding, digest, digest.count, signature, signatureLength) == errSecSuccess)
        }
        var raw = [UInt8](repeating: 0, count: 64), rawLength = 64
        #expect(SecKeyRawSign(privateKey, .sigRaw, digest, digest.count, &raw, &rawLength) == errSecSuccess)
        #expect(rawLength == 64 && verify(publicKey, .ecdsaSignatureDigestRFC4754, Data(digest), Data(raw)).0)
        raw[0] ^= 1
        #expect(SecKeyRawVerify(publicKey, .sigRaw, digest, digest.count, raw, rawLength) == errSSLCrypto)
        var cipherText = [UInt8](repeating: 0, count: 256), cipherTextLength = 256
        #expect(SecKeyEncrypt(publicKey, .OAEP, digest, digest.count, &cipherText, &cipherTextLength) == errSecParam)
    }

    /// The status and text of a generation with these parameters.
    func generationFailure(_ parameters: [String: Any]) -> (status: Int, text: String?) {
        var error: Unmanaged<CFError>?
        guard SecKeyCreateRandomKey(parameters as CFDictionary, &error) == nil, let failure = takeError(error) else { return (0, nil) }
        return (CFErrorGetCode(failure), (CFErrorCopyUserInfo(failure) as? [String: Any])?[kCFErrorDescriptionKey as String] as? String)
    }

    @Test("Key sizes outside Apple's ranges are errSecParam, as SecKeyCreateRandomKey reports a key class that made no key",
          arguments: [("RSA", 511), ("RSA", 8193), ("RSA", 0), ("RSA", -2048), ("EC", 255), ("EC", 512)])
    func sizesOutsideApplesRange(_ type: String, _ bits: Int) {
        let keyType = type == "RSA" ? kSecAttrKeyTypeRSA : kSecAttrKeyTypeECSECPrimeRandom
        let failure = generationFailure([kSecAttrKeyType as String: keyType, kSecAttrKeySizeInBits as String: bits])
        #expect(failure.status == Int(errSecParam))
        #expect(failure.text?.contains("failed to generate key") == true)
    }

    @Test("RSA sizes in Apple's range: a key of exactly the size asked for",
          arguments: [512, 1000, 1032, 1024, 1152])
    func sizesInApplesRange(_ bits: Int) throws {
        var error: Unmanaged<CFError>?
        let parameters = [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: bits] as CFDictionary
        guard let key = SecKeyCreateRandomKey(parameters, &error) else {
            Issue.record("Apple makes a \(bits)-bit key and so should this: \(String(describing: takeError(error).map(CFErrorGetCode)))")
            return
        }
        let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        #expect((attributes[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == bits)
        #expect(SecKeyGetBlockSize(key) == bits / 8)
    }
}
