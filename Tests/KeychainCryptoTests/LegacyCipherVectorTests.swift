import Foundation
import KeychainCrypto
import Testing

/// RC2, DES, triple DES and RC4, the ciphers of older PKCS#12 files, against published vectors:
/// RFC 2268 §5 for RC2; RFC 6229 §2 for RC4 (the key streams of its 40- and 128-bit keys); for DES the worked example of the FIPS 46 tutorial literature
/// (key 133457799BBCDFF1), FIPS 81 appendix B's ECB example, and the first variable-plaintext
/// known answer of NIST SP 800-20; for triple DES the example of NIST SP 800-67 appendix B. CBC
/// with PKCS#7 padding is checked against the real `openssl enc`.
@Suite("RC2, DES, triple DES, RC4: published vectors")
struct LegacyCipherVectorTests {
    /// RFC 2268 §5: key, effective key bits, plaintext, ciphertext.
    static let rc2Cases: [(key: String, bits: Int, plaintext: String, ciphertext: String)] = [
        ("0000000000000000", 63, "0000000000000000", "ebb773f993278eff"),
        ("ffffffffffffffff", 64, "ffffffffffffffff", "278b27e42e2f0d49"),
        ("3000000000000000", 64, "1000000000000001", "30649edf9be7d2c2"),
        ("88", 64, "0000000000000000", "61a8a244adacccf0"),
        ("88bca90e90875a", 64, "0000000000000000", "6ccf4308974c267f"),
        ("88bca90e90875a7f0f79c384627bafb2", 64, "0000000000000000", "1a807d272bbe5db1"),
        ("88bca90e90875a7f0f79c384627bafb2", 128, "0000000000000000", "2269552ab0f85ca6"),
        ("88bca90e90875a7f0f79c384627bafb216f80a6f85920584c42fceb0be255daf1e", 129, "0000000000000000", "5b78d3a43dfff1f1"),
    ]

    @Test("RC2 encrypts RFC 2268's vectors and decrypts them back", arguments: rc2Cases)
    func rc2(_ vector: (key: String, bits: Int, plaintext: String, ciphertext: String)) throws {
        let cipher = try RC2(key: [UInt8](try bytes(vector.key)), effectiveBits: vector.bits)
        let encrypted = cipher.encryptECB([UInt8](try bytes(vector.plaintext)))
        #expect(encrypted.hex == vector.ciphertext)
        #expect(cipher.decryptECB(encrypted).hex == vector.plaintext)
    }

    @Test("PITABLE is a permutation of the 256 byte values")
    func piTableIsAPermutation() {
        #expect(Set(RC2.piTable).count == 256 && RC2.piTable.count == 256)
    }

    /// Key, plaintext, ciphertext.
    static let desCases: [(key: String, plaintext: String, ciphertext: String)] = [
        ("133457799bbcdff1", "0123456789abcdef", "85e813540f0ab405"),
        ("0123456789abcdef", "4e6f772069732074", "3fa40e8a984d4815"),  // FIPS 81: "Now is t"
        ("0101010101010101", "8000000000000000", "95f8a5e5dd31d900"),  // SP 800-20, table 1, round 0
        ("0101010101010101", "4000000000000000", "dd7f121ca5015619"),  // round 1
    ]

    @Test("DES encrypts the published vectors and decrypts them back", arguments: desCases)
    func des(_ vector: (key: String, plaintext: String, ciphertext: String)) throws {
        let cipher = try DES(key: [UInt8](try bytes(vector.key)))
        let encrypted = cipher.encryptECB([UInt8](try bytes(vector.plaintext)))
        #expect(encrypted.hex == vector.ciphertext)
        #expect(cipher.decryptECB(encrypted).hex == vector.plaintext)
    }

    @Test("Each S-box row is a permutation of 0…15")
    func sBoxRows() {
        for box in DES.sBoxes {
            for row in 0..<4 { #expect(Set(box[(16 * row)..<(16 * row + 16)]) == Set(0..<16)) }
        }
    }

    @Test("Triple DES: SP 800-67's example, and one key thrice is single DES")
    func tripleDES() throws {
        let cipher = try TripleDES(key: [UInt8](try bytes("0123456789abcdef 23456789abcdef01 456789abcdef0123")))
        let encrypted = cipher.encryptECB(Array("The qufck brown fox jump".utf8))
        #expect(encrypted.hex == "a826fd8ce53b855fcce21c8112256fe668d5c05dd9b6b900")
        #expect(cipher.decryptECB(encrypted) == Array("The qufck brown fox jump".utf8))
        let key = [UInt8](try bytes("133457799bbcdff1"))
        #expect(try TripleDES(key: key + key + key).encryptECB([UInt8](try bytes("0123456789abcdef"))).hex == "85e813540f0ab405")
        #expect(try TripleDES(key: key + key).encryptECB([UInt8](try bytes("0123456789abcdef"))).hex == "85e813540f0ab405")
    }

    @Test("RC4's key stream is RFC 6229's, and applying it twice gives the data back")
    func rc4() throws {
        let short = try RC4(key: [UInt8](try bytes("0102030405")))
        #expect(short.apply([UInt8](repeating: 0, count: 32)).hex
                == "b2396305f03dc027ccc3524a0a1118a8" + "6982944f18fc82d589c403a47a0d0919")
        let long = try RC4(key: [UInt8](try bytes("0102030405060708090a0b0c0d0e0f10")))
        #expect(long.apply([UInt8](repeating: 0, count: 16)).hex == "9ac7cc9a609d1ef7b2932899cde41b97")
        let message = Array("a message of some length".utf8)
        #expect(long.apply(long.apply(message)) == message)
        #expect(throws: PrimitiveError.self) { try RC4(key: []) }
    }

    @Test("Keys of the wrong size are refused")
    func keySizes() {
        #expect(throws: PrimitiveError.self) { try DES(key: [1, 2, 3]) }
        #expect(throws: PrimitiveError.self) { try TripleDES(key: [UInt8](repeating: 1, count: 20)) }
        #expect(throws: PrimitiveError.self) { try RC2(key: [], effectiveBits: 40) }
        #expect(throws: PrimitiveError.self) { try RC2(key: [1], effectiveBits: 0) }
    }

    /// `openssl enc` encrypts a message of every length across two blocks in CBC with PKCS#7
    /// padding; ours must decrypt each, and refuse the result of a wrong key or damaged padding.
    @Test("CBC decryption with PKCS#7 padding matches openssl enc (des-ede3-cbc, rc2-40-cbc, rc2-cbc)")
    func cbcAgainstOpenSSL() throws {
        let key3 = [UInt8]((0..<24).map { UInt8($0 * 7 + 1) })
        let iv = [UInt8]((0..<8).map { UInt8(0xA0 + $0) })
        let ciphers: [(name: String, key: [UInt8], make: ([UInt8]) throws -> any LegacyBlockCipher)] = [
            ("des-ede3-cbc", key3, { try TripleDES(key: $0) }),
            ("rc2-40-cbc", Array(key3.prefix(5)), { try RC2(key: $0, effectiveBits: 40) }),
            ("rc2-cbc", Array(key3.prefix(16)), { try RC2(key: $0, effectiveBits: 128) }),
        ]
        for (name, key, make) in ciphers {
            let cipher = try make(key)
            for length in [0, 1, 7, 8, 9, 16] {
                let message = Data((0..<length).map { UInt8($0 + 0x41) })
                let (status, ciphertext) = try openssl(["enc", "-\(name)", "-provider", "legacy", "-provider", "default",
                                                        "-K", key.hex, "-iv", iv.hex], input: message)
                try #require(status == 0, "openssl enc -\(name)")
                #expect(try cipher.decryptCBC([UInt8](ciphertext), iv: iv) == [UInt8](message), "\(name), \(length) bytes")
                var damaged = [UInt8](ciphertext)
                damaged[damaged.count - 1] ^= 0x01
                // A changed last byte breaks the padding unless it happens to read as valid
                // padding of another length; either way it is not the message.
                #expect((try? cipher.decryptCBC(damaged, iv: iv)) != [UInt8](message))
            }
            #expect(throws: PrimitiveError.self) { try cipher.decryptCBC([1, 2, 3], iv: iv) }
            #expect(throws: PrimitiveError.self) { try cipher.decryptCBC([], iv: iv) }
            #expect(throws: PrimitiveError.self) { try cipher.decryptCBC([UInt8](repeating: 0, count: 8), iv: [1]) }
        }
    }
}
