import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// The engine's side of machine unlock (KeychainFile+Seals.swift), without the machine's tools:
/// the sealed bytes here are the unlock key itself, as a tool would give it back.
@Suite struct SealRecordTests {
    func add(_ file: KeychainFile, _ account: String, _ secret: String) throws {
        _ = try file.add(.genericPassword, attributes: ["acct": .string(account), "svce": .string("s"), "pdmn": .string("ak")],
                         secret: Data(secret.utf8), identity: .unconfigured, accessControl: nil)
    }

    func read(_ file: KeychainFile, _ account: String) throws -> String? {
        let items = try file.find(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string(account)]),
                                  identity: .unconfigured, limit: 1, includeSecrets: true, authorize: nil)
        return items.first?.secret.map { String(decoding: $0, as: UTF8.self) }
    }

    /// A keychain with password `pw`, an item, and a seal `test` whose "sealed" bytes are the key.
    func sealedKeychain() throws -> (TestKeychain, Data) {
        let keychain = try TestKeychain()
        try add(keychain.file, "alice", "inside")
        try keychain.file.setPassword("pw", currentPassword: nil)
        let (key, parameters) = try keychain.file.unlockKeyForSealing(password: "pw")
        try keychain.file.addSeal(SealRecord(name: "test", method: "test", created: Date(), passwordParameters: parameters,
                                             keyCheck: key.checkValue, details: ["k": "v"], sealed: Data([1, 2, 3])), replacing: false)
        keychain.file.lock()
        return (keychain, key.encoded)
    }

    @Test("The unsealed key unlocks; the record reads back as written; a wrong password gives no key")
    func roundTrip() throws {
        let (keychain, key) = try sealedKeychain()
        defer { keychain.file.forgetSharedUnlockState() }
        #expect(key.count == SealedUnlockKey.encodedLength)
        #expect(throws: KeychainStoreError.self) { _ = try keychain.file.unlockKeyForSealing(password: "nope") }
        let seals = try keychain.file.seals()
        #expect(seals.map(\.record.name) == ["test"])
        #expect(seals.first?.record.details == ["k": "v"] && seals.first?.record.sealed == Data([1, 2, 3]))
        #expect(seals.first?.isStale == false)
        #expect(keychain.file.isLocked)
        try keychain.file.unlock(sealedKey: key, seal: "test")
        #expect(!keychain.file.isLocked)
        #expect(try read(keychain.file, "alice") == "inside")
    }

    @Test("Another keychain's key, a flipped byte, or junk: errSecDecode, still locked")
    func foreignAndDamagedKeys() throws {
        let (keychain, key) = try sealedKeychain()
        let (other, otherKey) = try sealedKeychain()
        defer { keychain.file.forgetSharedUnlockState(); other.file.forgetSharedUnlockState() }
        var flipped = key
        flipped[flipped.count - 1] ^= 1
        for bytes in [otherKey, flipped, Data(repeating: 0, count: 53), Data()] {
            do {
                try keychain.file.unlock(sealedKey: bytes, seal: "test")
                Issue.record("unlocked with bad bytes")
            } catch {
                #expect(error.status == SecStatus.decode, "\(error)")
            }
            #expect(keychain.file.isLocked)
        }
    }

    @Test("A password change makes the seal stale (errSecAuthFailed, never an unlock); removal is refused unless dropping the seals")
    func passwordChanges() throws {
        let (keychain, key) = try sealedKeychain()
        defer { keychain.file.forgetSharedUnlockState() }
        try keychain.file.setPassword("pw2", currentPassword: "pw")
        keychain.file.lock()
        #expect(try keychain.file.seals().first?.isStale == true)
        do {
            try keychain.file.unlock(sealedKey: key, seal: "test")
            Issue.record("a stale seal unlocked")
        } catch {
            #expect(error.status == SecStatus.authFailed && error.reason.contains("stale"), "\(error)")
        }
        #expect(keychain.file.isLocked)
        do {
            try keychain.file.setPassword(nil, currentPassword: "pw2")
            Issue.record("the password was removed although a seal exists")
        } catch {
            #expect(error.status == SecStatus.param && error.reason.contains("test"), "\(error)")
        }
        #expect(keychain.file.hasPassword)
        try keychain.file.setPassword(nil, currentPassword: "pw2", droppingSeals: true)
        #expect(!keychain.file.hasPassword)
        #expect(try keychain.file.seals().isEmpty)
    }

    @Test("A record changed without the device key, or copied under another name, is refused; it can still be removed")
    func tamperedRecords() throws {
        let (keychain, key) = try sealedKeychain()
        defer { keychain.file.forgetSharedUnlockState() }
        let db = try SQLiteConnection(path: keychain.file.url.path)
        let stored = try #require(try KeychainFile.setting("seal/test", db))
        try db.statement("INSERT INTO settings (name, value) VALUES (?, ?)").run([.text("seal/copy"), .blob(stored)])
        try db.close()
        #expect(throws: KeychainStoreError.self) { _ = try keychain.file.seals() }
        #expect(try keychain.file.sealNames() == ["copy", "test"])
        try keychain.file.removeSeal(named: "copy")
        #expect(try keychain.file.seals().count == 1)
        let db2 = try SQLiteConnection(path: keychain.file.url.path)
        var changed = stored
        changed[10] ^= 0xFF
        try db2.statement("UPDATE settings SET value = ? WHERE name = ?").run([.blob(changed), .text("seal/test")])
        try db2.close()
        do {
            try keychain.file.unlock(sealedKey: key, seal: "test")
            Issue.record("unlocked through a changed record")
        } catch {
            #expect(error.status == SecStatus.decode, "\(error)")
        }
        #expect(keychain.file.isLocked)
        try keychain.file.removeSeal(named: "test")
        #expect(try keychain.file.sealNames().isEmpty)
        #expect(throws: KeychainStoreError.self) { try keychain.file.removeSeal(named: "test") }
    }

    @Test("Names are checked; a taken name is errSecDuplicateItem unless replacing")
    func names() throws {
        let (keychain, key) = try sealedKeychain()
        defer { keychain.file.forgetSharedUnlockState() }
        let decoded = try SealedUnlockKey(decoding: key)
        for bad in ["", ".hidden", "a/b", String(repeating: "x", count: 65), "späce"] {
            #expect(!SealRecord.isValidName(bad), "\(bad)")
        }
        let record = SealRecord(name: "test", method: "test", created: Date(), passwordParameters: Data(), keyCheck: decoded.checkValue,
                                details: [:], sealed: Data())
        do {
            try keychain.file.addSeal(record, replacing: false)
            Issue.record("a taken name was accepted")
        } catch {
            #expect(error.status == SecStatus.duplicateItem)
        }
        try keychain.file.addSeal(record, replacing: true)
        // The replacement records other password parameters: stale now.
        #expect(try keychain.file.seals().first?.isStale == true)
    }
}
