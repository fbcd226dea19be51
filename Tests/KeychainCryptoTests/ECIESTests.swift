import Crypto
import Foundation
import KeychainCrypto
import Testing

/// Our ECIES scheme around swift-crypto's ECDH. Apple publishes no vectors for it; what is
/// checked here is its composition (the X9.63 KDF, tested against NIST's vectors, keyed on the
/// ephemeral point) and its refusals. SecKeyInteropTests checks it against an independent
/// implementation in Python.
@Suite("ECIES: the scheme from the shared secret on")
struct ECIESTests {
    @Test("Key and IV are the X9.63 KDF of the secret with the ephemeral point as shared info", arguments: [256, 384, 521])
    func keyAndIV(_ curveBits: Int) {
        let secret = Data((0..<((curveBits + 7) / 8)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let point = Data([4]) + Data(repeating: 0x42, count: 2 * ((curveBits + 7) / 8))
        let keyLength = curveBits > 256 ? 32 : 16
        let derived = X963KDF.derive(secret: secret, hash: .sha256, sharedInfo: point, byteCount: keyLength + 16)
        let variable = ECIES.keyAndIV(secret: secret, ephemeralPublic: point, curveBits: curveBits, hash: .sha256, variableIV: true)
        #expect(variable.key == derived.prefix(keyLength) && variable.iv == derived.suffix(16))
        let fixed = ECIES.keyAndIV(secret: secret, ephemeralPublic: point, curveBits: curveBits, hash: .sha256, variableIV: false)
        #expect(fixed.key == derived.prefix(keyLength) && fixed.iv == Data(count: 16))
    }

    @Test("Sealed with one side's secret, opened with the other's; a changed tag or a short input is refused")
    func roundTrip() throws {
        let recipient = P256.KeyAgreement.PrivateKey(), ephemeral = P256.KeyAgreement.PrivateKey()
        let senderSecret = try ephemeral.sharedSecretFromKeyAgreement(with: recipient.publicKey).withUnsafeBytes { Data($0) }
        let point = ephemeral.publicKey.x963Representation
        let sealed = try ECIES.seal(Data("a secret".utf8), ephemeralPublicKey: point, sharedSecret: senderSecret,
                                    curveBits: 256, hash: .sha224, variableIV: true)
        #expect(sealed.prefix(point.count) == point)
        let received = try ECIES.ephemeralPublicKey(in: sealed, curveBits: 256)
        let recipientSecret = try recipient.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: received))
            .withUnsafeBytes { Data($0) }
        #expect(try ECIES.open(sealed, sharedSecret: recipientSecret, curveBits: 256, hash: .sha224, variableIV: true) == Data("a secret".utf8))
        var damaged = sealed
        damaged[damaged.count - 1] ^= 1
        #expect(throws: PrimitiveError.self) {
            try ECIES.open(damaged, sharedSecret: recipientSecret, curveBits: 256, hash: .sha224, variableIV: true)
        }
        #expect(throws: PrimitiveError.self) { try ECIES.ephemeralPublicKey(in: sealed.prefix(64), curveBits: 256) }
    }
}
