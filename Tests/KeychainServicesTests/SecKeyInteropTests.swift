import Crypto
import Foundation
import Testing
import KeychainServices

/// SecKey against independent implementations run as programs: openssl (signatures both ways,
/// PKCS#1 key files, OAEP both ways) and Python's `cryptography` (Apple's ECIES written out).
/// Spawns programs, so scripts/sanitizers.sh skips it.
@Suite("SecKey: interoperability with openssl and Python cryptography")
struct SecKeyInteropTests {
    /// Apple's ECIES written independently with Python's `cryptography`: ECDH with the ephemeral
    /// key, X9.63 KDF with the ephemeral public key as shared info, AES-GCM with a zero or derived
    /// 16-byte IV.
    static let pythonECIES = """
    import sys
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.x963kdf import X963KDF
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    scalar, data, hashname, variable = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
    curve = {32: ec.SECP256R1(), 48: ec.SECP384R1(), 66: ec.SECP521R1()}[len(scalar)]
    private = ec.derive_private_key(int.from_bytes(scalar, "big"), curve)
    point = 1 + 2 * len(scalar)
    ephemeral = ec.EllipticCurvePublicKey.from_encoded_point(curve, data[:point])
    secret = private.exchange(ec.ECDH(), ephemeral)
    keylen = 16 if curve.key_size <= 256 else 32
    h = {"SHA1": hashes.SHA1(), "SHA224": hashes.SHA224(), "SHA256": hashes.SHA256(), "SHA384": hashes.SHA384(), "SHA512": hashes.SHA512()}[hashname]
    derived = X963KDF(algorithm=h, length=keylen + (16 if variable else 0), sharedinfo=data[:point]).derive(secret)
    iv = derived[keylen:] if variable else bytes(16)
    print(AESGCM(derived[:keylen]).decrypt(iv, data[point:], None).hex())
    """

    @Test("ECIES ciphertexts decrypt with an independent implementation (Python cryptography)", arguments: [256, 521])
    func eciesInterop(_ bits: Int) throws {
        let key = try ecKey(bits)
        let scalar = try externalRepresentation(key).suffix((bits + 7) / 8)
        let plaintext = Data("interoperable".utf8)
        for (algorithm, hash, variable) in [(SecKeyAlgorithm.eciesEncryptionStandardX963SHA256AESGCM, "SHA256", "0"),
                                            (.eciesEncryptionCofactorX963SHA1AESGCM, "SHA1", "0"),
                                            (.eciesEncryptionStandardVariableIVX963SHA384AESGCM, "SHA384", "1")] {
            let ciphertext = try #require(encrypt(try publicKey(key), algorithm, plaintext).0)
            let run = try python(Self.pythonECIES, [scalar.hex, ciphertext.hex, hash, variable])
            #expect(run.status == 0)
            #expect(String(decoding: run.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == plaintext.hex)
        }
    }

    @Test("RSA: PKCS#1 external representations that openssl reads, signatures both ways, OAEP both ways")
    func rsaInterop() throws {
        let key = try makeKey([kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048])
        #expect(SecKeyGetBlockSize(key) == 256)
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let privateDER = directory.appendingPathComponent("private.der"), publicDER = directory.appendingPathComponent("public.der")
        try externalRepresentation(key).write(to: privateDER)
        try externalRepresentation(publicKey(key)).write(to: publicDER)
        // openssl reads the PKCS#1 RSAPublicKey and RSAPrivateKey forms.
        let publicPEM = directory.appendingPathComponent("public.pem"), privatePEM = directory.appendingPathComponent("private.pem")
        #expect(try openssl(["rsa", "-inform", "DER", "-RSAPublicKey_in", "-in", publicDER.path, "-pubout", "-out", publicPEM.path]).status == 0)
        #expect(try openssl(["rsa", "-inform", "DER", "-in", privateDER.path, "-out", privatePEM.path]).status == 0)

        let message = Data("signed by SecKey".utf8)
        let messageFile = directory.appendingPathComponent("message")
        try message.write(to: messageFile)
        for (algorithm, digest, pss) in [(SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256, "-sha256", false),
                                         (.rsaSignatureMessagePKCS1v15SHA512, "-sha512", false),
                                         (.rsaSignatureMessagePSSSHA256, "-sha256", true)] {
            let signature = try #require(sign(key, algorithm, message).0)
            let signatureFile = directory.appendingPathComponent("signature")
            try signature.write(to: signatureFile)
            let pssOptions = pss ? ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:digest"] : []
            #expect(try openssl(["dgst", digest, "-verify", publicPEM.path] + pssOptions + ["-signature", signatureFile.path, messageFile.path]).status == 0)
            // And the other way: openssl signs, SecKey verifies.
            let theirs = try openssl(["dgst", digest, "-sign", privatePEM.path] + pssOptions + [messageFile.path])
            #expect(theirs.status == 0)
            #expect(verify(try publicKey(key), algorithm, message, theirs.output).0)
        }
        // OAEP: SecKey encrypts, openssl decrypts; openssl encrypts, SecKey decrypts.
        for (algorithm, oaepDigest) in [(SecKeyAlgorithm.rsaEncryptionOAEPSHA256, "sha256"), (.rsaEncryptionOAEPSHA1, "sha1")] {
            let secret = Data("oaep secret".utf8)
            let ciphertext = try #require(encrypt(try publicKey(key), algorithm, secret).0)
            let options = ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:\(oaepDigest)", "-pkeyopt", "rsa_mgf1_md:\(oaepDigest)"]
            let decrypted = try openssl(["pkeyutl", "-decrypt", "-inkey", privatePEM.path] + options, input: ciphertext)
            #expect(decrypted.status == 0 && decrypted.output == secret)
            let theirs = try openssl(["pkeyutl", "-encrypt", "-pubin", "-inkey", publicPEM.path] + options, input: secret)
            #expect(decrypt(key, algorithm, theirs.output).0 == secret)
        }
        // Signatures over a digest: openssl's pkeyutl signs and verifies digests too.
        let digest = Data(SHA256.hash(data: message)), digestFile = directory.appendingPathComponent("digest")
        try digest.write(to: digestFile)
        for (algorithm, options) in [(SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA256, ["-pkeyopt", "digest:sha256"]),
                                     (.rsaSignatureDigestPSSSHA256, ["-pkeyopt", "digest:sha256", "-pkeyopt", "rsa_padding_mode:pss", "-pkeyopt", "rsa_pss_saltlen:digest"])] {
            let signature = try #require(sign(key, algorithm, digest).0)
            let signatureFile = directory.appendingPathComponent("digest-signature")
            try signature.write(to: signatureFile)
            #expect(try openssl(["pkeyutl", "-verify", "-pubin", "-inkey", publicPEM.path, "-in", digestFile.path, "-sigfile", signatureFile.path] + options).status == 0)
            let theirs = try openssl(["pkeyutl", "-sign", "-inkey", privatePEM.path, "-in", digestFile.path] + options)
            let publicHalf = try publicKey(key)
            #expect(theirs.status == 0 && verify(publicHalf, algorithm, digest, theirs.output).0)
        }
        // Raw RSA against openssl's unpadded mode.
        let block = Data(repeating: 0x11, count: 256)
        let rawTheirs = try openssl(["pkeyutl", "-encrypt", "-pubin", "-inkey", publicPEM.path, "-pkeyopt", "rsa_padding_mode:none"], input: block)
        let publicHalf = try publicKey(key)
        #expect(rawTheirs.status == 0 && rawTheirs.output == encrypt(publicHalf, .rsaEncryptionRaw, block).0)
        // PKCS#1 v1.5 encryption and Apple's RSA-AES-GCM round trip (OAEP with the other hashes: RSAOAEPInteropTests).
        let pub = try publicKey(key)
        #expect(decrypt(key, .rsaEncryptionPKCS1, try #require(encrypt(pub, .rsaEncryptionPKCS1, message).0)).0 == message)
        let long = Data(repeating: 7, count: 1000)
        #expect(decrypt(key, .rsaEncryptionOAEPSHA256AESGCM, try #require(encrypt(pub, .rsaEncryptionOAEPSHA256AESGCM, long).0)).0 == long)
        #expect(encrypt(pub, .rsaEncryptionOAEPSHA256, Data(count: 300)).1.map(CFErrorGetCode) == Int(errSecParam))
        // Encryption takes the public key, as Apple's si-44-seckey-ies test says.
        #expect(encrypt(key, .rsaEncryptionOAEPSHA256, message).1.map(CFErrorGetCode) == Int(errSecParam))
    }

    @Test("ECDSA signatures verify with openssl, and openssl's with SecKey")
    func ecdsaInterop() throws {
        let key = try ecKey()
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // openssl takes the public point inside a SubjectPublicKeyInfo: swift-crypto writes one.
        let cryptoKit = try P256.Signing.PrivateKey(x963Representation: externalRepresentation(key))
        let publicPEM = directory.appendingPathComponent("public.pem"), privatePEM = directory.appendingPathComponent("private.pem")
        try cryptoKit.publicKey.pemRepresentation.write(to: publicPEM, atomically: true, encoding: .utf8)
        try cryptoKit.pemRepresentation.write(to: privatePEM, atomically: true, encoding: .utf8)
        let message = Data("ecdsa interop".utf8), messageFile = directory.appendingPathComponent("message")
        try message.write(to: messageFile)
        let signature = try #require(sign(key, .ecdsaSignatureMessageX962SHA256, message).0)
        let signatureFile = directory.appendingPathComponent("signature")
        try signature.write(to: signatureFile)
        #expect(try openssl(["dgst", "-sha256", "-verify", publicPEM.path, "-signature", signatureFile.path, messageFile.path]).status == 0)
        let theirs = try openssl(["dgst", "-sha384", "-sign", privatePEM.path, messageFile.path])
        #expect(theirs.status == 0 && verify(key, .ecdsaSignatureMessageX962SHA384, message, theirs.output).0)
    }
}
