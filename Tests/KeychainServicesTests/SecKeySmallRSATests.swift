import Crypto
import Foundation
import Testing
import KeychainServices
import KeychainTestSupport

/// RSA keys of every size Security generates (512 to 8192 bits, SecRSAKey.c), where swift-crypto
/// makes only multiples of 128 from 1024: below 1024 bits and between its steps the keys are
/// KeychainCrypto's. Each size goes through the whole SecKey life: generation, attributes, block
/// size, export and import, every RSA signature and encryption family (where Security's size
/// rules let it, SecKeyAdaptors.m), the older calls, the keychain, and openssl for a key it made.
@Suite("SecKey: RSA keys of the sizes swift-crypto does not make")
struct SecKeySmallRSATests {
    /// 512 and 768 are below swift-crypto's floor; 1000 and 1001 (Security takes any number of
    /// bits) and 1032 are between BoringSSL's 128-bit steps.
    static let sizes = [512, 768, 1000, 1001, 1032]

    /// One key of each size, made once for the suite (generation dominates its time).
    static let keys: [Int: SecKey] = Dictionary(uniqueKeysWithValues: sizes.compactMap { bits in
        (try? makeKey([kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: bits])).map { (bits, $0) }
    })

    static func rsaKey(_ bits: Int) throws -> SecKey {
        try #require(keys[bits], "SecKeyCreateRandomKey made no \(bits)-bit RSA key")
    }

    static func importKey(_ data: Data, isPrivate: Bool) -> (SecKey?, CFError?) {
        var error: Unmanaged<CFError>?
        let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeRSA,
                                         kSecAttrKeyClass as String: isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic]
        let key = SecKeyCreateWithData(data as CFData, attributes as CFDictionary, &error)
        return (key, takeError(error))
    }

    static func code(_ error: CFError?) -> Int? { error.map { CFErrorGetCode($0) } }

    /// The hash's DigestInfo length: its digest and 19 bytes of prefix (15 for SHA-1).
    static func digestInfoLength(_ hashLength: Int) -> Int { hashLength + (hashLength == 20 ? 15 : 19) }

    @Test("Generation, size attributes, block size, and the PKCS#1 export that imports as the same key", arguments: sizes)
    func lifeOfAKey(_ bits: Int) throws {
        let key = try Self.rsaKey(bits)
        let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        #expect((attributes[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == bits)
        #expect(SecKeyGetBlockSize(key) == (bits + 7) / 8)
        let publicHalf = try publicKey(key)
        #expect(SecKeyGetBlockSize(publicHalf) == (bits + 7) / 8)
        let publicAttributes = try #require(SecKeyCopyAttributes(publicHalf) as? [String: Any])
        #expect((publicAttributes[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == bits)

        let privateDER = try externalRepresentation(key), publicDER = try externalRepresentation(publicHalf)
        let imported = try #require(Self.importKey(privateDER, isPrivate: true).0)
        #expect(imported == key)
        #expect(try externalRepresentation(imported) == privateDER)
        let importedPublic = try #require(Self.importKey(publicDER, isPrivate: false).0)
        #expect(try externalRepresentation(importedPublic) == publicDER)
        #expect(SecKeyCopyPublicKey(imported) == importedPublic)
        // A damaged private key (one byte of the coefficient changed) does not import.
        var damaged = privateDER
        damaged[damaged.count - 1] ^= 1
        #expect(Self.code(Self.importKey(damaged, isPrivate: true).1) == Int(errSecDecode))
    }

    @Test("Every RSA signature algorithm signs and verifies where the key is large enough, and is refused where not", arguments: sizes)
    func signatures(_ bits: Int) throws {
        let key = try Self.rsaKey(bits)
        let publicHalf = try publicKey(key)
        let size = (bits + 7) / 8
        let message = Data("a message for a small key".utf8)
        let hashes: [(pkcs1Digest: SecKeyAlgorithm, pkcs1Message: SecKeyAlgorithm, pssDigest: SecKeyAlgorithm, pssMessage: SecKeyAlgorithm, length: Int, hash: (Data) -> Data)] = [
            (.rsaSignatureDigestPKCS1v15SHA1, .rsaSignatureMessagePKCS1v15SHA1, .rsaSignatureDigestPSSSHA1, .rsaSignatureMessagePSSSHA1, 20, { Data(Insecure.SHA1.hash(data: $0)) }),
            (.rsaSignatureDigestPKCS1v15SHA224, .rsaSignatureMessagePKCS1v15SHA224, .rsaSignatureDigestPSSSHA224, .rsaSignatureMessagePSSSHA224, 28, { $0 }),
            (.rsaSignatureDigestPKCS1v15SHA256, .rsaSignatureMessagePKCS1v15SHA256, .rsaSignatureDigestPSSSHA256, .rsaSignatureMessagePSSSHA256, 32, { Data(SHA256.hash(data: $0)) }),
            (.rsaSignatureDigestPKCS1v15SHA384, .rsaSignatureMessagePKCS1v15SHA384, .rsaSignatureDigestPSSSHA384, .rsaSignatureMessagePSSSHA384, 48, { Data(SHA384.hash(data: $0)) }),
            (.rsaSignatureDigestPKCS1v15SHA512, .rsaSignatureMessagePKCS1v15SHA512, .rsaSignatureDigestPSSSHA512, .rsaSignatureMessagePSSSHA512, 64, { Data(SHA512.hash(data: $0)) }),
        ]
        var cases: [(SecKeyAlgorithm, Data, fits: Bool, supported: Bool)] = [
            (.rsaSignatureRaw, Data(repeating: 0x42, count: size - 1), true, true),
            (.rsaSignatureDigestPKCS1v15Raw, Data(repeating: 0x17, count: 20), true, true),
        ]
        for entry in hashes {
            // SHA-224's digest: any bytes of its length will do for the digest algorithms.
            let digest = entry.length == 28 ? Data(repeating: 0x28, count: 28) : entry.hash(message)
            let pkcs1Fits = size >= Self.digestInfoLength(entry.length) + 11
            // Security: SecKeyIsAlgorithmSupported says yes from 16·hLen + 9 bits; the encoding
            // itself needs one bit more (RFC 8017 §9.1.1: emLen ≥ 2·hLen + 2).
            let pssSupported = bits >= 16 * entry.length + 9, pssFits = (bits - 1 + 7) / 8 >= 2 * entry.length + 2
            cases += [(entry.pkcs1Digest, digest, pkcs1Fits, true), (entry.pkcs1Message, message, pkcs1Fits, true),
                      (entry.pssDigest, digest, pssSupported && pssFits, pssSupported),
                      (entry.pssMessage, message, pssSupported && pssFits, pssSupported)]
        }
        for (algorithm, input, fits, supported) in cases {
            #expect(SecKeyIsAlgorithmSupported(key, .sign, algorithm) == supported, "\(algorithm.rawValue)")
            #expect(SecKeyIsAlgorithmSupported(publicHalf, .verify, algorithm), "\(algorithm.rawValue)")
            let (signature, error) = sign(key, algorithm, input)
            guard fits else {
                #expect(signature == nil && Self.code(error) == Int(errSecParam), "\(algorithm.rawValue) on \(bits) bits")
                continue
            }
            let made = try #require(signature, "\(algorithm.rawValue) on \(bits) bits: \(String(describing: error))")
            #expect(made.count == size)
            #expect(verify(publicHalf, algorithm, input, made).0, "\(algorithm.rawValue)")
            #expect(verify(key, algorithm, input, made).0, "\(algorithm.rawValue) with the private key")
            var tampered = made
            tampered[tampered.count / 2] ^= 0x01
            let (valid, failure) = verify(publicHalf, algorithm, input, tampered)
            #expect(!valid && Self.code(failure) == Int(errSecVerifyFailed), "\(algorithm.rawValue)")
        }
    }

    @Test("Raw, PKCS#1 v1.5, OAEP and RSA-AES-GCM encryption round trips where the key is large enough", arguments: sizes)
    func encryption(_ bits: Int) throws {
        let key = try Self.rsaKey(bits)
        let publicHalf = try publicKey(key)
        let size = (bits + 7) / 8
        let secret = Data("sixteen bytes!!!".utf8)
        // Raw RSA: a block below the modulus comes back as it was, left-padded to the block size.
        let block = Data(repeating: 0x5a, count: size - 1)
        let raw = try #require(encrypt(publicHalf, .rsaEncryptionRaw, block).0)
        #expect(decrypt(key, .rsaEncryptionRaw, raw).0 == Data(count: 1) + block)
        let pkcs1 = try #require(encrypt(publicHalf, .rsaEncryptionPKCS1, secret).0)
        #expect(pkcs1.count == size && decrypt(key, .rsaEncryptionPKCS1, pkcs1).0 == secret)
        #expect(Self.code(encrypt(publicHalf, .rsaEncryptionPKCS1, Data(count: size - 10)).1) == Int(errSecParam))
        for (algorithm, gcm, hashLength) in [(SecKeyAlgorithm.rsaEncryptionOAEPSHA1, SecKeyAlgorithm.rsaEncryptionOAEPSHA1AESGCM, 20),
                                             (.rsaEncryptionOAEPSHA224, .rsaEncryptionOAEPSHA224AESGCM, 28),
                                             (.rsaEncryptionOAEPSHA256, .rsaEncryptionOAEPSHA256AESGCM, 32),
                                             (.rsaEncryptionOAEPSHA384, .rsaEncryptionOAEPSHA384AESGCM, 48),
                                             (.rsaEncryptionOAEPSHA512, .rsaEncryptionOAEPSHA512AESGCM, 64)] {
            let fits = size >= 2 * hashLength + 2
            guard fits else {
                #expect(Self.code(encrypt(publicHalf, algorithm, secret).1) == Int(errSecParam))
                continue
            }
            // OAEP carries at most size − 2·hLen − 2 bytes (6 for SHA-224 on 512 bits); one more is refused.
            let capacity = size - 2 * hashLength - 2
            let message = Data(repeating: 0x33, count: min(capacity, 16))
            #expect(Self.code(encrypt(publicHalf, algorithm, Data(count: capacity + 1)).1) == Int(errSecParam))
            let ciphertext = try #require(encrypt(publicHalf, algorithm, message).0, "\(algorithm.rawValue)")
            #expect(decrypt(key, algorithm, ciphertext).0 == message, "\(algorithm.rawValue)")
            var damaged = ciphertext
            damaged[damaged.count - 1] ^= 1
            #expect(Self.code(decrypt(key, algorithm, damaged).1) == Int(errSecParam))
            // RSA-AES-GCM wraps a 16-byte AES key with OAEP, when the block has room for it.
            guard size - 2 * hashLength - 2 >= 16 else { continue }
            let long = Data(repeating: 9, count: 500)
            let sealed = try #require(encrypt(publicHalf, gcm, long).0, "\(gcm.rawValue)")
            #expect(decrypt(key, gcm, sealed).0 == long, "\(gcm.rawValue)")
        }
    }

    @Test("The older calls: SecKeyRawSign and SecKeyRawVerify, SecKeyEncrypt and SecKeyDecrypt", arguments: [512, 1000])
    func legacyCalls(_ bits: Int) throws {
        let key = try Self.rsaKey(bits)
        let publicHalf = try publicKey(key)
        let size = SecKeyGetBlockSize(key)
        let digest = [UInt8](SHA256.hash(data: Data("legacy".utf8)))
        var signature = [UInt8](repeating: 0, count: size)
        var signatureLength = size
        #expect(SecKeyRawSign(key, .PKCS1SHA256, digest, digest.count, &signature, &signatureLength) == errSecSuccess)
        #expect(signatureLength == size)
        #expect(SecKeyRawVerify(publicHalf, .PKCS1SHA256, digest, digest.count, signature, signatureLength) == errSecSuccess)
        signature[0] ^= 0x80
        #expect(SecKeyRawVerify(publicHalf, .PKCS1SHA256, digest, digest.count, signature, signatureLength) == errSSLCrypto)
        let plain = [UInt8]("legacy secret".utf8)
        for padding in [SecPadding.PKCS1, .OAEP] {
            var cipher = [UInt8](repeating: 0, count: size)
            var cipherLength = size
            #expect(SecKeyEncrypt(publicHalf, padding, plain, plain.count, &cipher, &cipherLength) == errSecSuccess)
            var output = [UInt8](repeating: 0, count: size)
            var outputLength = size
            #expect(SecKeyDecrypt(key, padding, cipher, cipherLength, &output, &outputLength) == errSecSuccess)
            #expect(Array(output.prefix(outputLength)) == plain)
        }
    }

    @Test("A permanent 512-bit key is stored, found again by tag, and signs")
    func permanentKey() throws {
        let keychain = try TestKeychain()
        let tag = Data("com.example.small-rsa".utf8)
        try keychain.run {
            let key = try makeKey([kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 512,
                                   kSecAttrIsPermanent: true, kSecAttrApplicationTag: tag])
            let found = copyMatching(item([kSecClass: kSecClassKey, kSecAttrApplicationTag: tag,
                                           kSecAttrKeyClass: kSecAttrKeyClassPrivate, kSecReturnRef: true, kSecReturnAttributes: true]))
            #expect(found.status == errSecSuccess)
            let stored = try #require(found.result as? [String: Any])
            #expect((stored[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == 512)
            let storedKey = try #require(stored[kSecValueRef as String] as? SecKey)
            #expect(storedKey == key)
            let message = Data("kept in the keychain".utf8)
            let signature = try #require(sign(storedKey, .rsaSignatureMessagePKCS1v15SHA256, message).0)
            #expect(verify(try publicKey(key), .rsaSignatureMessagePKCS1v15SHA256, message, signature).0)
        }
    }

    @Test("A key made by `openssl genrsa 512` imports, signs, and openssl verifies the signatures")
    func opensslKey() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pem = directory.appendingPathComponent("key.pem"), der = directory.appendingPathComponent("key.der")
        let publicPEM = directory.appendingPathComponent("public.pem")
        try #require(try openssl(["genrsa", "-out", pem.path, "512"]).status == 0)
        try #require(try openssl(["rsa", "-in", pem.path, "-traditional", "-outform", "DER", "-out", der.path]).status == 0)
        try #require(try openssl(["rsa", "-in", pem.path, "-pubout", "-out", publicPEM.path]).status == 0)
        let keyData = try Data(contentsOf: der)
        let (imported, error) = Self.importKey(keyData, isPrivate: true)
        let key = try #require(imported, "import failed: \(String(describing: error))")
        #expect(SecKeyGetBlockSize(key) == 64)
        #expect(try externalRepresentation(key) == keyData)

        let message = Data("verified by openssl".utf8)
        let digest = Data(SHA256.hash(data: message)), digestFile = directory.appendingPathComponent("digest")
        try digest.write(to: digestFile)
        let sha1Digest = Data(Insecure.SHA1.hash(data: message)), sha1File = directory.appendingPathComponent("digest1")
        try sha1Digest.write(to: sha1File)
        for (algorithm, input, file, options) in [
            (SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA256, digest, digestFile, ["-pkeyopt", "digest:sha256"]),
            (.rsaSignatureMessagePKCS1v15SHA256, message, digestFile, ["-pkeyopt", "digest:sha256"]),
            (.rsaSignatureMessagePSSSHA1, message, sha1File,
             ["-pkeyopt", "digest:sha1", "-pkeyopt", "rsa_padding_mode:pss", "-pkeyopt", "rsa_pss_saltlen:digest"]),
        ] {
            let signature = try #require(sign(key, algorithm, input).0, "\(algorithm.rawValue)")
            let signatureFile = directory.appendingPathComponent("signature")
            try signature.write(to: signatureFile)
            let check = try openssl(["pkeyutl", "-verify", "-pubin", "-inkey", publicPEM.path, "-in", file.path, "-sigfile", signatureFile.path] + options)
            #expect(check.status == 0, "\(algorithm.rawValue)")
            // And a signature openssl made verifies here.
            let theirs = try openssl(["pkeyutl", "-sign", "-inkey", pem.path, "-in", file.path] + options)
            let publicHalf = try publicKey(key)
            #expect(theirs.status == 0 && verify(publicHalf, algorithm, input, theirs.output).0, "\(algorithm.rawValue)")
        }
        // openssl's ciphertext decrypts here.
        let secret = Data("openssl to SecKey".utf8)
        let ciphertext = try openssl(["pkeyutl", "-encrypt", "-pubin", "-inkey", publicPEM.path], input: secret)
        #expect(ciphertext.status == 0 && decrypt(key, .rsaEncryptionPKCS1, ciphertext.output).0 == secret)
    }

    @Test("Security's range stays: below 512 and above 8192 bits is errSecParam")
    func outOfRange() {
        for bits in [511, 8193] {
            var error: Unmanaged<CFError>?
            let parameters = [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: bits] as [String: Any]
            #expect(SecKeyCreateRandomKey(parameters as CFDictionary, &error) == nil)
            #expect(Self.code(takeError(error)) == Int(errSecParam))
        }
    }
}
