import Crypto
import Foundation
@testable import KeychainStore
import Testing

/// The blind index computes HMAC-SHA256 itself (from pre-padded SHA-256 states): its bytes must
/// be swift-crypto's `HMAC<SHA256>`'s, or every index already in a keychain file would be lost.
@Suite struct BlindIndexTests {
    /// Keys shorter than, equal to and longer than SHA-256's 64-byte block.
    static let keyLengths = [16, 32, 64, 65, 100]

    @Test("An attribute's index is the first 16 bytes of HMAC-SHA256 over its name, a zero byte and its match bytes")
    func attributeIndexIsHMAC() {
        for keyLength in Self.keyLengths {
            let key = SymmetricKey(data: (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
            let index = BlindIndex(key: key)
            for value in ["", "a", String(repeating: "long value ", count: 20)] {
                let bytes = Array(value.utf8)
                let expected = Array(HMAC<SHA256>.authenticationCode(for: Array("acct".utf8) + [0] + bytes, using: key)).prefix(16)
                #expect(Array(index.index("acct", matchBytes: bytes)) == Array(expected))
            }
        }
    }

    @Test("A primary key's index is the first 16 bytes of HMAC-SHA256 over its length-prefixed parts")
    func primaryKeyIndexIsHMAC() {
        let key = SymmetricKey(size: .bits256)
        let parts: [(name: String, bytes: [UInt8])] = [("acct", [0x62, 0x61]), ("svce", []), ("agrp", Array("group".utf8))]
        var input = Array("pk:genp".utf8)
        for part in parts {
            input += part.name.utf8
            input += [UInt8(part.bytes.count), 0, 0, 0]
            input += part.bytes
        }
        let expected = Array(HMAC<SHA256>.authenticationCode(for: input, using: key)).prefix(16)
        #expect(Array(BlindIndex(key: key).primaryKey("genp", parts)) == Array(expected))
    }
}
