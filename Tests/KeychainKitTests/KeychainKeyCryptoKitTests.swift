import Crypto
import Foundation
import Testing
import KeychainServices
import KeychainTestSupport
import KeychainKit

/// CryptoKit (swift-crypto) keys in the keychain through KeychainKit: NIST keys as SecKey items,
/// Curve25519 keys as generic passwords (Apple's CryptoKit-in-keychain pattern), and typed
/// ECDSA signatures that swift-crypto checks on its own.
@Suite("KeychainKey and Keychain: CryptoKit key types")
struct KeychainKeyCryptoKitTests {
    @Test("A P-256 signing key stored, found by tag, loaded back equal, and signing as CryptoKit does")
    func p256Signing() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let original = P256.Signing.PrivateKey()
            try KeychainKey.store(original, tag: "com.example.p256", label: "CryptoKit key")
            let found = try #require(try KeychainKey.find(tag: "com.example.p256"))
            let loaded = try found.cryptoKitKey(P256.Signing.PrivateKey.self)
            #expect(loaded.rawRepresentation == original.rawRepresentation)
            let message = Data("typed".utf8)
            let signature: P256.Signing.ECDSASignature = try found.signature(for: message)
            // swift-crypto alone verifies the keychain's signature, and the keychain CryptoKit's.
            #expect(original.publicKey.isValidSignature(signature, for: message))
            #expect(found.isValidSignature(try original.signature(for: message), for: message))
            #expect(!found.isValidSignature(signature, for: Data("other".utf8)))
            #expect(try found.publicKey(P256.Signing.PublicKey.self).rawRepresentation == original.publicKey.rawRepresentation)
            // The same key again under the same tag is a duplicate, as SecItemAdd says.
            #expect(throws: KeychainError.self) { try KeychainKey.store(original, tag: "com.example.p256") }
            try KeychainKey.delete(tag: "com.example.p256")
            #expect(try KeychainKey.find(tag: "com.example.p256") == nil)
        }
    }

    @Test("P-384 and P-521 keys sign with their CryptoKit hashes; key agreement keys round-trip")
    func otherCurves() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let p384 = P384.Signing.PrivateKey()
            let key384 = try KeychainKey.store(p384, tag: "p384")
            let message = Data("curves".utf8)
            let signature384: P384.Signing.ECDSASignature = try key384.signature(for: message)
            #expect(p384.publicKey.isValidSignature(signature384, for: message))
            let p521 = P521.Signing.PrivateKey()
            let key521 = try KeychainKey.store(p521, tag: "p521")
            let signature521 = try key521.signature(for: message, as: P521.Signing.ECDSASignature.self)
            #expect(p521.publicKey.isValidSignature(signature521, for: message))
            #expect(key521.isValidSignature(signature521, for: message))

            let agreement = P256.KeyAgreement.PrivateKey()
            try KeychainKey.store(agreement, tag: "agreement")
            let loaded = try #require(try KeychainKey.find(tag: "agreement")).cryptoKitKey(P256.KeyAgreement.PrivateKey.self)
            let peer = P256.KeyAgreement.PrivateKey()
            let ours = try loaded.sharedSecretFromKeyAgreement(with: peer.publicKey).withUnsafeBytes { Data($0) }
            let theirs = try peer.sharedSecretFromKeyAgreement(with: agreement.publicKey).withUnsafeBytes { Data($0) }
            #expect(ours == theirs)
            // Read as the wrong curve: a decode error, not a crash or a wrong key.
            #expect(throws: KeychainError.self) { try key384.cryptoKitKey(P256.Signing.PrivateKey.self) }
        }
    }

    @Test("Curve25519 keys as generic passwords: stored, replaced, loaded, and refused when the bytes are not a key")
    func curve25519() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let keychain = Keychain(service: "com.example.cryptokit")
            #expect(try keychain.cryptoKey(Curve25519.Signing.PrivateKey.self, key: "signing") == nil)
            let signing = Curve25519.Signing.PrivateKey()
            try keychain.setCryptoKey(signing, key: "signing")
            let loaded = try #require(try keychain.cryptoKey(Curve25519.Signing.PrivateKey.self, key: "signing"))
            #expect(loaded.rawRepresentation == signing.rawRepresentation)
            let message = Data("ed25519".utf8)
            #expect(signing.publicKey.isValidSignature(try loaded.signature(for: message), for: message))
            let replacement = Curve25519.KeyAgreement.PrivateKey()
            try keychain.setCryptoKey(replacement, key: "signing")
            #expect(try keychain.cryptoKey(Curve25519.KeyAgreement.PrivateKey.self, key: "signing")?.rawRepresentation == replacement.rawRepresentation)
            try keychain.set(Data([1, 2, 3]), key: "garbage")
            #expect(throws: KeychainError.self) { try keychain.cryptoKey(Curve25519.Signing.PrivateKey.self, key: "garbage") }
        }
    }
}
