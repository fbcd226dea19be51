import Crypto
import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// A protected secret's format byte is authenticated: relabelling the blob cannot strip the
/// presence layer (or add one), and a swapped presence public key is noticed.
@Suite struct PresenceTamperingTests {
    func protectedKeychain() throws -> TestKeychain {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        _ = try keychain.file.add(.genericPassword, attributes: ["acct": .string("a"), "svce": .string("s")],
                                  secret: Data("guarded".utf8), identity: .unconfigured,
                                  accessControl: ItemAccessControl(encoded: Data([1]), requiresAuthentication: true))
        return keychain
    }

    func read(_ file: KeychainFile, authorize: ItemAuthorizer?) -> Int32? {
        do {
            _ = try file.find(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("a")]), identity: .unconfigured,
                              limit: 1, includeSecrets: true, authorize: authorize)
            return nil
        } catch {
            return error.status
        }
    }

    @Test("A protected secret relabelled as a plain one is errSecDecode, never the sealed bytes as data")
    func relabelled() throws {
        let keychain = try protectedKeychain()
        let db = try SQLiteConnection(path: keychain.file.url.path)
        try db.execute("UPDATE genp SET secret = x'01' || substr(secret, 2)")
        try db.close()
        #expect(read(keychain.file, authorize: nil) == SecStatus.decode)
    }

    @Test("A plain secret relabelled as protected is errSecDecode, even with the right credential")
    func promoted() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        _ = try keychain.file.add(.genericPassword, attributes: ["acct": .string("a"), "svce": .string("s")],
                                  secret: Data("plain".utf8), identity: .unconfigured)
        let db = try SQLiteConnection(path: keychain.file.url.path)
        try db.execute("UPDATE genp SET secret = x'02' || substr(secret, 2)")
        try db.close()
        let credential = try keychain.file.authenticate(password: "pw")
        #expect(read(keychain.file, authorize: { _ in .credential(credential) }) == SecStatus.decode)
    }

    @Test("A keybag changed in the file without the device key is refused when the next protected item is added")
    func swappedPublicKey() throws {
        let keychain = try protectedKeychain()
        let db = try SQLiteConnection(path: keychain.file.url.path)
        let id = try #require(try KeychainFile.setting(KeychainFile.keychainIDSetting, db))
        var record = try KeybagRecord.open(try #require(try KeychainFile.setting(KeybagRecord.settingName, db)),
                                           deviceKey: keychain.deviceKey, keychainID: id)
        db.resetAll()
        record.presence?.publicKey = Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation
        record.generation += 1
        // Sealed under a key that is not the device key: all someone without it can write.
        try db.statement("UPDATE settings SET value = ? WHERE name = ?")
            .run([.blob(record.sealed(deviceKey: .random(), keychainID: id)), .text(KeybagRecord.settingName)])
        try db.close()
        #expect(throws: KeychainStoreError.self) {
            _ = try keychain.file.add(.genericPassword, attributes: ["acct": .string("b"), "svce": .string("s")],
                                      secret: Data("x".utf8), identity: .unconfigured,
                                      accessControl: ItemAccessControl(encoded: Data([1]), requiresAuthentication: true))
        }
    }
}
