import Foundation
import KeychainCrypto
import Testing

/// Our SHA-224 (swift-crypto has none) against the examples NIST publishes for FIPS 180-4.
@Suite("SHA-224: known answers")
struct SHA224Tests {
    @Test("FIPS 180-4 examples: empty, one block, two blocks, a million a's")
    func knownAnswers() {
        #expect(SHA224.hash(data: Data()).hex == "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f")
        #expect(SHA224.hash(data: Data("abc".utf8)).hex == "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
        #expect(SHA224.hash(data: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hex
            == "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525")
        #expect(SHA224.hash(data: Data(repeating: UInt8(ascii: "a"), count: 1_000_000)).hex
            == "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67")
        #expect(HashName.sha224.hash(Data("abc".utf8)).count == HashName.sha224.byteCount)
    }

}

/// Our SHA-224 against `openssl dgst -sha224` on random inputs of every length around the block
/// boundaries. Spawns openssl, so scripts/sanitizers.sh skips it.
@Suite("SHA-224: against openssl")
struct SHA224OpenSSLTests {
    @Test("Random inputs of lengths around the padding boundaries agree with openssl dgst -sha224")
    func againstOpenSSL() throws {
        var generator = SystemRandomNumberGenerator()
        let lengths = Array(0...3) + Array(52...72) + Array(116...132) + [255, 256, 1000, 4097] + (0..<8).map { _ in Int.random(in: 0...20_000, using: &generator) }
        for length in lengths {
            let input = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let run = try openssl(["dgst", "-sha224", "-binary"], input: input)
            #expect(run.status == 0)
            #expect(SHA224.hash(data: input) == run.output, "length \(length)")
        }
    }
}
