import Crypto
import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// Attacks on the key hierarchy by someone who can write the keychain file and, where the test
/// says so, holds the device key or can write the user's kernel keyring (same-user code while the
/// keychain is locked). Each test performs the attack and fails if it succeeds.
@Suite struct KeyHierarchyAttackTests {
    static let kernelKeyringWorks = (try? KernelKeyring.availability.get()) != nil

    func add(_ file: KeychainFile, _ account: String, _ secret: String, pdmn: String = "ak",
             accessControl: ItemAccessControl? = nil) throws {
        _ = try file.add(.genericPassword, attributes: ["acct": .string(account), "svce": .string("s"), "pdmn": .string(pdmn)],
                         secret: Data(secret.utf8), identity: .unconfigured, accessControl: accessControl)
    }

    /// The secret of `account`, or the status the read failed with.
    func read(_ file: KeychainFile, _ account: String, authorize: ItemAuthorizer? = nil) -> Result<String, KeychainStoreError> {
        do {
            let items = try file.find(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string(account)]),
                                      identity: .unconfigured, limit: 1, includeSecrets: true, authorize: authorize)
            guard let secret = items.first?.secret else { return .failure(.itemNotFound) }
            return .success(String(decoding: secret, as: UTF8.self))
        } catch {
            return .failure(error)
        }
    }

    func sealedKeybag(_ path: String) throws -> Data {
        let db = try SQLiteConnection(path: path)
        defer { try? db.close() }
        return try KeychainFile.setting(KeybagRecord.settingName, db) ?? Data()
    }

    func writeKeybag(_ path: String, _ sealed: Data) throws {
        let db = try SQLiteConnection(path: path)
        try db.statement("UPDATE settings SET value = ? WHERE name = ?").run([.blob(sealed), .text(KeybagRecord.settingName)])
        try db.close()
    }

    func keychainID(_ path: String) throws -> Data {
        let db = try SQLiteConnection(path: path)
        defer { try? db.close() }
        return try KeychainFile.setting(KeychainFile.keychainIDSetting, db) ?? Data()
    }

    @Test("A keybag copied before the password was set, put back, opens nothing added after it (device key alone)")
    func keybagFromBeforeThePassword() throws {
        let keychain = try TestKeychain()
        let path = keychain.file.url.path
        try add(keychain.file, "before", "old-secret")
        let beforePassword = try sealedKeybag(path)
        try keychain.file.setPassword("pw", currentPassword: nil)
        try add(keychain.file, "after-set", "secret-after-set")
        try keychain.file.setPassword("pw2", currentPassword: "pw")
        try add(keychain.file, "after-change", "secret-after-change")
        keychain.file.forgetSharedUnlockState()

        try writeKeybag(path, beforePassword)
        let reopened = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey)
        #expect(!reopened.hasPassword)  // the attacker's keybag is in force...
        for account in ["after-set", "after-change"] {
            #expect(throws: KeychainStoreError.self, "\(account) must not open under the old keys") {
                _ = try read(reopened, account).get()
            }
        }
        // Even the item the copy held was re-wrapped when the password was set.
        #expect((try? read(reopened, "before").get()) == nil)
    }

    @Test("Device-key wrappings of an earlier era mixed into the current keybag are refused (the keybag is one authenticated record)")
    func mixedEras() throws {
        let keychain = try TestKeychain()
        let path = keychain.file.url.path
        let before = try sealedKeybag(path)
        try keychain.file.setPassword("pw", currentPassword: nil)
        let current = try sealedKeybag(path)
        // Splice: the old record's class entries under the current record's MAC (no device key).
        let spliced = before.dropLast(KeybagRecord.macLength) + current.suffix(KeybagRecord.macLength)
        try writeKeybag(path, Data(spliced))
        keychain.file.forgetSharedUnlockState()
        #expect(throws: KeychainStoreError.self) { _ = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey) }
    }

    /// A keychain whose password went from "old" to "new", with `account` added under the old
    /// one; also that era's keybag and the item's sealed attributes as they were then.
    func keychainAcrossAPasswordChange(addingFirst account: String, _ secret: String) throws
        -> (keychain: TestKeychain, oldKeybag: Data, oldMeta: Data) {
        let keychain = try TestKeychain()
        let path = keychain.file.url.path
        try keychain.file.setPassword("old", currentPassword: nil)
        try add(keychain.file, account, secret)
        let oldKeybag = try sealedKeybag(path)
        let oldMeta = try column("meta", path)
        try keychain.file.setPassword("new", currentPassword: "old")
        return (keychain, oldKeybag, oldMeta)
    }

    /// The attack's last step: the old era's keybag put back, the file opened afresh and
    /// unlocked with the old password. The caller forgets the shared unlock state after.
    func reopenedWithOldEra(_ keychain: TestKeychain, _ oldKeybag: Data) throws -> KeychainFile {
        keychain.file.forgetSharedUnlockState()
        try writeKeybag(keychain.file.url.path, oldKeybag)
        let reopened = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey)
        try reopened.unlock(password: "old")
        return reopened
    }

    @Test("A keybag from the old password's era, with the old password, opens nothing added after the change")
    func keybagFromTheOldPassword() throws {
        let (keychain, oldKeybag, _) = try keychainAcrossAPasswordChange(addingFirst: "old-era", "written-under-old")
        try add(keychain.file, "new-era", "written-under-new")

        let reopened = try reopenedWithOldEra(keychain, oldKeybag)
        defer { reopened.forgetSharedUnlockState() }
        #expect((try? read(reopened, "new-era").get()) == nil)
        #expect((try? read(reopened, "old-era").get()) == nil)  // re-wrapped at the change
    }

    @Test("Attributes updated after a password change do not open with the old era's keybag, password and item-key wrapping put back")
    func attributesUpdatedAfterTheChange() throws {
        let (keychain, oldKeybag, oldMeta) = try keychainAcrossAPasswordChange(addingFirst: "item", "secret")
        let path = keychain.file.url.path
        // An update in place keeps the attributes' item key: the key must not be the old era's.
        try keychain.file.update(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("item")]),
                                 changes: ["labl": .string("written after the change")], secret: nil, identity: .unconfigured)

        // In front of today's sealed attributes, the old wrapping of their key.
        let oldWrapping = oldMeta.dropFirst().prefix(ItemSealer.wrappedKeyLength)
        var meta = try column("meta", path)
        meta.replaceSubrange(meta.startIndex + 1..<meta.startIndex + 1 + ItemSealer.wrappedKeyLength, with: oldWrapping)
        try setColumn("meta", meta, path)
        let reopened = try reopenedWithOldEra(keychain, oldKeybag)
        defer { reopened.forgetSharedUnlockState() }
        let found = try? reopened.find(ItemQuery(itemClass: .genericPassword), identity: .unconfigured, limit: nil, includeSecrets: false)
        #expect(found?.contains { $0.attributes["labl"]?.stringValue == "written after the change" } != true,
                "the old era's key opened attributes written after the change")
    }

    @Test("After a password change the old wrappings are in neither the file nor its WAL")
    func oldWrappingsAreGone() throws {
        let keychain = try TestKeychain()
        let path = keychain.file.url.path
        for index in 0..<20 { try add(keychain.file, "item\(index)", "secret\(index)") }
        let id = try keychainID(path)
        let record = try KeybagRecord.open(try sealedKeybag(path), deviceKey: keychain.deviceKey, keychainID: id)
        let oldWrappings = Keybag.passwordClasses.compactMap { record.classes[$0]?.wrapped }
        // One item's key wrapping under its old class key (bytes 1..<61 of its blobs).
        let oldItemWrapping = try column("meta", path).dropFirst().prefix(60)

        try keychain.file.setPassword("pw", currentPassword: nil)
        let raw = keychain.rawBytes()
        for wrapping in oldWrappings + [Data(oldItemWrapping)] {
            #expect(raw.range(of: wrapping) == nil)
        }
        #expect((try? read(keychain.file, "item7").get()) == "secret7")
    }

    @Test("An item's older secret put back under its current attributes is errSecDecode, never the old password")
    func olderSecretPutBack() throws {
        let keychain = try TestKeychain()
        let path = keychain.file.url.path
        try add(keychain.file, "a", "first-password")
        let oldSecret = try column("secret", path)
        _ = try keychain.file.update(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("a")]), changes: [:],
                                     secret: Data("second-password".utf8), identity: .unconfigured)
        try setColumn("secret", oldSecret, path)
        #expect(status(read(keychain.file, "a")) == SecStatus.decode)
    }

    @Test("After access control was tightened, the older unprotected secret put back does not read without authentication")
    func olderSecretAfterTightening() throws {
        let keychain = try TestKeychain()
        let path = keychain.file.url.path
        try keychain.file.setPassword("pw", currentPassword: nil)
        try add(keychain.file, "a", "guarded")
        let unprotected = try column("secret", path)
        _ = try keychain.file.update(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("a")]), changes: [:],
                                     secret: nil, identity: .unconfigured,
                                     accessControl: .set(ItemAccessControl(encoded: Data([1]), requiresAuthentication: true)))
        try setColumn("secret", unprotected, path)
        let result = read(keychain.file, "a")
        #expect((try? result.get()) == nil)
        #expect(status(result) == SecStatus.decode)
    }

    @Test("Keys planted in the kernel keyring while the keychain is locked are not used: it stays locked",
          .enabled(if: kernelKeyringWorks))
    func plantedKernelKeys() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        keychain.file.lock()
        #expect(keychain.file.isLocked)
        let planted = Data((0..<96).map { _ in UInt8.random(in: 0...255) })
        let description = UnlockState(keychainID: keychain.file.identifier).unlockedDescription
        _ = try KernelKeyring.add(description, planted, in: .session).get()
        #expect(keychain.file.isLocked)
        #expect(status { try add(keychain.file, "new", "would-be-readable") } == SecStatus.interactionNotAllowed)
        // A second process's view (a second connection with its own state) agrees.
        let other = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey)
        #expect(other.isLocked)
    }

    @Test("A presence public key replaced in the file with the device key is refused, so protected items are never sealed to it")
    func replacedPresencePublicKey() throws {
        let keychain = try TestKeychain()
        let path = keychain.file.url.path
        try keychain.file.setPassword("pw", currentPassword: nil)
        let id = try keychainID(path)
        var record = try KeybagRecord.open(try sealedKeybag(path), deviceKey: keychain.deviceKey, keychainID: id)
        let attackerKey = Curve25519.KeyAgreement.PrivateKey()
        record.presence?.publicKey = attackerKey.publicKey.rawRepresentation
        record.generation += 1
        try writeKeybag(path, record.sealed(deviceKey: keychain.deviceKey, keychainID: id))

        let protected = ItemAccessControl(encoded: Data([1]), requiresAuthentication: true)
        #expect(throws: KeychainStoreError.self) { try add(keychain.file, "b", "for-presence-only", accessControl: protected) }
        // Nothing was sealed to the attacker's key: no such item exists.
        #expect(status(read(keychain.file, "b", authorize: { _ in .skip })) == SecStatus.itemNotFound)
    }

    @Test("When another process locks, this process holds no class A key in memory, even before its next call",
          .enabled(if: kernelKeyringWorks))
    func noKeysAfterLockElsewhere() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        let other = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey)
        try add(other, "x", "y")
        #expect(other.state.withLock { $0.keybag.classKeys.keys.contains(where: Keybag.passwordClasses.contains) } == false)
        keychain.file.lock()
        #expect(other.state.withLock { $0.keybag.classKeys.keys.contains(where: Keybag.unlockedClasses.contains) } == false)
        #expect(other.isLocked)
    }

    @Test("The idle timeout cannot be removed from the file without the device key")
    func settingsAreAuthenticated() throws {
        let keychain = try TestKeychain()
        let path = keychain.file.url.path
        try keychain.file.setPassword("pw", currentPassword: nil)
        try keychain.file.setLockTimeout(300)
        let id = try keychainID(path)
        var record = try KeybagRecord.open(try sealedKeybag(path), deviceKey: keychain.deviceKey, keychainID: id)
        record.lockTimeout = nil
        // Re-encoded under a wrong key: what someone without the device key can write.
        try writeKeybag(path, record.sealed(deviceKey: .random(), keychainID: id))
        keychain.file.forgetSharedUnlockState()
        #expect(throws: KeychainStoreError.self) { _ = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey) }
        // And the keychain already open refuses to go on with it.
        #expect(throws: KeychainStoreError.self) { try add(keychain.file, "z", "z") }
    }

    @Test("A kernel keyring that refuses the keys makes unlock fail loudly and leaves the keychain locked",
          .enabled(if: kernelKeyringWorks))
    func keyringQuota() throws {
        #if DEBUG
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        keychain.file.lock()
        let plan = FaultPlan(.init(.keyringAdd, result: EDQUOT))
        let error = FaultInjection.$plan.withValue(plan) { () -> KeychainStoreError? in
            do { try keychain.file.unlock(password: "pw"); return nil } catch { return error as? KeychainStoreError }
        }
        #expect(plan.fired(.keyringAdd) == 1)
        #expect(error?.status == SecStatus.notAvailable)
        #expect(error?.reason.contains("quota") == true)
        #expect(keychain.file.isLocked)
        #endif
    }

    func status(_ result: Result<String, KeychainStoreError>) -> Int32? {
        if case .failure(let error) = result { return error.status }
        return nil
    }

    func status(_ body: () throws -> Void) -> Int32? {
        do { try body(); return nil } catch { return (error as? KeychainStoreError)?.status }
    }

    /// The first genp row's `name` column.
    func column(_ name: String, _ path: String) throws -> Data {
        let db = try SQLiteConnection(path: path)
        let value = try { () throws -> Data? in
            let statement = try db.statement("SELECT \(name) FROM genp ORDER BY rowid LIMIT 1")
            _ = try statement.step()
            defer { statement.reset() }
            return statement.blob(0)
        }()
        try db.close()
        return try #require(value)
    }

    func setColumn(_ name: String, _ value: Data, _ path: String) throws {
        let db = try SQLiteConnection(path: path)
        try db.statement("UPDATE genp SET \(name) = ?").run([.blob(value)])
        try db.close()
    }
}
