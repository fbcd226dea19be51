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
}
