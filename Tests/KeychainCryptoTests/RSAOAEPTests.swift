import Foundation
import KeychainCrypto
import Testing

/// Our RSAES-OAEP (for the hashes swift-crypto's `_RSA` lacks): the decoder's checks one by one,
/// each answering the same refusal, and the encoder's output decoding back.
@Suite("RSA-OAEP: EME-OAEP encoding and decoding")
struct RSAOAEPTests {
    static let hashes: [HashName] = [.sha1, .sha224, .sha256, .sha384, .sha512]

    @Test("Encoding then decoding gives the message back, for every length up to the maximum", arguments: hashes)
    func roundTrip(_ hash: HashName) throws {
        let k = 256, maximum = RSAOAEP.maximumMessageLength(modulusBytes: k, hash: hash)
        for length in [0, 1, maximum / 2, maximum] {
            let message = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let encoded = try RSAOAEP.encode(message, seed: Data(repeating: 0x5a, count: hash.byteCount), hash: hash, modulusBytes: k)
            #expect(encoded.count == k && encoded.first == 0)
            #expect(RSAOAEP.decode(encoded, hash: hash) == message)
        }
        #expect(throws: PrimitiveError.self) {
            try RSAOAEP.encode(Data(count: maximum + 1), seed: Data(count: hash.byteCount), hash: hash, modulusBytes: k)
        }
    }

    /// Unmasks an encoding (the masks are public functions of the masked parts), lets `damage`
    /// change DB or the first byte, and masks it again: a block with exactly one flaw.
    func damaged(_ hash: HashName, _ message: Data, _ damage: (inout [UInt8], inout [UInt8]) -> Void) throws -> Data {
        let k = 256, hLen = hash.byteCount
        let seed = Data(repeating: 0x33, count: hLen)
        let encoded = [UInt8](try RSAOAEP.encode(message, seed: seed, hash: hash, modulusBytes: k))
        var first = [encoded[0]]
        var db = zip(encoded[(hLen + 1)...], RSAPadding.mgf1(seed, length: k - hLen - 1, hash: hash)).map { $0 ^ $1 }
        damage(&first, &db)
        let maskedDB = Data(zip(db, RSAPadding.mgf1(seed, length: k - hLen - 1, hash: hash)).map { $0 ^ $1 })
        let maskedSeed = Data(zip(seed, RSAPadding.mgf1(maskedDB, length: hLen, hash: hash)).map { $0 ^ $1 })
        return Data(first) + maskedSeed + maskedDB
    }

    @Test("Each kind of padding flaw is refused alike: leading byte, label hash, separator, padding bytes", arguments: hashes)
    func flaws(_ hash: HashName) throws {
        let hLen = hash.byteCount, message = Data("m".utf8)
        // Unchanged, the helper's block decodes (so the flaws below are what is refused).
        #expect(RSAOAEP.decode(try damaged(hash, message) { _, _ in }, hash: hash) == message)
        let separator = 256 - hLen - 1 - message.count - 1
        let flaws: [(String, (inout [UInt8], inout [UInt8]) -> Void)] = [
            ("leading byte", { first, _ in first[0] = 1 }),
            ("label hash", { _, db in db[3] ^= 0x80 }),
            ("separator missing", { _, db in db[separator] = 0 }),
            ("separator not 01", { _, db in db[separator] = 2 }),
            ("non-zero padding byte", { _, db in db[hLen + 1] = 2 }),
            ("padding byte before the separator", { _, db in db[separator - 1] = 0xff }),
        ]
        for (name, flaw) in flaws {
            #expect(RSAOAEP.decode(try damaged(hash, message, flaw), hash: hash) == nil, "\(name)")
        }
        // A 01 inside the zeros is the separator: the message then starts earlier (a valid block).
        let early = try damaged(hash, message) { _, db in db[separator - 2] = 1 }
        #expect(RSAOAEP.decode(early, hash: hash) == Data([0, 1]) + message)
    }

    @Test("Arbitrary blocks of every small length decode to nothing or to a message, never a crash", arguments: [HashName.sha1, .sha512])
    func arbitraryBlocks(_ hash: HashName) {
        var generator = SystemRandomNumberGenerator()
        var accepted = 0
        for length in 0..<(2 * hash.byteCount + 40) {
            for _ in 0..<20 {
                let block = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
                if let message = RSAOAEP.decode(block, hash: hash) {
                    accepted += 1
                    #expect(message.count <= max(0, length - 2 * hash.byteCount - 2))
                }
            }
        }
        // A random block passes the label-hash check with probability 2^-(8·hLen): never, here.
        #expect(accepted == 0)
    }
}
