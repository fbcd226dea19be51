import Foundation
import KeychainAuthentication
import KeychainTestSupport
import KeychainServices
@testable import KeychainSSHAgent
import Testing

/// The agent's cache of parsed keys never signs for what the keychain would refuse: a locked
/// keychain, a key item deleted or retagged behind the agent's back. Each test signs once so
/// that the key is cached, then changes the keychain directly (not through the agent).
@Suite struct SSHKeyCacheTests {
    @Test func aCachedKeyDoesNotSignOnceTheKeychainLocks() throws {
        let sandbox = try AgentSandbox()
        let file = try sandbox.makeKey(.rsa2048)
        #expect(try sandbox.sshAdd([file.path]).status == 0)
        try sandbox.keychain.file.setPassword("keychain password", currentPassword: nil)
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)
        #expect(sandbox.agent.keys.cache.count == 1)
        // Twice: the second signature is the cached key's.
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)

        sandbox.keychain.file.lock()
        #expect(try sandbox.signAndVerify(with: file).sign.status != 0)
        #expect(sandbox.agent.keys.cache.count == 0)
        try sandbox.keychain.file.unlock(password: "keychain password")
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)
    }

    @Test func aCachedKeyDoesNotSignOnceItsItemIsDeleted() throws {
        let sandbox = try AgentSandbox()
        let file = try sandbox.makeKey(.ed25519)
        #expect(try sandbox.sshAdd([file.path]).status == 0)
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)
        #expect(sandbox.agent.keys.cache.count == 1)
        let status = sandbox.keychain.run { SecItemDelete([kSecClass: kSecClassKey] as CFDictionary) }
        #expect(status == errSecSuccess)
        #expect(try sandbox.signAndVerify(with: file).sign.status != 0)
    }

    @Test func aCachedKeyDoesNotSignOnceItsItemIsNoLongerAnSSHKey() throws {
        let sandbox = try AgentSandbox()
        let file = try sandbox.makeKey(.ecdsa256)
        #expect(try sandbox.sshAdd([file.path]).status == 0)
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)
        let status = sandbox.keychain.run {
            SecItemUpdate([kSecClass: kSecClassKey] as CFDictionary,
                          [kSecAttrApplicationTag: Data("com.example.app".utf8)] as CFDictionary)
        }
        #expect(status == errSecSuccess)
        #expect(try sandbox.signAndVerify(with: file).sign.status != 0)
    }

    /// A changed item (here its comment) is another version: read again, with the new comment.
    @Test func aChangedItemIsReadAgain() throws {
        let sandbox = try AgentSandbox()
        let file = try sandbox.makeKey(.ecdsa256)
        #expect(try sandbox.sshAdd([file.path]).status == 0)
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)
        let status = sandbox.keychain.run {
            SecItemUpdate([kSecClass: kSecClassKey] as CFDictionary, [kSecAttrLabel: "renamed"] as CFDictionary)
        }
        #expect(status == errSecSuccess)
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)
        #expect(try sandbox.sshAdd(["-l"]).stdout.contains("renamed"))
    }

    @Test func theCacheKeepsAtMostItsCapacityAndLetsIdleKeysGo() throws {
        let cache = SSHKeyCache()
        let key = try #require(SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeEd25519] as CFDictionary, nil))
        let start = Date()
        for index in 0..<(SSHKeyCache.capacity + 3) {
            let version = SSHKeyCache.ItemVersion(persistentReference: Data([UInt8(index)]), modified: start)
            cache.store(key, blob: [UInt8(index)], for: version, now: start.addingTimeInterval(Double(index)))
        }
        #expect(cache.count == SSHKeyCache.capacity)
        // The oldest went first.
        #expect(cache.lookUp(.init(persistentReference: Data([0]), modified: start)) == nil)
        let newest = SSHKeyCache.ItemVersion(persistentReference: Data([UInt8(SSHKeyCache.capacity + 2)]), modified: start)
        #expect(cache.lookUp(newest, now: start.addingTimeInterval(SSHKeyCache.idleLimit))?.blob == [UInt8(SSHKeyCache.capacity + 2)])
        cache.removeIdle(now: start.addingTimeInterval(SSHKeyCache.idleLimit + 30))
        #expect(cache.count == 1)
    }
}

/// A key whose access control needs the user at each use (`.privateKeyUsage` with
/// `.userPresence`), stored under the agent's tag: every signature asks for the keychain
/// password, the cached key included, and a cancelled or wrong answer fails the signature.
@Suite struct SSHKeyPresenceTests {
    static let password = "keychain password"

    /// Makes such a key in the sandbox's keychain and writes its public key where
    /// `ssh-keygen -Y sign` looks for it; returns the private key file's path (never written).
    static func guardedKey(in sandbox: AgentSandbox) throws -> URL {
        try sandbox.keychain.file.setPassword(password, currentPassword: nil)
        let access = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [.privateKeyUsage, .userPresence], nil))
        let key = try #require(sandbox.keychain.run {
            SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256,
                                   kSecPrivateKeyAttrs: [kSecAttrIsPermanent: true, kSecAttrAccessControl: access,
                                                         kSecAttrApplicationTag: Data(SSHKeychainKeys.plainTag.utf8),
                                                         kSecAttrLabel: "guarded"] as [CFString: Any]] as CFDictionary, nil)
        })
        let blob = try #require(SSHKeyEncoding.publicKeyBlob(of: key))
        let file = sandbox.home.appendingPathComponent("guarded")
        try (SSHPublicKeyText.authorizedKeysLine(blob: blob, comment: "guarded") + "\n")
            .write(to: URL(fileURLWithPath: file.path + ".pub"), atomically: true, encoding: .utf8)
        return file
    }

    @Test func eachSignatureAsksForThePassword() throws {
        let user = ScriptedUser(.password(Self.password))
        let sandbox = try AgentSandbox(presenceUser: user)
        let file = try Self.guardedKey(in: sandbox)
        #expect(try sandbox.sshAdd(["-l"]).stdout.contains("guarded"))
        #expect(user.requests.isEmpty, "listing asked for the password")
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)
        #expect(user.requests.count == 2)
    }

    @Test func aCancelledOrWrongAnswerFailsTheSignature() throws {
        let wrong = AuthenticationReply.password("wrong")
        let user = ScriptedUser(.cancel, wrong, wrong, wrong, AuthenticationReply.password(Self.password))
        let sandbox = try AgentSandbox(presenceUser: user)
        let file = try Self.guardedKey(in: sandbox)
        #expect(try sandbox.signAndVerify(with: file).sign.status != 0)
        #expect(try sandbox.signAndVerify(with: file).sign.status != 0)
        #expect(user.requests.count == 4)
        #expect(user.requests.last?.previousAttemptFailed == true)
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)
    }
}
