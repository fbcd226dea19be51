import Foundation
import Testing
import KeychainStore
import KeychainTestSupport

/// Items whose access control requires authentication: sealed to the presence key, which only
/// the keychain password opens (docs/design-notes.md explains the presence key).
@Suite struct PresenceTests {
    static let protected = ItemAccessControl(encoded: Data("acl-presence".utf8), requiresAuthentication: true)
    static let plain = ItemAccessControl(encoded: Data("acl-plain".utf8), requiresAuthentication: false)

    func keychain(password: String? = "pw") throws -> TestKeychain {
        let keychain = try TestKeychain()
        if let password { try keychain.file.setPassword(password, currentPassword: nil) }
        return keychain
    }

    @discardableResult
    func add(_ file: KeychainFile, _ account: String, _ control: ItemAccessControl? = protected, secret: String = "s3cret") throws(KeychainStoreError) -> StoredItem {
        try file.add(.genericPassword, attributes: ["acct": .string(account), "svce": .string("svc")],
                     secret: Data(secret.utf8), identity: .unconfigured, accessControl: control)
    }

    func query(_ account: String? = nil) -> ItemQuery {
        ItemQuery(itemClass: .genericPassword, filters: account.map { ["acct": .string($0)] } ?? [:])
    }

    func read(_ file: KeychainFile, _ account: String, authorize: ItemAuthorizer?) throws(KeychainStoreError) -> String? {
        try file.find(query(account), identity: .unconfigured, limit: 1, includeSecrets: true, authorize: authorize)
            .first?.secret.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("Authenticating a keychain without a password is errSecNotAvailable")
    func noPassword() throws {
        let keychain = try self.keychain(password: nil)
        #expect(throws: KeychainStoreError.self) { _ = try keychain.file.authenticate(password: "x") }
        do { _ = try keychain.file.authenticate(password: "x") } catch { #expect(error.status == SecStatus.notAvailable) }
    }

    @Test("A wrong password is errSecAuthFailed; the right one gives this keychain's credential")
    func wrongAndRightPassword() throws {
        let keychain = try self.keychain()
        do {
            _ = try keychain.file.authenticate(password: "wrong")
            Issue.record("a wrong password was accepted")
        } catch {
            #expect(error.status == SecStatus.authFailed)
        }
        #expect(try keychain.file.authenticate(password: "pw").keychainID == keychain.file.identifier)
    }

    @Test("An item that requires authentication cannot be added to a keychain without a password")
    func addWithoutPassword() throws {
        let keychain = try self.keychain(password: nil)
        do {
            try add(keychain.file, "a")
            Issue.record("added")
        } catch {
            #expect(error.status == SecStatus.notAvailable)
        }
        // An access control without constraints needs no password.
        try add(keychain.file, "b", Self.plain)
        #expect(try read(keychain.file, "b", authorize: nil) == "s3cret")
    }

    @Test("An unlocked keychain alone does not open a protected secret")
    func unlockedIsNotEnough() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "a")
        #expect(!keychain.file.isLocked)
        do {
            _ = try read(keychain.file, "a", authorize: nil)
            Issue.record("read without authentication")
        } catch {
            #expect(error.status == SecStatus.interactionNotAllowed)
        }
    }

    @Test("The credential from the password opens the protected secret")
    func credentialOpens() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "a", secret: "top")
        let credential = try keychain.file.authenticate(password: "pw")
        #expect(try read(keychain.file, "a", authorize: { _ in .credential(credential) }) == "top")
    }

    @Test("The authorizer sees the item's stored access control")
    func authorizerSeesAccessControl() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "a")
        let credential = try keychain.file.authenticate(password: "pw")
        let seen = LockedBox<Data?>(nil)
        _ = try read(keychain.file, "a", authorize: { control in seen.value = control; return .credential(credential) })
        #expect(seen.value == Self.protected.encoded)
    }

    @Test("Attribute-only reads of a protected item need authentication too")
    func attributeOnlyNeedsAuthentication() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "a")
        let calls = LockedBox(0)
        let credential = try keychain.file.authenticate(password: "pw")
        let found = try keychain.file.find(query("a"), identity: .unconfigured, limit: 1, includeSecrets: false,
                                           authorize: { _ in calls.value += 1; return .credential(credential) })
        #expect(calls.value == 1)
        #expect(found.count == 1)
        #expect(found.first?.secret == nil)
    }

    @Test("Skipping leaves protected items out and does not use up the limit")
    func skipDoesNotUseLimit() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "a")
        try add(keychain.file, "b", nil, secret: "open")
        let found = try keychain.file.find(query(), identity: .unconfigured, limit: 1, includeSecrets: true, authorize: { _ in .skip })
        #expect(found.map { $0.attributes["acct"] } == [.string("b")])
    }

    @Test("Another keychain's credential does not open an item, even with the same password")
    func foreignCredential() throws {
        let keychain = try self.keychain()
        let other = try self.keychain()
        try add(keychain.file, "a")
        let foreign = try other.file.authenticate(password: "pw")
        do {
            _ = try read(keychain.file, "a", authorize: { _ in .credential(foreign) })
            Issue.record("a foreign credential opened the item")
        } catch {
            #expect(error.status == SecStatus.authFailed)
        }
    }

    @Test("Changing the password keeps protected items readable with the new one; removing it deletes them")
    func passwordChanges() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "a", secret: "kept")
        try keychain.file.setPassword("new", currentPassword: "pw")
        let credential = try keychain.file.authenticate(password: "new")
        #expect(try read(keychain.file, "a", authorize: { _ in .credential(credential) }) == "kept")
        try keychain.file.setPassword(nil, currentPassword: "new")
        #expect(try keychain.file.find(query("a"), identity: .unconfigured, limit: nil, includeSecrets: false).isEmpty)
    }

    @Test("Updating a protected item needs authentication")
    func updateNeedsAuthentication() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "a")
        do {
            try keychain.file.update(query("a"), changes: ["labl": .string("x")], secret: nil, identity: .unconfigured)
            Issue.record("updated without authentication")
        } catch {
            #expect(error.status == SecStatus.interactionNotAllowed)
        }
        let credential = try keychain.file.authenticate(password: "pw")
        try keychain.file.update(query("a"), changes: [:], secret: Data("changed".utf8), identity: .unconfigured,
                                 authorize: { _ in .credential(credential) })
        #expect(try read(keychain.file, "a", authorize: { _ in .credential(credential) }) == "changed")
    }

    @Test("An update asks for authentication only when a match is protected; a refusal changes none of the matches")
    func updateAsksOnlyForProtectedMatches() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "plain-1", nil, secret: "one")
        try add(keychain.file, "plain-2", nil, secret: "two")
        try add(keychain.file, "guarded", secret: "three")
        var asked = 0
        let credential = try keychain.file.authenticate(password: "pw")
        let counting: ItemAuthorizer = { _ in asked += 1; return .credential(credential) }
        // Only unprotected matches: no question, one pass.
        try keychain.file.update(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("plain-1")]),
                                 changes: ["labl": .string("first")], secret: nil, identity: .unconfigured, authorize: counting)
        #expect(asked == 0)
        // All three: asked once (for the protected one), and every match is changed.
        try keychain.file.update(query(), changes: ["labl": .string("all")], secret: nil, identity: .unconfigured, authorize: counting)
        #expect(asked == 1)
        // (Reading a protected item's attributes needs authentication too.)
        let reader: ItemAuthorizer = { _ in .credential(credential) }
        let labels = try keychain.file.find(query(), identity: .unconfigured, limit: nil, includeSecrets: false, authorize: reader)
            .map { $0.attributes["labl"] }
        #expect(labels == Array(repeating: .string("all"), count: 3))
        // Refused: nothing changes, not even the unprotected matches that come first.
        do {
            try keychain.file.update(query(), changes: ["labl": .string("refused")], secret: nil, identity: .unconfigured,
                                     authorize: { _ throws(KeychainStoreError) in throw KeychainStoreError(status: SecStatus.authFailed, reason: "refused") })
            Issue.record("updated after a refusal")
        } catch {
            #expect(error.status == SecStatus.authFailed)
        }
        let after = try keychain.file.find(query(), identity: .unconfigured, limit: nil, includeSecrets: false, authorize: reader)
            .map { $0.attributes["labl"] }
        #expect(after == Array(repeating: .string("all"), count: 3))
    }

    @Test("Removing the access control in an update makes the secret readable without authentication")
    func removeAccessControl() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "a", secret: "freed")
        let credential = try keychain.file.authenticate(password: "pw")
        try keychain.file.update(query("a"), changes: ["pdmn": .string("ck")], secret: nil, identity: .unconfigured,
                                 accessControl: .remove, authorize: { _ in .credential(credential) })
        let item = try keychain.file.find(query("a"), identity: .unconfigured, limit: 1, includeSecrets: true)
        #expect(item.first?.secret == Data("freed".utf8))
        #expect(item.first?.attributes["accc"] == nil)
        #expect(item.first?.attributes["pdmn"] == .string("ck"))
    }

    @Test("Setting a protecting access control in an update seals an existing secret")
    func setAccessControl() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "a", nil, secret: "later")
        try keychain.file.update(query("a"), changes: [:], secret: nil, identity: .unconfigured, accessControl: .set(Self.protected))
        #expect(throws: KeychainStoreError.self) { _ = try read(keychain.file, "a", authorize: nil) }
        let credential = try keychain.file.authenticate(password: "pw")
        #expect(try read(keychain.file, "a", authorize: { _ in .credential(credential) }) == "later")
    }

    @Test("Deleting a protected item needs no authentication")
    func deleteNeedsNone() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "a")
        #expect(try keychain.file.delete(query("a"), identity: .unconfigured) == 1)
    }

    @Test("Backups leave protected items behind")
    func backupSkipsProtected() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "a")
        try add(keychain.file, "b", nil)
        let url = keychain.directory.appendingPathComponent("backup")
        #expect(try keychain.file.exportBackup(to: url, password: "backup") == 1)
    }

    @Test("A locked keychain refuses a protected read before asking for authentication")
    func lockedFirst() throws {
        let keychain = try self.keychain()
        try add(keychain.file, "a")
        keychain.file.lock()
        let calls = LockedBox(0)
        do {
            _ = try read(keychain.file, "a", authorize: { _ in calls.value += 1; return .skip })
            Issue.record("read while locked")
        } catch {
            #expect(error.status == SecStatus.interactionNotAllowed)
        }
        #expect(calls.value == 0)
    }
}

/// A value the authorizer closures can change (they are not `@Sendable`, but tests keep them simple).
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
