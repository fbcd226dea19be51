import Foundation
import KeychainAuthentication
import KeychainServices
import KeychainStore
import KeychainTestSupport
import Testing

/// A key whose access control carries `.privateKeyUsage` is found without authentication and
/// asks for the keychain password when it is used, as Apple's keys do; an LAContext given with the
/// query carries one authentication over several uses.
@Suite struct RulesKeyPresenceTests {
    static let password = "keychain-pw"
    static let tag = Data("com.example.guarded".utf8)

    func withKeychain(user: ScriptedUser, _ body: () throws -> Void) throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword(Self.password, currentPassword: nil)
        try KeychainAuthenticators.withAuthenticator(user.authenticator, simulatedBiometry: false) {
            try keychain.run { try body() }
        }
    }

    func guardedKey() throws -> SecKey {
        let access = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                                                                  [.privateKeyUsage, .userPresence], nil))
        return try makeKey([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256,
                            kSecPrivateKeyAttrs: [kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Self.tag,
                                                  kSecAttrAccessControl as String: access]])
    }

    func fetch(_ extra: [CFString: Any] = [:]) throws -> SecKey {
        var query = item([kSecClass: kSecClassKey, kSecAttrApplicationTag: Self.tag, kSecReturnRef: true,
                          kSecUseOperationPrompt: "Sign the document"])
        for (name, value) in extra { query[name as String] = value }
        let (status, result) = copyMatching(query)
        #expect(status == errSecSuccess)
        return try #require(result as? SecKey)
    }

    @Test("Fetching asks nothing; signing asks with the query's prompt; a wrong password fails the signature")
    func asksAtUse() throws {
        let user = ScriptedUser(.password(Self.password), .password("wrong"), .password("wrong"), .password("wrong"))
        try withKeychain(user: user) {
            let created = try guardedKey()
            let stored = try fetch()
            #expect(user.requests.isEmpty, "fetching the key does not prompt")
            let message = Data("contract".utf8)
            let (signature, error) = sign(stored, .ecdsaSignatureMessageX962SHA256, message)
            #expect(error == nil)
            #expect(verify(created, .ecdsaSignatureMessageX962SHA256, message, try #require(signature)).0)
            #expect(user.requests.map(\.reason) == ["Sign the document"])
            // Each use asks again without a context; three wrong answers fail it.
            let (second, failure) = sign(stored, .ecdsaSignatureMessageX962SHA256, message)
            #expect(second == nil && failure.map(CFErrorGetCode) == Int(errSecAuthFailed))
            // Verifying and the public key need nothing.
            #expect(SecKeyCopyPublicKey(stored) != nil)
            #expect(user.requests.count == 4)
        }
    }

    @Test("An LAContext given with the query serves several uses with one authentication")
    func contextServesSeveralUses() throws {
        let user = ScriptedUser(.password(Self.password))
        try withKeychain(user: user) {
            _ = try guardedKey()
            let context = LAContext()
            let stored = try fetch([kSecUseAuthenticationContext: context])
            for _ in 0..<3 { #expect(sign(stored, .ecdsaSignatureMessageX962SHA256, Data("x".utf8)).0 != nil) }
            #expect(user.requests.count == 1)
        }
    }

    @Test("kSecUseAuthenticationUI fail: using the key without a held authentication is errSecInteractionNotAllowed")
    func noInteraction() throws {
        let user = ScriptedUser(.password(Self.password))
        try withKeychain(user: user) {
            _ = try guardedKey()
            let stored = try fetch([kSecUseAuthenticationUI: kSecUseAuthenticationUIFail])
            #expect(sign(stored, .ecdsaSignatureMessageX962SHA256, Data("x".utf8)).1.map(CFErrorGetCode) == Int(errSecInteractionNotAllowed))
            #expect(user.requests.isEmpty)
        }
    }
}
