import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Tombstones: a deleted synchronizable item leaves a marker behind, which only a search naming
/// kSecAttrTombstone sees.
@Suite("Rules: tombstones")
struct RulesTombstoneTests {
    static func synced(_ passwordClass: PasswordClass) -> Item {
        passwordClass.base.with([kSecAttrSynchronizable: kCFBooleanTrue!])
    }

    @Test("A deleted synchronizable item is invisible to every later search, update and delete", arguments: PasswordClass.allCases)
    func deletedSyncItemInvisible(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let synced = Self.synced(passwordClass)
            #expect(add(synced.with([kSecValueData: Data("s".utf8)])) == errSecSuccess)
            #expect(delete(synced) == errSecSuccess)
            #expect(exists(synced) == errSecItemNotFound)
            #expect(exists(passwordClass.base.with([kSecAttrSynchronizable: kSecAttrSynchronizableAny])) == errSecItemNotFound)
            #expect(update(synced, item([kSecAttrLabel: "x"])) == errSecItemNotFound)
            #expect(delete(synced) == errSecItemNotFound)
        }
    }

    @Test("Deleting a synchronizable item leaves a tombstone that only a search naming kSecAttrTombstone sees",
          arguments: PasswordClass.allCases)
    func tombstoneVisibleWithTombFilter(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let synced = Self.synced(passwordClass)
            #expect(add(synced.with([kSecValueData: Data("s".utf8), kSecAttrLabel: "label"])) == errSecSuccess)
            #expect(delete(synced) == errSecSuccess)
            let tombstone = try #require(attributes(of: synced.with([kSecAttrTombstone: 1])))
            #expect((tombstone["tomb"] as? NSNumber)?.intValue == 1)
            #expect(tombstone["acct"] as? String == "alice")
            #expect(tombstone["labl"] == nil)
            #expect(secret(of: synced.with([kSecAttrTombstone: 1])) == nil)
        }
    }

    @Test("Adding over a tombstone succeeds and keeps the tombstone's persistent reference", arguments: PasswordClass.allCases)
    func addOverTombstone(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let synced = Self.synced(passwordClass)
            let (status, result) = addReturning(synced.with([kSecValueData: Data("old".utf8), kSecReturnPersistentRef: kCFBooleanTrue!]))
            #expect(status == errSecSuccess)
            let reference = try #require(result as? Data)
            #expect(delete(synced) == errSecSuccess)
            #expect(add(synced.with([kSecValueData: Data("new".utf8)])) == errSecSuccess)
            #expect(persistentReference(of: synced) == reference)
            #expect(secret(of: synced) == Data("new".utf8))
            #expect(exists(synced.with([kSecAttrTombstone: 1])) == errSecItemNotFound)
        }
    }

    @Test("Deleting a local item leaves no tombstone", arguments: PasswordClass.allCases)
    func localDeleteNoTombstone(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(delete(passwordClass.base) == errSecSuccess)
            #expect(exists(passwordClass.base.with([kSecAttrTombstone: 1, kSecAttrSynchronizable: kSecAttrSynchronizableAny])) == errSecItemNotFound)
        }
    }

    @Test("A primary-key-changing update of a synchronizable item leaves a tombstone with a new persistent reference at the old key",
          arguments: PasswordClass.allCases)
    func keyChangeLeavesTombstone(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let synced = Self.synced(passwordClass)
            #expect(add(synced.with([kSecValueData: Data("s".utf8)])) == errSecSuccess)
            let reference = try #require(persistentReference(of: synced))
            #expect(update(synced, item([kSecAttrAccount: "renamed"])) == errSecSuccess)
            #expect(persistentReference(of: synced.with([kSecAttrAccount: "renamed"])) == reference)
            #expect(exists(synced) == errSecItemNotFound)
            let tombstoneReference = persistentReference(of: synced.with([kSecAttrTombstone: 1]))
            #expect(tombstoneReference != nil)
            #expect(tombstoneReference != reference)
        }
    }

    @Test("A primary-key-changing update of a local item leaves no tombstone", arguments: PasswordClass.allCases)
    func localKeyChangeNoTombstone(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrAccount: "renamed"])) == errSecSuccess)
            #expect(exists(passwordClass.base.with([kSecAttrTombstone: 1])) == errSecItemNotFound)
        }
    }

    @Test("An update may move a synchronizable item onto a tombstone's key", arguments: PasswordClass.allCases)
    func updateOntoTombstone(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let synced = Self.synced(passwordClass)
            #expect(add(synced) == errSecSuccess)
            #expect(delete(synced) == errSecSuccess)
            let other = synced.with([kSecAttrAccount: "other"])
            #expect(add(other.with([kSecValueData: Data("o".utf8)])) == errSecSuccess)
            #expect(update(other, item([kSecAttrAccount: "alice"])) == errSecSuccess)
            #expect(secret(of: synced) == Data("o".utf8))
        }
    }

    @Test("A tombstone is not found by its persistent reference", arguments: PasswordClass.allCases)
    func tombstoneNotFoundByReference(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let synced = Self.synced(passwordClass)
            #expect(add(synced) == errSecSuccess)
            let reference = try #require(persistentReference(of: synced))
            #expect(delete(synced) == errSecSuccess)
            #expect(exists(item([kSecValuePersistentRef: reference])) == errSecItemNotFound)
        }
    }

    @Test("kSecUseTombstones true makes deleting a local item leave a tombstone", arguments: PasswordClass.allCases)
    func useTombstonesTrue(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(delete(passwordClass.base.with([kSecUseTombstones: kCFBooleanTrue!])) == errSecSuccess)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
            #expect(exists(passwordClass.base.with([kSecAttrTombstone: 1])) == errSecSuccess)
        }
    }

    @Test("kSecUseTombstones false makes deleting a synchronizable item leave nothing", arguments: PasswordClass.allCases)
    func useTombstonesFalse(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let synced = Self.synced(passwordClass)
            #expect(add(synced) == errSecSuccess)
            #expect(delete(synced.with([kSecUseTombstones: kCFBooleanFalse!])) == errSecSuccess)
            #expect(exists(synced.with([kSecAttrTombstone: 1])) == errSecItemNotFound)
        }
    }
}
