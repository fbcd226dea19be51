import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// A secret found but kept sealed opens to the stored secret only while the file is as it was
/// when found; after any change, lock or new password it opens to nothing.
@Suite struct SealedSecretTests {
    static let query = ItemQuery(itemClass: .genericPassword, filters: [AttributeName.service: .string("s"), AttributeName.account: .string("a")])

    func keep(_ file: KeychainFile) throws -> SealedSecret {
        let found = try file.findKeepingSecretsSealed(Self.query, identity: .unconfigured)
        #expect(found.count == 1)
        #expect(found.first?.item.secret == nil)
        return try #require(found.first?.secret)
    }

    func keychainWithOneItem() throws -> TestKeychain {
        let keychain = try TestKeychain()
        _ = try keychain.file.add(.genericPassword, attributes: [AttributeName.service: .string("s"), AttributeName.account: .string("a")],
                                  secret: Data("first".utf8), identity: .unconfigured)
        return keychain
    }

    @Test func opensToTheStoredSecretWhileNothingChanged() throws {
        let keychain = try keychainWithOneItem()
        let sealed = try keep(keychain.file)
        #expect(try keychain.file.openSealedSecret(sealed) == Data("first".utf8))
        #expect(try keychain.file.openSealedSecret(sealed) == Data("first".utf8))
    }

    @Test func opensToNothingAfterAWriteFromAnotherConnection() throws {
        let keychain = try keychainWithOneItem()
        let sealed = try keep(keychain.file)
        let other = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey, create: false)
        _ = try other.add(.genericPassword, attributes: [AttributeName.service: .string("other")], secret: Data("x".utf8), identity: .unconfigured)
        #expect(try keychain.file.openSealedSecret(sealed) == nil)
    }

    @Test func opensToNothingAfterAWriteFromThisConnection() throws {
        let keychain = try keychainWithOneItem()
        let sealed = try keep(keychain.file)
        #expect(try keychain.file.update(Self.query, changes: [:], secret: Data("second".utf8), identity: .unconfigured) == 1)
        #expect(try keychain.file.openSealedSecret(sealed) == nil)
        #expect(try keychain.file.openSealedSecret(try keep(keychain.file)) == Data("second".utf8))
    }

    @Test func opensToNothingAfterALockOrANewPassword() throws {
        let keychain = try keychainWithOneItem()
        try keychain.file.setPassword("pw", currentPassword: nil)
        defer { keychain.file.forgetSharedUnlockState() }
        let beforePassword = try keep(keychain.file)
        try keychain.file.setPassword("pw2", currentPassword: "pw")
        #expect(try keychain.file.openSealedSecret(beforePassword) == nil)
        let beforeLock = try keep(keychain.file)
        keychain.file.lock()
        #expect(try keychain.file.openSealedSecret(beforeLock) == nil)
    }
}
