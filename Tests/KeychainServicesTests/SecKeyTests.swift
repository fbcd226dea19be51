import Crypto
import Foundation
import Testing
import KeychainServices

/// SecKey in memory: the overlay's types, generation, external representations, every algorithm
/// family, Apple's statuses for what a key cannot do, and agreement with independent
/// implementations (swift-crypto's own types, openssl, Python's `cryptography`).
@Suite("SecKey: keys and algorithms")
struct SecKeyTests {
    @Test("The overlay's names: SecKeyAlgorithm members are Apple's strings; CFGetTypeID tells keys apart")
    func overlay() throws {
        #expect(SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256.rawValue as String == "algid:sign:ECDSA:message-X962:SHA256")
        #expect(SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM == kSecKeyAlgorithmECIESEncryptionCofactorVariableIVX963SHA256AESGCM)
        #expect(SecKeyAlgorithm(rawValue: "algid:encrypt:RSA:OAEP:SHA256" as CFString) == .rsaEncryptionOAEPSHA256)
        let key = try ecKey()
        #expect(CFGetTypeID(key) == SecKeyGetTypeID())
        #expect(CFGetTypeID(key) != CFDataGetTypeID())
        let asAny: Any = key
        #expect((asAny as? SecKey) === key)
        #expect(SecKeyOperationType.keyExchange.rawValue == 4)
        // Equal keys from different calls are equal and hash alike; the description holds no secret.
        let copy = try #require(SecKeyCreateWithData(externalRepresentation(key) as CFData,
                                                     [kSecAttrKeyType as String: kSecAttrKeyTypeEC, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate] as CFDictionary, nil))
        #expect(copy == key && copy.hashValue == key.hashValue)
        #expect(try !key.description.contains(externalRepresentation(key).suffix(32).hex))
    }

    @Test("EC keys: X9.63 external representations of Apple's sizes, read back and by swift-crypto", arguments: [256, 384, 521])
    func ecExternalRepresentation(_ bits: Int) throws {
        let key = try ecKey(bits)
        let bytes = (bits + 7) / 8
        let data = try externalRepresentation(key)
        #expect(data.count == 1 + 3 * bytes && data.first == 4)
        let publicData = try externalRepresentation(publicKey(key))
        #expect(publicData == data.prefix(1 + 2 * bytes))
        #expect(SecKeyGetBlockSize(key) == bytes)
        let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        #expect(attributes[kSecAttrKeyType as String] as? String == "73")
        #expect(attributes[kSecAttrKeyClass as String] as? String == "1")
        #expect((attributes[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == bits)
        #expect(attributes[kSecAttrApplicationLabel as String] as? Data == Data(Insecure.SHA1.hash(data: publicData)))
        #expect(attributes[kSecValueData as String] as? Data == data)
        if bits == 256 {
            // Apple's CryptoKit-in-the-keychain pattern: the external representation is CryptoKit's x963.
            let cryptoKit = try P256.Signing.PrivateKey(x963Representation: data)
            #expect(cryptoKit.publicKey.x963Representation == publicData)
            let imported = try #require(SecKeyCreateWithData(cryptoKit.x963Representation as CFData,
                [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate] as CFDictionary, nil))
            let message = Data("cryptokit".utf8)
            let (signature, _) = sign(imported, .ecdsaSignatureMessageX962SHA256, message)
            #expect(try cryptoKit.publicKey.isValidSignature(P256.Signing.ECDSASignature(derRepresentation: #require(signature)), for: message))
        }
    }

    @Test("ECDSA: every form and hash signs and verifies; a changed message is errSecVerifyFailed")
    func ecdsa() throws {
        let key = try ecKey()
        let message = Data("message".utf8)
        let algorithms: [SecKeyAlgorithm] = [
            .ecdsaSignatureMessageX962SHA1, .ecdsaSignatureMessageX962SHA256, .ecdsaSignatureMessageX962SHA384, .ecdsaSignatureMessageX962SHA512,
            .ecdsaSignatureMessageRFC4754SHA256, .ecdsaSignatureMessageRFC4754SHA512,
        ]
        for algorithm in algorithms {
            let (signature, error) = sign(key, algorithm, message)
            let bytes = try #require(signature, "\(algorithm): \(String(describing: error))")
            if algorithm.rawValue.contains("RFC4754") { #expect(bytes.count == 64) } else { #expect(bytes.first == 0x30) }
            #expect(verify(try publicKey(key), algorithm, message, bytes).0)
            let (valid, failure) = verify(try publicKey(key), algorithm, Data("other".utf8), bytes)
            #expect(!valid && failure.map(CFErrorGetCode) == Int(errSecVerifyFailed))
        }
        // Digest forms take the caller's digest, of the named length; SHA-224 digests too.
        let digest = Data(SHA256.hash(data: message))
        let (signature, _) = sign(key, .ecdsaSignatureDigestX962SHA256, digest)
        #expect(verify(key, .ecdsaSignatureMessageX962SHA256, message, try #require(signature)).0)
        #expect(sign(key, .ecdsaSignatureDigestX962SHA224, Data(repeating: 1, count: 28)).0 != nil)
        #expect(sign(key, .ecdsaSignatureDigestX962SHA256, Data(repeating: 1, count: 20)).1.map(CFErrorGetCode) == Int(errSecParam))
        #expect(sign(key, .ecdsaSignatureRFC4754, digest).0?.count == 64)
        // A wrong-size RFC 4754 signature is errSecParam, as SecECKey.m says.
        #expect(verify(key, .ecdsaSignatureMessageRFC4754SHA256, message, Data(count: 10)).1.map(CFErrorGetCode) == Int(errSecParam))
    }

    @Test("What a key cannot do: errSecParam for the wrong key or operation")
    func unsupported() throws {
        let key = try ecKey()
        let message = Data("x".utf8)
        #expect(sign(key, .rsaSignatureMessagePKCS1v15SHA256, message).1.map(CFErrorGetCode) == Int(errSecParam))
        #expect(sign(try publicKey(key), .ecdsaSignatureMessageX962SHA256, message).1.map(CFErrorGetCode) == Int(errSecParam))
        // SHA-224 is computed here (swift-crypto has none), so its algorithms are supported.
        #expect(sign(key, .ecdsaSignatureMessageX962SHA224, message).0 != nil)
        #expect(sign(key, .edDSASignatureMessageCurve25519SHA512, message).1.map(CFErrorGetCode) == Int(errSecParam))
        #expect(SecKeyIsAlgorithmSupported(key, .sign, .ecdsaSignatureMessageX962SHA256))
        #expect(!SecKeyIsAlgorithmSupported(try publicKey(key), .sign, .ecdsaSignatureMessageX962SHA256))
        #expect(SecKeyIsAlgorithmSupported(try publicKey(key), .encrypt, .eciesEncryptionStandardVariableIVX963SHA256AESGCM))
        #expect(!SecKeyIsAlgorithmSupported(key, .encrypt, .eciesEncryptionStandardVariableIVX963SHA256AESGCM))
        #expect(!SecKeyIsAlgorithmSupported(try publicKey(key), .decrypt, .eciesEncryptionStandardVariableIVX963SHA256AESGCM))
        #expect(SecKeyIsAlgorithmSupported(key, .decrypt, .eciesEncryptionStandardVariableIVX963SHA256AESGCM))
        #expect(SecKeyIsAlgorithmSupported(key, .sign, .ecdsaSignatureMessageX962SHA224))
        #expect(!SecKeyIsAlgorithmSupported(key, .encrypt, .rsaEncryptionOAEPSHA256))
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateRandomKey([kSecAttrKeyType as String: kSecAttrKeyTypeEC, kSecAttrKeySizeInBits as String: 255] as CFDictionary, &error) == nil)
        #expect(takeError(error).map(CFErrorGetCode) == Int(errSecParam))
        #expect(SecKeyCreateRandomKey([kSecAttrKeySizeInBits as String: 256] as CFDictionary, &error) == nil)
        #expect(takeError(error).map(CFErrorGetCode) == Int(errSecParam))
        // The Secure Enclave: P-256 only, and not present here.
        #expect(SecKeyCreateRandomKey([kSecAttrKeyType as String: kSecAttrKeyTypeEC, kSecAttrKeySizeInBits as String: 256,
                                       kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave] as CFDictionary, &error) == nil)
        #expect(takeError(error).map(CFErrorGetCode) == Int(errSecUnimplemented))
        #expect(SecKeyCreateRandomKey([kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048,
                                       kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave] as CFDictionary, &error) == nil)
        #expect(takeError(error).map(CFErrorGetCode) == Int(errSecParam))
        // Garbage external representations are refused, never read.
        for garbage in [Data(), Data([4]), Data(repeating: 4, count: 65), Data(repeating: 0xff, count: 97)] {
            #expect(SecKeyCreateWithData(garbage as CFData, [kSecAttrKeyType as String: kSecAttrKeyTypeEC,
                                                              kSecAttrKeyClass as String: kSecAttrKeyClassPrivate] as CFDictionary, nil) == nil)
        }
    }

    @Test("ECDH: both sides agree, raw and through X9.63; cofactor ECDH equals standard on the NIST curves")
    func ecdh() throws {
        let alice = try ecKey(), bob = try ecKey()
        func exchange(_ a: SecKey, _ b: SecKey, _ algorithm: SecKeyAlgorithm, _ parameters: [String: Any] = [:]) -> Data? {
            SecKeyCopyKeyExchangeResult(a, algorithm, try! publicKey(b), parameters as CFDictionary, nil).map { $0 as Data }
        }
        let raw = try #require(exchange(alice, bob, .ecdhKeyExchangeStandard))
        #expect(raw.count == 32 && raw == exchange(bob, alice, .ecdhKeyExchangeStandard))
        #expect(exchange(alice, bob, .ecdhKeyExchangeCofactor) == raw)
        let parameters: [String: Any] = [SecKeyKeyExchangeParameter.requestedSize.rawValue as String: 42,
                                         SecKeyKeyExchangeParameter.sharedInfo.rawValue as String: Data("info".utf8)]
        let derived = try #require(exchange(alice, bob, .ecdhKeyExchangeStandardX963SHA256, parameters))
        #expect(derived.count == 42 && derived == exchange(bob, alice, .ecdhKeyExchangeCofactorX963SHA256, parameters))
        // swift-crypto's own X9.63 derivation over the same shared secret agrees.
        let swiftCrypto = try P256.KeyAgreement.PrivateKey(rawRepresentation: externalRepresentation(alice).suffix(32))
            .sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: externalRepresentation(publicKey(bob))))
            .x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: Data("info".utf8), outputByteCount: 42)
        #expect(swiftCrypto.withUnsafeBytes { Data($0) } == derived)
        var error: Unmanaged<CFError>?
        #expect(SecKeyCopyKeyExchangeResult(alice, .ecdhKeyExchangeStandardX963SHA256, try publicKey(bob), [:] as CFDictionary, &error) == nil)
        #expect(takeError(error).map(CFErrorGetCode) == Int(errSecParam))
    }

    @Test("ECIES round trips for every hash, curve and IV form, and a changed byte is refused",
          arguments: [256, 384, 521])
    func eciesRoundTrip(_ bits: Int) throws {
        let key = try ecKey(bits)
        let plaintext = Data("attack at dawn".utf8)
        let algorithms: [SecKeyAlgorithm] = [
            .eciesEncryptionStandardX963SHA1AESGCM, .eciesEncryptionStandardX963SHA256AESGCM, .eciesEncryptionCofactorX963SHA384AESGCM,
            .eciesEncryptionStandardVariableIVX963SHA256AESGCM, .eciesEncryptionCofactorVariableIVX963SHA512AESGCM,
        ]
        for algorithm in algorithms {
            let ciphertext = try #require(encrypt(try publicKey(key), algorithm, plaintext).0)
            #expect(ciphertext.count == 1 + 2 * ((bits + 7) / 8) + plaintext.count + 16)
            #expect(decrypt(key, algorithm, ciphertext).0 == plaintext)
            var damaged = ciphertext
            damaged[damaged.count - 1] ^= 1
            #expect(decrypt(key, algorithm, damaged).1.map(CFErrorGetCode) == Int(errSecParam))
        }
    }

    @Test("RSA over a caller's digest and raw RSA: PKCS#1 v1.5 digest signatures equal swift-crypto's message signatures, PSS crosses over, raw round trips")
    func rsaDigestAndRaw() throws {
        let key = try makeKey([kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048])
        let pub = try publicKey(key)
        let message = Data("digest me".utf8)
        // PKCS#1 v1.5 is deterministic: signing the digest must give swift-crypto's signature.
        for (digestAlgorithm, messageAlgorithm, digest) in [
            (SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA256, SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256, Data(SHA256.hash(data: message))),
            (.rsaSignatureDigestPKCS1v15SHA1, .rsaSignatureMessagePKCS1v15SHA1, Data(Insecure.SHA1.hash(data: message))),
            (.rsaSignatureDigestPKCS1v15SHA512, .rsaSignatureMessagePKCS1v15SHA512, Data(SHA512.hash(data: message))),
        ] {
            let ours = try #require(sign(key, digestAlgorithm, digest).0)
            #expect(ours == sign(key, messageAlgorithm, message).0)
            #expect(verify(pub, digestAlgorithm, digest, ours).0)
            var damaged = ours
            damaged[10] ^= 1
            #expect(verify(pub, digestAlgorithm, digest, damaged).1.map(CFErrorGetCode) == Int(errSecVerifyFailed))
        }
        // PSS is randomized: a digest signature verifies as a message signature and back.
        let digest = Data(SHA384.hash(data: message))
        let pss = try #require(sign(key, .rsaSignatureDigestPSSSHA384, digest).0)
        #expect(verify(pub, .rsaSignatureMessagePSSSHA384, message, pss).0)
        let pssMessage = try #require(sign(key, .rsaSignatureMessagePSSSHA384, message).0)
        #expect(verify(pub, .rsaSignatureDigestPSSSHA384, digest, pssMessage).0)
        #expect(!verify(pub, .rsaSignatureDigestPSSSHA384, Data(repeating: 0, count: 48), pssMessage).0)
        // SHA-224 digests: PKCS#1 v1.5 needs no hashing; PSS hashes with SHA-224 (MGF1), ours.
        #expect(sign(key, .rsaSignatureDigestPKCS1v15SHA224, Data(repeating: 3, count: 28)).0 != nil)
        let pss224 = try #require(sign(key, .rsaSignatureDigestPSSSHA224, Data(repeating: 3, count: 28)).0)
        #expect(verify(pub, .rsaSignatureDigestPSSSHA224, Data(repeating: 3, count: 28), pss224).0)
        // Raw RSA: what one side does the other undoes.
        let block = Data(repeating: 0x42, count: 200)
        let encrypted = try #require(encrypt(pub, .rsaEncryptionRaw, block).0)
        #expect(encrypted.count == 256)
        #expect(decrypt(key, .rsaEncryptionRaw, encrypted).0 == Data(count: 56) + block)
        let rawSignature = try #require(sign(key, .rsaSignatureRaw, block).0)
        #expect(verify(pub, .rsaSignatureRaw, block, rawSignature).0)
        #expect(encrypt(pub, .rsaEncryptionRaw, Data(repeating: 0xff, count: 256)).1.map(CFErrorGetCode) == Int(errSecParam))
    }
}
