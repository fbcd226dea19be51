import Foundation
import Testing
import KeychainServices

/// RSA-OAEP with the hashes computed by our own padding (SHA-224/384/512) and swift-crypto's
/// (SHA-1/256), against `openssl pkeyutl` both ways, for every RSA size Apple makes; a damaged
/// ciphertext is refused with one status. Spawns openssl, so scripts/sanitizers.sh skips it.
@Suite("SecKey: RSA-OAEP with every hash against openssl")
struct SecKeyOAEPInteropTests {
    static let algorithms: [(SecKeyAlgorithm, String, Int)] = [
        (.rsaEncryptionOAEPSHA1, "sha1", 20), (.rsaEncryptionOAEPSHA224, "sha224", 28), (.rsaEncryptionOAEPSHA256, "sha256", 32),
        (.rsaEncryptionOAEPSHA384, "sha384", 48), (.rsaEncryptionOAEPSHA512, "sha512", 64),
    ]

    @Test("OAEP both ways with openssl, damaged ciphertexts refused", arguments: [1024, 2048, 3072, 4096])
    func interop(_ bits: Int) throws {
        let key = try makeKey([kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: bits])
        let pub = try publicKey(key)
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let privateDER = directory.appendingPathComponent("private.der"), publicDER = directory.appendingPathComponent("public.der")
        try externalRepresentation(key).write(to: privateDER)
        try externalRepresentation(pub).write(to: publicDER)
        let publicPEM = directory.appendingPathComponent("public.pem"), privatePEM = directory.appendingPathComponent("private.pem")
        #expect(try openssl(["rsa", "-inform", "DER", "-RSAPublicKey_in", "-in", publicDER.path, "-pubout", "-out", publicPEM.path]).status == 0)
        #expect(try openssl(["rsa", "-inform", "DER", "-in", privateDER.path, "-out", privatePEM.path]).status == 0)
        let size = bits / 8
        for (algorithm, digest, hashLength) in Self.algorithms {
            #expect(SecKeyIsAlgorithmSupported(pub, .encrypt, algorithm))
            #expect(SecKeyIsAlgorithmSupported(key, .decrypt, algorithm))
            let maximum = size - 2 * hashLength - 2
            guard maximum >= 0 else {
                // SHA-512 does not fit a 1024-bit modulus: refused as a parameter, never computed.
                #expect(encrypt(pub, algorithm, Data()).1.map(CFErrorGetCode) == Int(errSecParam))
                continue
            }
            let options = ["-pkeyopt", "rsa_padding_mode:oaep", "-pkeyopt", "rsa_oaep_md:\(digest)", "-pkeyopt", "rsa_mgf1_md:\(digest)"]
            for secret in [Data("oaep \(digest)".utf8).prefix(maximum), Data(repeating: 0xa5, count: maximum), Data()] {
                let ours = try #require(encrypt(pub, algorithm, secret).0, "\(digest) \(bits)")
                #expect(ours.count == size)
                let theirsDecrypted = try openssl(["pkeyutl", "-decrypt", "-inkey", privatePEM.path] + options, input: ours)
                #expect(theirsDecrypted.status == 0 && theirsDecrypted.output == secret, "openssl decrypts ours: \(digest) \(bits)")
                let theirs = try openssl(["pkeyutl", "-encrypt", "-pubin", "-inkey", publicPEM.path] + options, input: secret)
                #expect(theirs.status == 0)
                #expect(decrypt(key, algorithm, theirs.output).0 == secret, "we decrypt openssl's: \(digest) \(bits)")
            }
            #expect(encrypt(pub, algorithm, Data(count: maximum + 1)).1.map(CFErrorGetCode) == Int(errSecParam))
            // Damage: a flipped bit anywhere, a wrong length, the wrong hash. One status for all.
            let ciphertext = try #require(encrypt(pub, algorithm, Data("tamper".utf8)).0)
            for position in [0, 1, size / 2, size - 1] {
                var tampered = ciphertext
                tampered[position] ^= 0x01
                let result = decrypt(key, algorithm, tampered)
                #expect(result.0 == nil && result.1.map(CFErrorGetCode) == Int(errSecParam), "\(digest) \(bits) byte \(position)")
            }
            #expect(decrypt(key, algorithm, ciphertext.dropLast()).1.map(CFErrorGetCode) == Int(errSecParam))
            let other = Self.algorithms.first { $0.1 != digest && $0.2 * 2 + 2 <= size }!.0
            #expect(decrypt(key, other, ciphertext).0 == nil)
        }
    }

    /// Apple's RSA-AES-GCM written independently with Python's `cryptography`: OAEP-unwrap the
    /// session key from the first block, then AES-GCM with 16 zero IV bytes and the PKCS#1 public
    /// key as associated data.
    static let pythonRSAAESGCM = """
    import sys
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import padding
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    key = serialization.load_der_private_key(bytes.fromhex(sys.argv[1]), None)
    data, name = bytes.fromhex(sys.argv[2]), sys.argv[3]
    h = {"SHA1": hashes.SHA1(), "SHA224": hashes.SHA224(), "SHA256": hashes.SHA256(), "SHA384": hashes.SHA384(), "SHA512": hashes.SHA512()}[name]
    size = key.key_size // 8
    session = key.decrypt(data[:size], padding.OAEP(mgf=padding.MGF1(algorithm=h), algorithm=h, label=None))
    public = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.PKCS1)
    print(AESGCM(session).decrypt(bytes(16), data[size:], public).hex())
    """

    @Test("OAEP-AES-GCM with every hash decrypts with Python cryptography and round-trips; a damaged tag is refused")
    func aesGCM() throws {
        let key = try makeKey([kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048])
        let pub = try publicKey(key)
        let long = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0) })
        for (algorithm, hash) in [(SecKeyAlgorithm.rsaEncryptionOAEPSHA1AESGCM, "SHA1"), (.rsaEncryptionOAEPSHA224AESGCM, "SHA224"),
                                  (.rsaEncryptionOAEPSHA256AESGCM, "SHA256"), (.rsaEncryptionOAEPSHA384AESGCM, "SHA384"),
                                  (.rsaEncryptionOAEPSHA512AESGCM, "SHA512")] {
            #expect(SecKeyIsAlgorithmSupported(pub, .encrypt, algorithm))
            var sealed = try #require(encrypt(pub, algorithm, long).0)
            #expect(sealed.count == 256 + long.count + 16)
            #expect(decrypt(key, algorithm, sealed).0 == long)
            let run = try python(Self.pythonRSAAESGCM, [try externalRepresentation(key).hex, sealed.hex, hash])
            #expect(run.status == 0)
            #expect(String(decoding: run.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == long.hex, "\(hash)")
            sealed[sealed.count - 1] ^= 1
            #expect(decrypt(key, algorithm, sealed).1.map(CFErrorGetCode) == Int(errSecParam))
        }
    }
}
