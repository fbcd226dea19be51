import Crypto
import Foundation
import Testing
import KeychainServices

/// EC keys are generated from a random scalar (not swift-crypto's `init()`, for speed): every
/// key must be a valid, distinct key whose public point is its scalar's, on every curve.
@Suite("SecKey: EC key generation")
struct ECKeyGenerationTests {
    @Test("Generated keys are distinct, valid for swift-crypto (which checks the point against the scalar) and sign", arguments: [256, 384, 521])
    func generatedKeysAreValid(_ bits: Int) throws {
        var scalars: Set<Data> = []
        for _ in 0..<20 {
            let key = try ecKey(bits)
            let external = try externalRepresentation(key)
            let bytes = (bits + 7) / 8
            #expect(external.count == 1 + 3 * bytes && external.first == 4)
            // swift-crypto's X9.63 reader sets the scalar, then the point, and refuses a point
            // that is not the scalar's: a generated key that loads is a consistent key.
            let message = Data("generated".utf8)
            switch bits {
            case 256:
                let loaded = try P256.Signing.PrivateKey(x963Representation: external)
                let signature = try P256.Signing.ECDSASignature(derRepresentation: try #require(sign(key, .ecdsaSignatureMessageX962SHA256, message).0))
                #expect(loaded.publicKey.isValidSignature(signature, for: message))
            case 384:
                let loaded = try P384.Signing.PrivateKey(x963Representation: external)
                let signature = try P384.Signing.ECDSASignature(derRepresentation: try #require(sign(key, .ecdsaSignatureMessageX962SHA384, message).0))
                #expect(loaded.publicKey.isValidSignature(signature, for: message))
            default:
                let loaded = try P521.Signing.PrivateKey(x963Representation: external)
                let signature = try P521.Signing.ECDSASignature(derRepresentation: try #require(sign(key, .ecdsaSignatureMessageX962SHA512, message).0))
                #expect(loaded.publicKey.isValidSignature(signature, for: message))
            }
            scalars.insert(external.suffix(bytes))
        }
        #expect(scalars.count == 20)
    }

    /// The generator draws a scalar and relies on swift-crypto (BoringSSL) to refuse one that is
    /// zero or not below the curve's order, drawing again when it does. If that refusal ever went
    /// away, a draw at or above the order would become a wrong key: this pins it.
    @Test("swift-crypto refuses a zero scalar and one at or above the order, which the generator's redraw depends on")
    func outOfRangeScalarsAreRefused() {
        // All ones is above each order (P-521: 2^521 - 1, the top byte keeping its one bit).
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(rawRepresentation: Data(repeating: 0xff, count: 32)) }
        #expect(throws: (any Error).self) { try P384.Signing.PrivateKey(rawRepresentation: Data(repeating: 0xff, count: 48)) }
        #expect(throws: (any Error).self) { try P521.Signing.PrivateKey(rawRepresentation: Data([0x01] + Array(repeating: 0xff, count: 65))) }
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(rawRepresentation: Data(count: 32)) }
        #expect(throws: (any Error).self) { try P384.Signing.PrivateKey(rawRepresentation: Data(count: 48)) }
        #expect(throws: (any Error).self) { try P521.Signing.PrivateKey(rawRepresentation: Data(count: 66)) }
        // The P-256 order itself (n), the smallest value that must be refused, and n - 1, the largest accepted.
        let order = Data([0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                          0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51])
        #expect(throws: (any Error).self) { try P256.Signing.PrivateKey(rawRepresentation: order) }
        var belowOrder = order
        belowOrder[31] -= 1
        #expect((try? P256.Signing.PrivateKey(rawRepresentation: belowOrder)) != nil)
    }
}
