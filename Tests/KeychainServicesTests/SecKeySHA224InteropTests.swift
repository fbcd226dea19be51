import Crypto
import Foundation
import Testing
import KeychainServices

/// Every SecKey algorithm that hashes with SHA-224 (computed by our own SHA-224, since
/// swift-crypto has none), each against an independent implementation: openssl for ECDSA,
/// RSA PKCS#1 v1.5 and PSS (message and digest), OAEP and the X9.63 KDF of ECDH; Python's
/// `cryptography` for ECIES. Spawns programs, so scripts/sanitizers.sh skips it.
@Suite("SecKey: SHA-224 algorithms against openssl and Python cryptography")
struct SecKeySHA224InteropTests {
    let directory: URL
    init() throws { directory = try scratchDirectory() }

    func file(_ name: String, _ data: Data) throws -> String {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    /// The PEM files openssl reads for an EC SecKey (through swift-crypto's encoders).
    func ecPEM(_ key: SecKey) throws -> (privatePEM: String, publicPEM: String) {
        let cryptoKit = try P256.Signing.PrivateKey(x963Representation: externalRepresentation(key))
        return (try file("ec-private.pem", Data(cryptoKit.pemRepresentation.utf8)),
                try file("ec-public.pem", Data(cryptoKit.publicKey.pemRepresentation.utf8)))
    }

    /// The PEM files openssl reads for an RSA SecKey (from the PKCS#1 external representations).
    func rsaPEM(_ key: SecKey) throws -> (privatePEM: String, publicPEM: String) {
        let privateDER = try file("rsa-private.der", externalRepresentation(key))
        let publicDER = try file("rsa-public.der", externalRepresentation(publicKey(key)))
        let privatePEM = directory.appendingPathComponent("rsa-private.pem").path, publicPEM = directory.appendingPathComponent("rsa-public.pem").path
        #expect(try openssl(["rsa", "-inform", "DER", "-in", privateDER, "-out", privatePEM]).status == 0)
        #expect(try openssl(["rsa", "-inform", "DER", "-RSAPublicKey_in", "-in", publicDER, "-pubout", "-out", publicPEM]).status == 0)
        return (privatePEM, publicPEM)
    }

    @Test("ECDSA with SHA-224 over a message: openssl verifies ours, we verify openssl's")
    func ecdsa() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try ecKey()
        let (privatePEM, publicPEM) = try ecPEM(key)
        let message = Data("ecdsa sha-224".utf8), messageFile = try file("message", message)
        #expect(SecKeyIsAlgorithmSupported(key, .sign, .ecdsaSignatureMessageX962SHA224))
        let ours = try #require(sign(key, .ecdsaSignatureMessageX962SHA224, message).0)
        let signatureFile = try file("sig", ours)
        #expect(try openssl(["dgst", "-sha224", "-verify", publicPEM, "-signature", signatureFile, messageFile]).status == 0)
        let theirs = try openssl(["dgst", "-sha224", "-sign", privatePEM, messageFile])
        let publicHalf = try publicKey(key)
        #expect(theirs.status == 0 && verify(publicHalf, .ecdsaSignatureMessageX962SHA224, message, theirs.output).0)
        // The raw (RFC 4754) form signs the same digest; a SHA-256 signature is not a SHA-224 one.
        let raw = try #require(sign(key, .ecdsaSignatureMessageRFC4754SHA224, message).0)
        #expect(verify(key, .ecdsaSignatureDigestRFC4754SHA224, Data(SHA224Reference.digest(message)), raw).0)
        #expect(!verify(key, .ecdsaSignatureMessageX962SHA256, message, ours).0)
    }

    @Test("RSA PKCS#1 v1.5 and PSS with SHA-224, message and digest, both ways with openssl")
    func rsaSignatures() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try makeKey([kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048])
        let pub = try publicKey(key)
        let (privatePEM, publicPEM) = try rsaPEM(key)
        let message = Data("rsa sha-224".utf8), messageFile = try file("message", message)
        let pss = ["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:digest", "-sigopt", "rsa_mgf1_md:sha224"]
        for (algorithm, options) in [(SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA224, [String]()), (.rsaSignatureMessagePSSSHA224, pss)] {
            #expect(SecKeyIsAlgorithmSupported(key, .sign, algorithm))
            let ours = try #require(sign(key, algorithm, message).0)
            let signatureFile = try file("sig", ours)
            #expect(try openssl(["dgst", "-sha224", "-verify", publicPEM] + options + ["-signature", signatureFile, messageFile]).status == 0)
            let theirs = try openssl(["dgst", "-sha224", "-sign", privatePEM] + options + [messageFile])
            #expect(theirs.status == 0 && verify(pub, algorithm, message, theirs.output).0)
            var damaged = theirs.output
            damaged[damaged.count / 2] ^= 1
            #expect(verify(pub, algorithm, message, damaged).1.map(CFErrorGetCode) == Int(errSecVerifyFailed))
        }
        // Over a digest: openssl pkeyutl signs and verifies SHA-224 digests (PSS with MGF1-SHA-224).
        let digest = SHA224Reference.digest(message), digestFile = try file("digest", digest)
        let pssKey = ["-pkeyopt", "digest:sha224", "-pkeyopt", "rsa_padding_mode:pss", "-pkeyopt", "rsa_pss_saltlen:digest", "-pkeyopt", "rsa_mgf1_md:sha224"]
        for (algorithm, options) in [(SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA224, ["-pkeyopt", "digest:sha224"]), (.rsaSignatureDigestPSSSHA224, pssKey)] {
            #expect(SecKeyIsAlgorithmSupported(key, .sign, algorithm))
            let ours = try #require(sign(key, algorithm, digest).0)
            let signatureFile = try file("dsig", ours)
            #expect(try openssl(["pkeyutl", "-verify", "-pubin", "-inkey", publicPEM, "-in", digestFile, "-sigfile", signatureFile] + options).status == 0)
            let theirs = try openssl(["pkeyutl", "-sign", "-inkey", privatePEM, "-in", digestFile] + options)
            #expect(theirs.status == 0 && verify(pub, algorithm, digest, theirs.output).0)
        }
    }

    @Test("ECIES with the SHA-224 X9.63 KDF decrypts with Python cryptography", arguments: [256, 384])
    func ecies(_ bits: Int) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try ecKey(bits)
        let scalar = try externalRepresentation(key).suffix((bits + 7) / 8)
        let plaintext = Data("ecies sha-224".utf8)
        for (algorithm, variable) in [(SecKeyAlgorithm.eciesEncryptionStandardX963SHA224AESGCM, "0"), (.eciesEncryptionCofactorVariableIVX963SHA224AESGCM, "1"),
                                      (.eciesEncryptionStandardVariableIVX963SHA224AESGCM, "1"), (.eciesEncryptionCofactorX963SHA224AESGCM, "0")] {
            #expect(SecKeyIsAlgorithmSupported(try publicKey(key), .encrypt, algorithm))
            let ciphertext = try #require(encrypt(try publicKey(key), algorithm, plaintext).0)
            let run = try python(SecKeyInteropTests.pythonECIES, [scalar.hex, ciphertext.hex, "SHA224", variable])
            #expect(run.status == 0)
            #expect(String(decoding: run.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == plaintext.hex)
            #expect(decrypt(key, algorithm, ciphertext).0 == plaintext)
        }
    }

    @Test("ECDH with the SHA-224 X9.63 KDF equals openssl's derive followed by openssl's X963KDF")
    func ecdh() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let ours = try ecKey(), theirs = try ecKey()
        let (privatePEM, _) = try ecPEM(ours)
        let peer = try P256.Signing.PrivateKey(x963Representation: externalRepresentation(theirs))
        let peerPEM = try file("peer.pem", Data(peer.publicKey.pemRepresentation.utf8))
        let derived = try openssl(["pkeyutl", "-derive", "-inkey", privatePEM, "-peerkey", peerPEM])
        #expect(derived.status == 0 && derived.output.count == 32)
        let sharedInfo = Data("shared info".utf8)
        for (algorithm, size) in [(SecKeyAlgorithm.ecdhKeyExchangeStandardX963SHA224, 32), (.ecdhKeyExchangeCofactorX963SHA224, 80)] {
            #expect(SecKeyIsAlgorithmSupported(ours, .keyExchange, algorithm))
            var error: Unmanaged<CFError>?
            let parameters = [SecKeyKeyExchangeParameter.requestedSize.rawValue as String: size, SecKeyKeyExchangeParameter.sharedInfo.rawValue as String: sharedInfo] as CFDictionary
            let result = try #require(SecKeyCopyKeyExchangeResult(ours, algorithm, try publicKey(theirs), parameters, &error) as Data?)
            let kdf = try openssl(["kdf", "-binary", "-keylen", String(size), "-kdfopt", "digest:SHA224",
                                   "-kdfopt", "hexsecret:\(derived.output.hex)", "-kdfopt", "hexinfo:\(sharedInfo.hex)", "X963KDF"])
            #expect(kdf.status == 0 && kdf.output == result)
        }
    }
}

/// SHA-224 digests for the tests, from openssl (independent of the implementation under test).
enum SHA224Reference {
    static func digest(_ data: Data) -> Data {
        (try? openssl(["dgst", "-sha224", "-binary"], input: data).output) ?? Data()
    }
}
