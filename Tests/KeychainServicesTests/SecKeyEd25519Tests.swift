import Foundation
import Testing
import KeychainServices
import KeychainTestSupport

/// Ed25519 keys (`kSecAttrKeyTypeEd25519`, `kSecKeyAlgorithmEdDSASignatureMessageCurve25519SHA512`):
/// generation, the 32-byte external representations, signatures checked against RFC 8032's
/// first test vector and by openssl, what such a key refuses, and a stored key read back.
@Suite("SecKey: Ed25519")
struct SecKeyEd25519Tests {
    static let algorithm = SecKeyAlgorithm.edDSASignatureMessageCurve25519SHA512

    func ed25519Key(_ extra: [String: Any] = [:]) throws -> SecKey {
        var parameters: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeEd25519]
        for (name, value) in extra { parameters[name] = value }
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error)
        return try #require(key, "\(String(describing: takeError(error)))")
    }

    @Test("A new key: type 105, 256 bits, 32-byte halves that read back as the same key")
    func generationAndRepresentations() throws {
        for key in [try ed25519Key(), try ed25519Key([kSecAttrKeySizeInBits as String: 256])] {
            let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
            #expect(attributes[kSecAttrKeyType as String] as? String == "105")
            #expect(attributes[kSecAttrKeyClass as String] as? String == "1")
            #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == 256)
            #expect(attributes[kSecAttrCanSign as String] as? Bool == true)
            #expect(attributes[kSecAttrCanDecrypt as String] as? Bool == false)
            #expect(attributes[kSecAttrCanDerive as String] as? Bool == false)
            #expect(SecKeyGetBlockSize(key) == 32)
            let seed = try externalRepresentation(key)
            let publicBytes = try externalRepresentation(publicKey(key))
            #expect(seed.count == 32 && publicBytes.count == 32 && seed != publicBytes)
            let copy = try #require(SecKeyCreateWithData(seed as CFData, [kSecAttrKeyType as String: kSecAttrKeyTypeEd25519,
                                                                          kSecAttrKeyClass as String: kSecAttrKeyClassPrivate] as CFDictionary, nil))
            #expect(copy == key)
            #expect(try externalRepresentation(publicKey(copy)) == publicBytes)
            #expect(!key.description.contains(seed.hex))
            #expect(key.description.contains("Ed25519"))
        }
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateRandomKey([kSecAttrKeyType as String: kSecAttrKeyTypeEd25519, kSecAttrKeySizeInBits as String: 255] as CFDictionary, &error) == nil)
        #expect(takeError(error).map(CFErrorGetCode) == Int(errSecParam))
        for garbage in [Data(), Data(count: 31), Data(count: 33), Data(count: 64)] {
            #expect(SecKeyCreateWithData(garbage as CFData, [kSecAttrKeyType as String: kSecAttrKeyTypeEd25519,
                                                              kSecAttrKeyClass as String: kSecAttrKeyClassPrivate] as CFDictionary, nil) == nil)
        }
    }

    @Test("RFC 8032's first vector: the seed gives its public key; its signature verifies and ours does too")
    func rfc8032Vector() throws {
        let seed = try #require(Data(hex: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        let expectedPublic = try #require(Data(hex: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        let vectorSignature = try #require(Data(hex: "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"))
        let key = try #require(SecKeyCreateWithData(seed as CFData, [kSecAttrKeyType as String: kSecAttrKeyTypeEd25519,
                                                                     kSecAttrKeyClass as String: kSecAttrKeyClassPrivate] as CFDictionary, nil))
        let publicHalf = try publicKey(key)
        #expect(try externalRepresentation(publicHalf) == expectedPublic)
        #expect(verify(publicHalf, Self.algorithm, Data(), vectorSignature).0)
        let (signature, error) = sign(key, Self.algorithm, Data())
        #expect(error == nil)
        #expect(signature?.count == 64)
        #expect(verify(publicHalf, Self.algorithm, Data(), try #require(signature)).0)
        // A changed message or signature does not verify, with Security's status.
        let (valid, failure) = verify(publicHalf, Self.algorithm, Data([0]), vectorSignature)
        #expect(!valid && failure.map(CFErrorGetCode) == Int(errSecVerifyFailed))
        var tampered = vectorSignature
        tampered[5] ^= 1
        #expect(!verify(publicHalf, Self.algorithm, Data(), tampered).0)
    }

    @Test("openssl verifies our signatures with the public key in an SPKI")
    func opensslVerifies() throws {
        let key = try ed25519Key()
        let message = Data("signed by the keychain".utf8)
        let signature = try #require(sign(key, Self.algorithm, message).0)
        let folder = try scratchDirectory()
        // SubjectPublicKeyInfo for id-Ed25519 (RFC 8410): a fixed 12-byte prefix, then the key.
        let spki = try #require(Data(hex: "302a300506032b6570032100")) + (try externalRepresentation(publicKey(key)))
        let files = (key: folder.appendingPathComponent("pub.der"), message: folder.appendingPathComponent("message"),
                     signature: folder.appendingPathComponent("signature"))
        try spki.write(to: files.key)
        try message.write(to: files.message)
        try signature.write(to: files.signature)
        let good = try openssl(["pkeyutl", "-verify", "-pubin", "-keyform", "DER", "-inkey", files.key.path, "-rawin",
                                "-in", files.message.path, "-sigfile", files.signature.path])
        #expect(good.status == 0, "\(String(decoding: good.output, as: UTF8.self))")
        try Data("another message".utf8).write(to: files.message)
        let bad = try openssl(["pkeyutl", "-verify", "-pubin", "-keyform", "DER", "-inkey", files.key.path, "-rawin",
                               "-in", files.message.path, "-sigfile", files.signature.path])
        #expect(bad.status != 0)
    }

    @Test("An Ed25519 certificate made by openssl gives its key, which verifies the key's signatures")
    func certificateKey() throws {
        let folder = try scratchDirectory()
        let keyFile = folder.appendingPathComponent("key.pem"), certificateFile = folder.appendingPathComponent("cert.der")
        let made = try openssl(["req", "-x509", "-newkey", "ed25519", "-nodes", "-subj", "/CN=ed25519 test", "-days", "2",
                                "-keyout", keyFile.path, "-outform", "DER", "-out", certificateFile.path])
        try #require(made.status == 0, "\(String(decoding: made.output, as: UTF8.self))")
        let certificate = try #require(SecCertificateCreateWithData(nil, try Data(contentsOf: certificateFile) as CFData))
        let key = try #require(SecCertificateCopyKey(certificate))
        #expect((SecKeyCopyAttributes(key) as? [String: Any])?[kSecAttrKeyType as String] as? String == "105")
        let message = folder.appendingPathComponent("message"), signatureFile = folder.appendingPathComponent("signature")
        try Data("from openssl".utf8).write(to: message)
        let signed = try openssl(["pkeyutl", "-sign", "-inkey", keyFile.path, "-rawin", "-in", message.path, "-out", signatureFile.path])
        try #require(signed.status == 0)
        #expect(verify(key, Self.algorithm, Data("from openssl".utf8), try Data(contentsOf: signatureFile)).0)
    }

    @Test("What an Ed25519 key does not do: other algorithms, encryption, the older calls; EdDSA on other keys")
    func refusals() throws {
        let key = try ed25519Key()
        let publicHalf = try publicKey(key)
        #expect(SecKeyIsAlgorithmSupported(key, .sign, Self.algorithm))
        #expect(SecKeyIsAlgorithmSupported(key, .verify, Self.algorithm))
        #expect(!SecKeyIsAlgorithmSupported(publicHalf, .sign, Self.algorithm))
        #expect(!SecKeyIsAlgorithmSupported(key, .sign, .ecdsaSignatureMessageX962SHA256))
        #expect(!SecKeyIsAlgorithmSupported(publicHalf, .encrypt, .eciesEncryptionStandardX963SHA256AESGCM))
        #expect(!SecKeyIsAlgorithmSupported(try ecKey(), .sign, Self.algorithm))
        let (signature, error) = sign(key, .ecdsaSignatureMessageX962SHA256, Data("x".utf8))
        #expect(signature == nil && error.map(CFErrorGetCode) == Int(errSecParam))
        #expect(sign(try ecKey(), Self.algorithm, Data("x".utf8)).0 == nil)
        #expect(encrypt(publicHalf, .eciesEncryptionStandardX963SHA256AESGCM, Data("x".utf8)).0 == nil)
        var length = 64
        var buffer = [UInt8](repeating: 0, count: length)
        let digest = [UInt8](repeating: 1, count: 32)
        #expect(SecKeyRawSign(key, .PKCS1, digest, digest.count, &buffer, &length) == errSecParam)
    }

    @Test("A stored key comes back from the keychain and signs; its item says type 105")
    func storedKey() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let tag = Data("com.example.ed25519".utf8)
            let made = try ed25519Key([kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag,
                                       kSecAttrLabel as String: "signing key"])
            var result: CFTypeRef?
            let status = SecItemCopyMatching([kSecClass: kSecClassKey, kSecAttrApplicationTag: tag, kSecReturnRef: true,
                                              kSecReturnAttributes: true] as CFDictionary, &result)
            #expect(status == errSecSuccess)
            let item = try #require(result as? NSDictionary)
            // Read back from the keychain, the type is the column's number, as on Apple platforms.
            #expect((item[kSecAttrKeyType] as? NSNumber)?.intValue == 105)
            #expect(item[kSecAttrLabel] as? String == "signing key")
            let stored = try #require(item[kSecValueRef].map { $0 as AnyObject } as? SecKey)
            #expect(stored == made)
            let message = Data("stored".utf8)
            let signature = try #require(sign(stored, Self.algorithm, message).0)
            #expect(verify(try publicKey(made), Self.algorithm, message, signature).0)
        }
    }
}
