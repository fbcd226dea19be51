import Crypto
import Foundation
import Testing
import KeychainServices
import KeychainTestSupport
import KeychainKit

@Suite("KeychainKey: typed keys in the keychain")
struct KeychainKeyTests {
    @Test("Generate, find by tag, sign and verify with CryptoKit's types, encrypt and decrypt, delete")
    func lifecycle() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let key = try KeychainKey.generate(.p256, tag: "com.example.key", label: "Example")
            let found = try #require(try KeychainKey.find(tag: "com.example.key"))
            #expect(found.secKey == key.secKey)
            let message = Data("hello".utf8)
            // Signed through the keychain's key, checked by swift-crypto alone.
            let signature = try P256.Signing.ECDSASignature(derRepresentation: found.sign(message))
            #expect(try P256.Signing.PublicKey(x963Representation: key.publicKeyData()).isValidSignature(signature, for: message))
            #expect(found.isValidSignature(try found.sign(message), for: message))
            #expect(!found.isValidSignature(try found.sign(message), for: Data("other".utf8)))
            let ciphertext = try key.encrypt(Data(repeating: 9, count: 500))
            #expect(try found.decrypt(ciphertext) == Data(repeating: 9, count: 500))
            try KeychainKey.delete(tag: "com.example.key")
            #expect(try KeychainKey.find(tag: "com.example.key") == nil)
            try KeychainKey.delete(tag: "com.example.key")
        }
    }

    @Test("RSA keys sign with PSS and encrypt with OAEP and AES-GCM by default; errors carry the status")
    func rsa() throws {
        try withTestKeychain { (_: TestKeychain) throws in
            let key = try KeychainKey.generate(.rsa(bits: 2048), tag: "com.example.rsa")
            #expect(key.isRSA && key.defaultSignatureAlgorithm == .rsaSignatureMessagePSSSHA256)
            #expect(key.isValidSignature(try key.sign(Data("m".utf8)), for: Data("m".utf8)))
            #expect(try key.decrypt(key.encrypt(Data(repeating: 1, count: 1000))) == Data(repeating: 1, count: 1000))
            #expect(throws: KeychainError.self) { try key.sign(Data("m".utf8), algorithm: .ecdsaSignatureMessageX962SHA256) }
            #expect(throws: KeychainError.self) { try KeychainKey.generate(.rsa(bits: 100), tag: "small") }
        }
    }
}
