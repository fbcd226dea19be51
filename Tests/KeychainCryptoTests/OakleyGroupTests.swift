import Crypto
import Foundation
import KeychainCrypto
import Testing

/// The Secret Service's Diffie-Hellman group against its publication, and what the group
/// accepts as a public key.
@Suite("DH: RFC 2409's Second Oakley Group")
struct OakleyGroupTests {
    /// RFC 2409 section 6.2, the prime as the RFC prints it (and RFC 3526 repeats as the base of
    /// its larger groups' construction: 2^n − 2^(n−64) − 1 + 2^64 · ⌊2^(n−130) π + k⌋).
    static let rfc2409Prime = """
        FFFFFFFF FFFFFFFF C90FDAA2 2168C234 C4C6628B 80DC1CD1
        29024E08 8A67CC74 020BBEA6 3B139B22 514A0879 8E3404DD
        EF9519B3 CD3A431B 302B0A6D F25F1437 4FE1356D 6D51C245
        E485B576 625E7EC6 F44C42E9 A637ED6B 0BFF5CB6 F406B7ED
        EE386BFB 5A899FA5 AE9F2411 7C4B1FE6 49286651 ECE65381
        FFFFFFFF FFFFFFFF
        """

    @Test("The prime is RFC 2409's, the generator 2, and p mod 2^64 is all ones as the construction makes it")
    func groupParameters() throws {
        #expect(Data(OakleyGroup2.prime.bigEndianBytes).hex == (try bytes(Self.rfc2409Prime)).hex)
        var two = UInt1024(); two[0] = 2
        #expect(OakleyGroup2.generator.bigEndianBytes == two.bigEndianBytes)
        #expect(OakleyGroup2.prime[0] == .max && OakleyGroup2.prime[15] == .max)
    }

    @Test("Public keys: 1…128 bytes, or 129 with a leading zero; 0, 1, p−1 and p refused")
    func publicKeys() throws {
        let prime = try bytes(Self.rfc2409Prime)
        var pMinusOne = prime; pMinusOne[pMinusOne.count - 1] -= 1
        var pMinusTwo = prime; pMinusTwo[pMinusTwo.count - 1] -= 2
        #expect(OakleyGroup2.publicKey(from: Data([2])) != nil)
        #expect(OakleyGroup2.publicKey(from: pMinusTwo) != nil)
        #expect(OakleyGroup2.publicKey(from: Data([0]) + pMinusTwo) != nil)
        for refused in [Data(), Data([0]), Data([1]), pMinusOne, prime, Data([1]) + pMinusTwo, Data(count: 130)] {
            #expect(OakleyGroup2.publicKey(from: refused) == nil, "\(refused.count) bytes")
        }
    }

    @Test("Both sides agree: g^(ab) from each side gives the same AES key")
    func agreement() throws {
        var a = OakleyGroup2.randomPrivateExponent(), b = OakleyGroup2.randomPrivateExponent()
        let bPublic = OakleyGroup2.modulus.power(OakleyGroup2.generator, b)
        let fromA = OakleyGroup2.agree(clientPublicKey: bPublic, privateExponent: &a)
        let aPublic = try #require(OakleyGroup2.publicKey(from: fromA.publicKey))
        let fromB = OakleyGroup2.agree(clientPublicKey: aPublic, privateExponent: &b)
        #expect(fromA.aesKey == fromB.aesKey)
        // agree wiped both exponents.
        #expect(a.bigEndianBytes == UInt1024.zero.bigEndianBytes && b.bigEndianBytes == UInt1024.zero.bigEndianBytes)
    }
}
