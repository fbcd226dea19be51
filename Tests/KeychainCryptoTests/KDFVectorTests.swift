import Foundation
import KeychainCrypto
import Testing

/// The two key derivations written here, against published vectors: the ANSI X9.63 KDF of
/// SEC 1 §3.6.1 against NIST CAVP's component tests (ansx963_2001.rsp), and the PKCS#12 KDF of
/// RFC 7292 appendix B against the vector set Stephen Henson published with OpenSSL's
/// implementation (RFC 7292 itself gives none). And HMAC-SHA-224, ours because swift-crypto's HMAC
/// takes only its own hashes, against RFC 4231.
@Suite("KDFs and HMAC-SHA-224: published vectors")
struct KDFVectorTests {
    /// ansx963_2001.rsp: hash, Z, SharedInfo, key data (its length is the requested length).
    static let x963Cases: [(hash: HashName, z: String, sharedInfo: String, keyData: String)] = [
        (.sha1, "1c7d7b5f0597b03d06a018466ed1a93e30ed4b04dc64ccdd", "", "bf71dffd8f4d99223936beb46fee8ccc"),
        (.sha256, "96c05619d56c328ab95fe84b18264b08725b85e33fd34f08", "", "443024c3dae66b95e6f5670601558f71"),
        (.sha256, "96f600b73ad6ac5629577eced51743dd2c24c21b1ac83ee4", "", "b6295162a7804f5667ba9070f82fa522"),
        (.sha256, "22518b10e70f2a3f243810ae3254139efbee04aa57c7af7d", "75eef81aa3041e33b80971203d2c0c52",
         """
         c498af77161cc59f2962b9a713e2b215152d139766ce34a776df11866a69bf2e52a13d9c7c6fc878c50c5ea0bc7b00e0da2447cfd874f6cf92\
         f30d0097111485500c90c3af8b487872d04685d14c8d1dc8d7fa08beb0ce0ababc11f0bd496269142d43525a78e5bc79a17f59676a5706dc54\
         d54d4d1f0bd7e386128ec26afc21
         """),
        (.sha384, "d8554db1b392cd55c3fe957bed76af09c13ac2a9392f88f6", "", "671a46aada145162f8ddf1ca586a1cda"),
        (.sha384, "c051fd22539c9de791d6c43a854b8f80a6bf70190050854a", "1317504aa34759bb4c931e3b78201945",
         """
         cf6a84434734ac6949e1d7976743277be789906908ad3ca3a8923da7f476abbeb574306d7243031a85566914bfd247d2519c479953d9d55b6b8\
         31e56260806c39af21b74e3ecf470e3bd8332791c8a23c13352514fdef00c2d1a408ba31b2d3f9fdcb373895484649a645d1845eec91b5bfdc\
         5ad28c7824984482002dd4a8677
         """),
        (.sha512, "87fc0d8c4477485bb574f5fcea264b30885dc8d90ad82782", "", "947665fbb9152153ef460238506a0245"),
        (.sha512,
         "00aa5bb79b33e389fa58ceadc047197f14e73712f452caa9fc4c9adb369348b81507392f1a86ddfdb7c4ff8231c4bd0f44e44a1b55b1404747a9e2e753f55ef05a2d",
         "e3b5b4c1b0d5cf1d2b3a2f9937895d31",
         """
         4463f869f3cc18769b52264b0112b5858f7ad32a5a2d96d8cffabf7fa733633d6e4dd2a599acceb3ea54a6217ce0b50eef4f6b40a5c30250a5\
         a8eeee208002267089dbf351f3f5022aa9638bf1ee419dea9c4ff745a25ac27bda33ca08bd56dd1a59b4106cf2dbbc0ab2aa8e2efa7b17902d\
         34276951ceccab87f9661c3e8816
         """),
    ]

    @Test("NIST CAVP ansx963_2001: SHA-1, SHA-256, SHA-384, SHA-512, with and without SharedInfo, one block and many")
    func x963Vectors() throws {
        for vector in Self.x963Cases {
            let expected = try bytes(vector.keyData)
            let derived = X963KDF.derive(secret: try bytes(vector.z), hash: vector.hash, sharedInfo: try bytes(vector.sharedInfo),
                                         byteCount: expected.count)
            #expect(derived.hex == expected.hex, "\(vector.hash) \(vector.z.prefix(12))")
        }
    }

    /// Henson's PKCS#12 KDF set (SHA-1): password, salt, purpose (1 key, 2 IV, 3 MAC),
    /// iterations, output.
    static let pkcs12Cases: [(password: String, salt: String, purpose: PKCS12KeyDerivation.Purpose, iterations: Int, output: String)] = [
        ("smeg", "0A58CF64530D823F", .key, 1, "8AAAE6297B6CB04642AB5B077851284EB7128F1A2A7FBCA3"),
        ("smeg", "0A58CF64530D823F", .iv, 1, "79993DFE048D3B76"),
        ("smeg", "642B99AB44FB4B1F", .key, 1, "F3A95FEC48D7711E985CFE67908C5AB79FA3D7C5CAA5D966"),
        ("smeg", "642B99AB44FB4B1F", .iv, 1, "C0A38D64A79BEA1D"),
        ("smeg", "3D83C0E4546AC140", .mac, 1, "8D967D88F6CAA9D714800AB3D48051D63F73A312"),
        ("queeg", "05DEC959ACFF72F7", .key, 1000, "ED2034E36328830FF09DF1E1A07DD357185DAC0D4F9EB3D4"),
        ("queeg", "05DEC959ACFF72F7", .iv, 1000, "11DEDAD7758D4860"),
        ("queeg", "1682C0FC5B3F7EC5", .key, 1000, "483DD6E919D7DE2E8E648BA8F862F3FBFBDC2BCB2C02957F"),
        ("queeg", "1682C0FC5B3F7EC5", .iv, 1000, "9D461D1B00355C50"),
        ("queeg", "263216FCC2FAB31C", .mac, 1000, "5EC4C7A80DF652294C3925B6489A7AB857C83476"),
    ]

    @Test("PKCS#12 KDF: the ten SHA-1 vectors (key, IV and MAC purposes; 1 and 1000 iterations; outputs past one block)")
    func pkcs12Vectors() throws {
        // The password encoding first: "smeg" is 0073 006D 0065 0067 0000 in the set's debug output.
        #expect(PKCS12KeyDerivation.passwordBytes("smeg").hex == "0073006d006500670000")
        for vector in Self.pkcs12Cases {
            let expected = try bytes(vector.output)
            let derived = PKCS12KeyDerivation.derive(password: PKCS12KeyDerivation.passwordBytes(vector.password),
                                                     salt: [UInt8](try bytes(vector.salt)), iterations: vector.iterations,
                                                     purpose: vector.purpose, digest: .sha1, length: expected.count)
            #expect(derived.hex == expected.hex, "\(vector.password) \(vector.salt) \(vector.purpose)")
        }
    }

    @Test("PKCS#12 KDF with SHA-256 (v = 64) agrees with OpenSSL's PKCS12_key_gen for a MAC key of 2048 rounds")
    func pkcs12SHA256() throws {
        // PKCS12_key_gen("123456", salt e241f01650dbeae4, id 3, 2048 iterations, 32 bytes, SHA-256).
        let derived = PKCS12KeyDerivation.derive(password: PKCS12KeyDerivation.passwordBytes("123456"),
                                                 salt: [UInt8](try bytes("e241f01650dbeae4")), iterations: 2048,
                                                 purpose: .mac, digest: .sha256, length: 32)
        #expect(derived.hex == "721259f14aad70b58839f71566b433da1b8ad08f650f4d02faaa0b9b095bb51d")
    }

    @Test("HMAC-SHA-224: RFC 4231 test cases 1 and 2; the other hashes agree with the same cases")
    func hmacVectors() throws {
        let key1 = [UInt8](repeating: 0x0b, count: 20), data1 = Array("Hi There".utf8)
        let key2 = Array("Jefe".utf8), data2 = Array("what do ya want for nothing?".utf8)
        #expect(HashName.sha224.hmac(key: key1, data: data1).hex == "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22")
        #expect(HashName.sha224.hmac(key: key2, data: data2).hex == "a30e01098bc6dbbf45690f3a7e9e6d0f8bbea2a39e6148008fd05e44")
        #expect(HashName.sha256.hmac(key: key1, data: data1).hex == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // A key longer than the block is hashed first (RFC 4231 test case 6's key shape).
        let longKey = [UInt8](repeating: 0xaa, count: 131)
        #expect(HashName.sha224.hmac(key: longKey, data: data1) == HashName.sha224.hmac(key: [UInt8](HashName.sha224.hash(Data(longKey))), data: data1))
    }
}
